import { PAYOUT_IN_FLIGHT, type PayoutSummary } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { formatGwei, formatTime } from '../format';
import { ExplorerLink } from './explorer-link';

/** Whether the payout may still move money: the withdrawal waits for it, not for the operator. */
export const isPayoutLive = (payout: PayoutSummary | null): payout is PayoutSummary =>
  payout !== null && PAYOUT_IN_FLIGHT.includes(payout.state);

/**
 * A withdrawal's newest on-chain payout in the queue's facts: its state (with confirmations while in
 * a block), the transaction, who sent it, and what went wrong (held below the network's fee by the
 * ceiling; the node's last refusal while it is retried; why it reverted or was dropped).
 */
export function PayoutFacts({ payout }: { payout: PayoutSummary }) {
  const { t } = useTranslation();
  const trouble = payout.state === 'reverted' || payout.state === 'dropped';
  return (
    <>
      <div>
        <dt>{t('admin.payouts.payout')}</dt>
        <dd>
          <span
            className={`status ${trouble ? 'status-failed' : payout.state === 'confirmed' ? 'status-completed' : 'status-sending'}`}
          >
            {t(`admin.payouts.states.${payout.state}`)}
          </span>{' '}
          {payout.state === 'mined' ? (
            <span>
              {t('admin.payouts.confirmations', {
                done: payout.confirmations,
                needed: payout.confirmationsNeeded,
              })}
            </span>
          ) : null}
          <span className="status-reason">
            {t('admin.payouts.sentLine', {
              nonce: payout.nonce,
              attempts: payout.attempts,
              by: payout.sentBy ?? (payout.sentVia === 'auto' ? t('admin.payouts.fastLane') : payout.sentVia),
              at: formatTime(payout.createdAt),
            })}
          </span>
          {trouble && payout.failureReason ? (
            <span className="status-reason">
              {t('admin.payouts.failure', { reason: payout.failureReason })}
            </span>
          ) : null}
          {!trouble && payout.feeHeld ? (
            <span className="status-reason">
              {t('admin.payouts.feeHeld', {
                asked: formatGwei(payout.feeHeld.askedGwei),
                ceiling: formatGwei(payout.feeHeld.ceilingGwei),
              })}
            </span>
          ) : null}
          {!trouble && payout.lastError ? (
            <span className="status-reason">{t('admin.payouts.lastError', { error: payout.lastError })}</span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>{t('admin.payouts.transaction')}</dt>
        <dd className="mono admin-break">
          <ExplorerLink url={payout.explorerUrl} text={payout.txHash} />
        </dd>
      </div>
    </>
  );
}
