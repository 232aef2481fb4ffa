import { POLYGON_EXPLORER_TX_URL, type WithdrawalRecord } from '@elex/contract';
import { ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { formatLocalTime } from '../../../shared/i18n/intl-formats';
import { formatWithdrawalAmount } from '../format-amount';

/** A hash or address shortened for the eye; the full value stays in the link and for screen readers. */
const shorten = (value: string) => `${value.slice(0, 10)}…${value.slice(-8)}`;

/**
 * The member's withdrawals: exchange, amount, address, application time and status; once sent on chain,
 * the payout's progress (sent, confirming n of m, completed) and its transaction on Polygonscan (new
 * window); while under review and not yet sent, a cancel button.
 */
export function WithdrawalTable({ records, exchangeName, onCancel }: RowProps) {
  const { t } = useTranslation();
  const isWide = useIsWide();
  if (records.length === 0) return <p className="card muted">{t('withdrawal.noRecords')}</p>;
  if (!isWide) return <WithdrawalCards records={records} exchangeName={exchangeName} onCancel={onCancel} />;
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
              <td className="numeric strong">{formatWithdrawalAmount(record.amount)}</td>
              <td className="mono" title={record.address}>
                <span aria-hidden="true">{shorten(record.address)}</span>
                <span className="visually-hidden">{record.address}</span>
              </td>
              <td>{formatLocalTime(record.createdAt)}</td>
              <td>
                <WithdrawalStatus record={record} />
              </td>
              <td>
                <CancelButton record={record} onCancel={onCancel} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type RowProps = {
  records: WithdrawalRecord[];
  exchangeName(platId: number): string;
  onCancel(withdrawal: WithdrawalRecord): void;
};

/**
 * A phone's list (issue 15): the table needed 872 px, so amount and status sat off-screen. Each entry
 * keeps the amount and status on its first line, where the eye lands.
 */
function WithdrawalCards({ records, exchangeName, onCancel }: RowProps) {
  const { t } = useTranslation();
  return (
    <ul className="card entry-list withdrawal-cards" aria-labelledby="withdrawals-title">
      {records.map((record) => (
        <li key={record.id}>
          <div>
            <p className="entry-title">{exchangeName(record.platId)}</p>
            <p className="entry-detail mono">{t('withdrawal.uidValue', { uid: record.uid })}</p>
            <p className="entry-detail mono" title={record.address}>
              <span aria-hidden="true">{shorten(record.address)}</span>
              <span className="visually-hidden">{record.address}</span>
            </p>
            <p className="entry-detail">{formatLocalTime(record.createdAt)}</p>
          </div>
          <div className="entry-side">
            <p className="entry-amount">{formatWithdrawalAmount(record.amount)}</p>
            <WithdrawalStatus record={record} />
            <CancelButton record={record} onCancel={onCancel} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The status, a failure's reason and the transaction on Polygonscan (new window): the recorded hash once
 * paid, or the payout's while it is on its way, with its confirmations counted towards final.
 */
function WithdrawalStatus({ record }: { record: WithdrawalRecord }) {
  const { t } = useTranslation();
  const payout = record.payout;
  const onItsWay = record.status === 'pending' && payout !== null && payout.stage !== 'completed';
  const txHash = record.txHash ?? (onItsWay ? payout.txHash : null);
  return (
    <>
      {onItsWay ? (
        <span className="status status-sending">{t(`withdrawal.payoutStages.${payout.stage}`)}</span>
      ) : (
        <span className={`status status-${record.status}`}>{t(`withdrawal.statuses.${record.status}`)}</span>
      )}
      {onItsWay && payout.stage === 'confirming' ? (
        <span className="status-reason payout-progress">
          <progress
            max={payout.confirmationsNeeded}
            value={payout.confirmations}
            aria-label={t('withdrawal.confirmationsLabel')}
          />
          <span>
            {t('withdrawal.confirmations', {
              done: payout.confirmations,
              needed: payout.confirmationsNeeded,
            })}
          </span>
        </span>
      ) : null}
      {onItsWay && payout.stage === 'sent' ? (
        <span className="status-reason">{t('withdrawal.sentHint')}</span>
      ) : null}
      {record.status === 'failed' && record.failureReason ? (
        <span className="status-reason">{t('withdrawal.reason', { reason: record.failureReason })}</span>
      ) : null}
      {txHash ? (
        <a
          className="status-reason tx-link"
          href={`${POLYGON_EXPLORER_TX_URL}${txHash}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          <span className="mono">{shorten(txHash)}</span>
          <ExternalLink size={12} aria-hidden="true" />
          <span className="visually-hidden">
            {t('withdrawal.viewTx')} {t('common.opensInNewWindow')}
          </span>
        </a>
      ) : null}
    </>
  );
}

function CancelButton({
  record,
  onCancel,
}: {
  record: WithdrawalRecord;
  onCancel(withdrawal: WithdrawalRecord): void;
}) {
  const { t } = useTranslation();
  // Once sent on chain it cannot be called back (the server says withdrawalBeingPaid).
  if (record.status !== 'pending' || record.payout !== null) return null;
  return (
    <button
      type="button"
      className="button button-ghost button-small"
      aria-label={t('withdrawal.cancelLabel', { amount: formatWithdrawalAmount(record.amount) })}
      onClick={() => onCancel(record)}
    >
      {t('withdrawal.cancel')}
    </button>
  );
}
