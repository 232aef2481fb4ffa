import type { Correction } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from '../../../shared/ui/toast';
import { approveCorrection } from '../api/corrections';
import { useWhoami } from '../api/get-whoami';
import { CHANGED_BY, useRefreshAfterDecision } from '../api/refresh-after-decision';
import { formatAmount, formatTime } from '../format';
import { useExchangeNames } from '../use-exchange-names';
import { RejectCorrectionDialog } from './correction-dialogs';
import { ScrollRegion } from './scroll-region';

const STATUS_CLASS = {
  pending: 'status-pending',
  posted: 'status-completed',
  rejected: 'status-failed',
} as const;

/** After a decision: the queue, the member page's list, its balances and ledger all changed. */
export function useRefreshAfterCorrection() {
  const refresh = useRefreshAfterDecision();
  return (userId: number) => refresh(CHANGED_BY.correction(userId));
}

/**
 * Corrections with their decisions. A pending one offers Approve to any other operator and Reject to
 * everyone (the proposer's is a withdrawal), except to the operator whose money it moves, who is told
 * another operator decides; the server checks all of it again.
 */
export function CorrectionsTable({ rows, showMember }: { rows: readonly Correction[]; showMember: boolean }) {
  const { t } = useTranslation();
  const whoami = useWhoami();
  const exchangeName = useExchangeNames();
  const refresh = useRefreshAfterCorrection();
  const [rejecting, setRejecting] = useState<Correction | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const accountLabel = (row: Correction) =>
    row.account === 'rewards'
      ? t('admin.corrections.rewardsAccount')
      : `${exchangeName(row.platId ?? 0)} · ${row.uid}`;
  // Each row's buttons name their correction: a screen reader lists them out of the table.
  const rowNames = (row: Correction) => ({ amount: formatAmount(row.amount), account: accountLabel(row) });
  const approve = async (row: Correction) => {
    setBusy(row.id);
    try {
      await approveCorrection(row.id);
      toast.success(t('msg:correctionPosted'));
    } catch {
      // The API client showed the reason (already decided, overdraft ...).
    } finally {
      setBusy(null);
      await refresh(row.userId);
    }
  };

  return (
    <>
      <ScrollRegion label={t('admin.corrections.title')}>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.corrections.proposed')}</th>
              {showMember ? <th scope="col">{t('admin.corrections.member')}</th> : null}
              <th scope="col">{t('admin.corrections.account')}</th>
              <th scope="col" className="numeric">
                {t('admin.corrections.amount')}
              </th>
              <th scope="col">{t('admin.corrections.reason')}</th>
              <th scope="col">{t('admin.corrections.status')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const mine = whoami.data?.userId === row.proposedById;
              // A correction of the operator's own money is another operator's to approve or reject
              // (the server refuses both); a proposal of their own they may still withdraw.
              const ownMoney = !mine && whoami.data?.userId === row.userId;
              return (
                <tr key={row.id}>
                  <td>
                    {formatTime(row.proposedAt)}
                    <span className="status-reason">{row.proposedBy}</span>
                  </td>
                  {showMember ? (
                    <td>
                      <Link to={`/admin/members/${row.userId}`}>{row.memberEmail ?? `#${row.userId}`}</Link>
                    </td>
                  ) : null}
                  <td>{accountLabel(row)}</td>
                  <td className={`numeric${row.amount.startsWith('-') ? '' : ' positive'}`}>
                    {formatAmount(row.amount)}
                  </td>
                  <td className="wrap">{row.reason}</td>
                  <td className="wrap">
                    <span className={`status ${STATUS_CLASS[row.status]}`}>
                      {t(`admin.corrections.statuses.${row.status}`)}
                    </span>
                    {row.status === 'pending' && ownMoney ? (
                      <span className="status-reason">{t('admin.corrections.ownMoney')}</span>
                    ) : row.status === 'pending' ? (
                      <span className="admin-row-actions">
                        {mine ? (
                          <span className="status-reason">{t('admin.corrections.yours')}</span>
                        ) : (
                          <button
                            type="button"
                            className="button button-primary admin-small-button"
                            disabled={busy === row.id}
                            onClick={() => void approve(row)}
                            aria-label={t('admin.corrections.approveRow', rowNames(row))}
                          >
                            {t('admin.corrections.approve')}
                          </button>
                        )}
                        <button
                          type="button"
                          className="button button-ghost admin-small-button"
                          onClick={() => setRejecting(row)}
                          aria-label={t(
                            mine ? 'admin.corrections.withdrawRow' : 'admin.corrections.rejectRow',
                            rowNames(row),
                          )}
                        >
                          {mine ? t('admin.corrections.withdraw') : t('admin.corrections.reject')}
                        </button>
                      </span>
                    ) : (
                      <span className="status-reason">
                        {formatTime(row.decidedAt)} · {row.decidedBy}
                        {row.rejectionReason ? ` · ${row.rejectionReason}` : ''}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      <RejectCorrectionDialog
        correction={rejecting}
        summary={
          rejecting
            ? t('admin.corrections.summary', {
                amount: formatAmount(rejecting.amount),
                account: accountLabel(rejecting),
                member: rejecting.memberEmail ?? `#${rejecting.userId}`,
              })
            : ''
        }
        onClose={() => setRejecting(null)}
        onDone={async () => {
          const userId = rejecting?.userId;
          setRejecting(null);
          if (userId !== undefined) await refresh(userId);
        }}
      />
    </>
  );
}
