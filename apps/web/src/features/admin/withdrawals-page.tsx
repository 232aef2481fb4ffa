import {
  POLYGON_EXPLORER_TX_URL,
  WITHDRAWAL_STATUSES,
  type WithdrawalQueueItem,
  type WithdrawalStatus,
} from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useWithdrawalQueue } from './api/get-withdrawal-queue';
import { usePayoutWallet } from './api/payouts';
import { CHANGED_BY, useRefreshAfterDecision } from './api/refresh-after-decision';
import { BalanceHistory } from './components/balance-history';
import { ApproveDialog, type DecisionTarget, RejectDialog } from './components/decision-dialogs';
import { LoadError } from './components/load-error';
import { isPayoutLive, PayoutFacts } from './components/payout-facts';
import { PayoutReconciliationPanel } from './components/payout-reconciliation-panel';
import { PayoutWalletPanel } from './components/payout-wallet-panel';
import { SendDialog, type SendTarget } from './components/send-dialogs';
import { formatAmount, formatTime } from './format';
import { useExchangeNames } from './use-exchange-names';

const PAGE_SIZE = 10;

/**
 * /admin/withdrawals: the queue, oldest first, each withdrawal with the member's balance history
 * beside it; approve with the payout transaction's hash, or reject with a reason. With a payout key
 * (issue 17): the wallet's health on top, "Send on chain" per withdrawal and for a selection, and each
 * payout followed to its confirmations (the page asks again every few seconds while one is on its way).
 */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const refresh = useRefreshAfterDecision();
  const exchangeName = useExchangeNames();
  const [status, setStatus] = useState<WithdrawalStatus>('pending');
  const [page, setPage] = useState(1);
  const [watching, setWatching] = useState(false);
  const queue = useWithdrawalQueue(status, page, PAGE_SIZE, watching);
  const wallet = usePayoutWallet(watching);
  const [approving, setApproving] = useState<DecisionTarget | null>(null);
  const [rejecting, setRejecting] = useState<DecisionTarget | null>(null);
  const [sending, setSending] = useState<SendTarget[] | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const canSend = wallet.data?.enabled === true;
  const rows = queue.data?.rows ?? [];
  const live = rows.some((item) => isPayoutLive(item.payout));
  if (live !== watching) setWatching(live);
  const sendable = (item: WithdrawalQueueItem) =>
    canSend && item.status === 'pending' && !isPayoutLive(item.payout);
  const sendableRows = rows.filter(sendable);
  const chosen = sendableRows.filter((item) => selected.has(item.id));
  const sendTarget = (item: WithdrawalQueueItem): SendTarget => ({
    id: item.id,
    amount: item.amount,
    summary: summary(item),
  });
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const summary = (item: WithdrawalQueueItem) =>
    t('admin.withdrawals.summary', {
      amount: formatAmount(item.amount),
      exchange: exchangeName(item.platId),
      uid: item.uid,
      address: item.address,
    });
  const decided = async () => {
    setApproving(null);
    setRejecting(null);
    setSelected(new Set());
    await refresh(CHANGED_BY.withdrawal());
  };

  return (
    <Page
      title={t('admin.withdrawals.title')}
      intro={canSend ? t('admin.payouts.intro') : t('admin.withdrawals.intro')}
      wide
    >
      {wallet.data ? <PayoutWalletPanel wallet={wallet.data} /> : null}
      {canSend ? <PayoutReconciliationPanel /> : null}
      {wallet.isError && !wallet.data ? (
        <p className="muted payout-off">{t('admin.payouts.walletError')}</p>
      ) : null}
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('admin.withdrawals.status')}</span>
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as WithdrawalStatus);
              setPage(1);
            }}
          >
            {WITHDRAWAL_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.withdrawals.statuses.${value}`)}
              </option>
            ))}
          </select>
        </label>
        {queue.data ? (
          <p className="muted admin-count" aria-live="polite">
            {t('admin.withdrawals.count', { count: queue.data.total })}
          </p>
        ) : null}
        {sendableRows.length > 0 ? (
          <button
            type="button"
            className="button button-primary"
            disabled={chosen.length === 0}
            onClick={() => setSending(chosen.map(sendTarget))}
          >
            {t('admin.payouts.sendSelected', { count: chosen.length })}
          </button>
        ) : null}
      </div>
      {queue.isError && !queue.data ? <LoadError onRetry={() => void queue.refetch()} /> : null}
      {!queue.data ? (
        queue.isError ? null : (
          <Skeleton lines={4} />
        )
      ) : queue.data.rows.length === 0 ? (
        <p className="card muted">{t('admin.withdrawals.empty')}</p>
      ) : (
        <ol className="admin-queue">
          {queue.data.rows.map((item) => (
            <li key={item.id} className="card admin-queue-item">
              <article aria-labelledby={`withdrawal-${item.id}`}>
                <header className="admin-queue-head">
                  {sendable(item) ? (
                    <input
                      type="checkbox"
                      className="payout-select"
                      checked={selected.has(item.id)}
                      onChange={() => toggle(item.id)}
                      aria-label={t('admin.payouts.select', { id: item.id })}
                    />
                  ) : null}
                  <h2 id={`withdrawal-${item.id}`}>
                    {t('admin.withdrawals.heading', {
                      id: item.id,
                      amount: formatAmount(item.amount),
                    })}
                  </h2>
                  <span className={`status status-${item.status}`}>
                    {t(`admin.withdrawals.statuses.${item.status}`)}
                  </span>
                  {item.isOverdue ? (
                    <span className="status status-failed">{t('admin.withdrawals.overdue')}</span>
                  ) : null}
                </header>
                <div className="admin-queue-body">
                  <dl className="admin-facts">
                    <div>
                      <dt>{t('admin.withdrawals.member')}</dt>
                      <dd>
                        <Link to={`/admin/members/${item.member.userId}`}>
                          {item.member.email ?? t('admin.members.deletedAccount')}
                        </Link>{' '}
                        <span className="muted mono">{item.member.userCode}</span>
                        {item.member.suspendedAt ? (
                          <>
                            {' '}
                            <span className="status status-failed">{t('admin.lifecycle.suspended')}</span>
                          </>
                        ) : null}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('admin.withdrawals.exchangeUid')}</dt>
                      <dd>
                        {exchangeName(item.platId)} · <span className="mono">{item.uid}</span>
                        {item.isBindingLive ? null : (
                          <span className="status-reason">{t('admin.withdrawals.bindingEnded')}</span>
                        )}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('admin.withdrawals.address')}</dt>
                      <dd className="mono admin-break">{item.address}</dd>
                    </div>
                    <div>
                      <dt>{t('admin.withdrawals.requestedAt')}</dt>
                      <dd>{formatTime(item.createdAt)}</dd>
                    </div>
                    <div>
                      <dt>{t('admin.withdrawals.parts')}</dt>
                      <dd>
                        {t('admin.withdrawals.partsValue', {
                          cashback: formatAmount(item.cashbackPart),
                          rewards: formatAmount(item.rewardsPart),
                        })}
                      </dd>
                    </div>
                    {item.fastLane ? (
                      <div>
                        <dt>{t('admin.withdrawals.fastLane')}</dt>
                        <dd className={item.fastLane === 'sends' ? undefined : 'status-reason'}>
                          {t(`admin.withdrawals.fastLaneVerdicts.${item.fastLane}`)}
                        </dd>
                      </div>
                    ) : null}
                    {item.payout ? <PayoutFacts payout={item.payout} /> : null}
                    {item.txHash && item.payout?.txHash !== item.txHash ? (
                      <div>
                        <dt>{t('admin.withdrawals.txHash')}</dt>
                        <dd className="mono admin-break">
                          <a
                            href={`${POLYGON_EXPLORER_TX_URL}${item.txHash}`}
                            target="_blank"
                            rel="noreferrer"
                          >
                            {item.txHash}
                          </a>
                        </dd>
                      </div>
                    ) : null}
                    {item.failureReason ? (
                      <div>
                        <dt>{t('admin.withdrawals.reason')}</dt>
                        <dd>{item.failureReason}</dd>
                      </div>
                    ) : null}
                    {item.decidedAt ? (
                      <div>
                        <dt>{t('admin.withdrawals.decidedAt')}</dt>
                        <dd>{formatTime(item.decidedAt)}</dd>
                      </div>
                    ) : null}
                  </dl>
                  <section className="admin-history">
                    <h3>{t('admin.withdrawals.history')}</h3>
                    <dl className="admin-history-summary">
                      <div>
                        <dt>{t('admin.withdrawals.cashbackEarned')}</dt>
                        <dd>{formatAmount(item.summary.cashbackEarned)}</dd>
                      </div>
                      <div>
                        <dt>{t('admin.withdrawals.cashbackBalance')}</dt>
                        <dd>{formatAmount(item.summary.cashbackBalance)}</dd>
                      </div>
                      <div>
                        <dt>{t('admin.withdrawals.rewardsBalance')}</dt>
                        <dd>{formatAmount(item.summary.rewardsBalance)}</dd>
                      </div>
                      <div>
                        <dt>{t('admin.withdrawals.paidBefore')}</dt>
                        <dd>
                          {t('admin.withdrawals.paidBeforeValue', {
                            count: item.summary.withdrawals.completed.count,
                            amount: formatAmount(item.summary.withdrawals.completed.amount),
                          })}
                        </dd>
                      </div>
                    </dl>
                    <BalanceHistory id={item.id} movements={item.balanceHistory} />
                  </section>
                </div>
                {item.status === 'pending' && !isPayoutLive(item.payout) ? (
                  <div className="admin-actions">
                    {sendable(item) ? (
                      <button
                        type="button"
                        className="button button-primary"
                        onClick={() => setSending([sendTarget(item)])}
                      >
                        {item.payout ? t('admin.payouts.sendAgain') : t('admin.payouts.send')}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className={`button ${canSend ? 'button-ghost' : 'button-primary'}`}
                      onClick={() => setApproving({ id: item.id, summary: summary(item) })}
                    >
                      {canSend ? t('admin.payouts.approveByHand') : t('admin.withdrawals.approve')}
                    </button>
                    <button
                      type="button"
                      className="button button-danger"
                      onClick={() => setRejecting({ id: item.id, summary: summary(item) })}
                    >
                      {t('admin.withdrawals.reject')}
                    </button>
                  </div>
                ) : null}
              </article>
            </li>
          ))}
        </ol>
      )}
      {queue.data ? (
        <Pager
          page={page}
          pageSize={PAGE_SIZE}
          total={queue.data.total}
          onPage={setPage}
          label={t('admin.withdrawals.title')}
        />
      ) : null}
      <ApproveDialog target={approving} onClose={() => setApproving(null)} onDone={decided} />
      <RejectDialog target={rejecting} onClose={() => setRejecting(null)} onDone={decided} />
      <SendDialog targets={sending} onClose={() => setSending(null)} onDone={decided} />
    </Page>
  );
}
