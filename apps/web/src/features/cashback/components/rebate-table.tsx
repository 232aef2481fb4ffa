import type { RebateRecord } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { formatCashback } from '../../../shared/exchanges/format';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { formatPeriod } from '../amounts';

/** Cashback records: exchange, UID, period, fee, amount and status (spec section 3). */
export function RebateTable({
  records,
  exchangeName,
}: {
  records: RebateRecord[];
  exchangeName(platId: number): string;
}) {
  const { t } = useTranslation();
  const isWide = useIsWide();
  if (records.length === 0) return <p className="card muted">{t('cashback.noRecords')}</p>;
  if (!isWide) {
    // A phone's list (issue 15): the six columns put Amount and Status off-screen at 390 px.
    return (
      <ul className="card entry-list" aria-label={t('pages.records.title')}>
        {records.map((record) => (
          <li key={record.id}>
            <div>
              <p className="entry-title">{exchangeName(record.platId)}</p>
              <p className="entry-detail mono">{record.uid}</p>
              <p className="entry-detail">{formatPeriod(record.periodStart, record.periodEnd)}</p>
              <p className="entry-detail">
                {t('cashback.fee')} {formatCashback(record.fee)}
              </p>
            </div>
            <div className="entry-side">
              <p className="entry-amount">{formatCashback(record.amount)}</p>
              <RebateStatus record={record} />
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    // Focusable so a keyboard can scroll it sideways on a phone (axe: scrollable-region-focusable).
    <section className="table-scroll" aria-label={t('pages.records.title')} tabIndex={0}>
      <table className="data-table">
        <caption className="visually-hidden">{t('pages.records.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('cashback.exchange')}</th>
            <th scope="col">{t('cashback.uid')}</th>
            <th scope="col">{t('cashback.period')}</th>
            <th scope="col" className="numeric">
              {t('cashback.fee')}
            </th>
            <th scope="col" className="numeric">
              {t('cashback.amount')}
            </th>
            <th scope="col">{t('cashback.status')}</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id}>
              <td>{exchangeName(record.platId)}</td>
              <td className="mono">{record.uid}</td>
              <td>{formatPeriod(record.periodStart, record.periodEnd)}</td>
              <td className="numeric">{formatCashback(record.fee)}</td>
              <td className="numeric strong">{formatCashback(record.amount)}</td>
              <td>
                <RebateStatus record={record} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RebateStatus({ record }: { record: RebateRecord }) {
  const { t } = useTranslation();
  return (
    <>
      <span className={`status status-${record.status}`}>{t(`cashback.statuses.${record.status}`)}</span>
      {record.failureReason ? (
        <span className="status-reason">
          {t(`msg:${record.failureReason}`, { defaultValue: record.failureReason })}
        </span>
      ) : null}
    </>
  );
}
