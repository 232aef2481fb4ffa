import { POLYGON_EXPLORER_TX_URL, type Withdrawal } from '@elex/contract';
import { ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../shared/i18n/i18n';
import { displayUsdt } from '../amount-rules';

const time = (iso: string) =>
  new Date(iso).toLocaleString(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' });

/** A hash or address shortened for the eye; the full value stays in the link and for screen readers. */
const shorten = (value: string) => `${value.slice(0, 10)}…${value.slice(-8)}`;

/**
 * The member's withdrawals: exchange, amount, address, application time and status; once paid, the
 * transaction on Polygonscan (new window); while under review, a cancel button.
 */
export function WithdrawalTable({
  records,
  exchangeName,
  onCancel,
}: {
  records: Withdrawal[];
  exchangeName(platId: number): string;
  onCancel(withdrawal: Withdrawal): void;
}) {
  const { t } = useTranslation();
  if (records.length === 0) return <p className="card muted">{t('withdrawal.noRecords')}</p>;
  return (
    // A table wider than the screen scrolls sideways: a focusable region lets a keyboard scroll it.
    <div
      className="table-scroll withdrawal-scroll"
      tabIndex={0}
      role="region"
      aria-labelledby="withdrawals-title"
    >
      <table className="data-table withdrawal-table">
        <thead>
          <tr>
            <th scope="col">{t('withdrawal.columns.exchange')}</th>
            <th scope="col" className="numeric">
              {t('withdrawal.columns.amount')}
            </th>
            <th scope="col">{t('withdrawal.columns.address')}</th>
            <th scope="col">{t('withdrawal.columns.time')}</th>
            <th scope="col">{t('withdrawal.columns.status')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('withdrawal.columns.action')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id}>
              <td>
                {exchangeName(record.platId)}
                <span className="status-reason mono">{t('withdrawal.uidValue', { uid: record.uid })}</span>
              </td>
              <td className="numeric strong">{displayUsdt(record.amount)}</td>
              <td className="mono" title={record.address}>
                <span aria-hidden="true">{shorten(record.address)}</span>
                <span className="visually-hidden">{record.address}</span>
              </td>
              <td>{time(record.createdAt)}</td>
              <td>
                <span className={`status status-${record.status}`}>
                  {t(`withdrawal.statuses.${record.status}`)}
                </span>
                {record.status === 'failed' && record.failureReason ? (
                  <span className="status-reason">
                    {t('withdrawal.reason', { reason: record.failureReason })}
                  </span>
                ) : null}
                {record.txHash ? (
                  <a
                    className="status-reason tx-link"
                    href={`${POLYGON_EXPLORER_TX_URL}${record.txHash}`}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    <span className="mono">{shorten(record.txHash)}</span>
                    <ExternalLink size={12} aria-hidden="true" />
                    <span className="visually-hidden">
                      {t('withdrawal.viewTx')} {t('common.opensInNewWindow')}
                    </span>
                  </a>
                ) : null}
              </td>
              <td>
                {record.status === 'pending' ? (
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    aria-label={t('withdrawal.cancelLabel', { amount: displayUsdt(record.amount) })}
                    onClick={() => onCancel(record)}
                  >
                    {t('withdrawal.cancel')}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
