import type { AdminBinding, MemberDetail } from '@elex/contract';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../shared/api/api-client';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { useCorrections } from './api/corrections';
import { useMemberDetail } from './api/get-member-detail';
import { useMemberLedger } from './api/get-member-ledger';
import { useWhoami } from './api/get-whoami';
import { memberAction } from './api/member-actions';
import { CHANGED_BY, useRefreshAfterDecision } from './api/refresh-after-decision';
import { unbindUid } from './api/unbind-uid';
import { ProposeCorrectionDialog } from './components/correction-dialogs';
import { CorrectionsTable, useRefreshAfterCorrection } from './components/corrections-table';
import { LoadError } from './components/load-error';
import { ReasonDialog } from './components/reason-dialog';
import { ScrollRegion } from './components/scroll-region';
import { formatAmount, formatCardAmount, formatTime } from './format';
import { useExchangeNames } from './use-exchange-names';

const LEDGER_PAGE = 20;
const CORRECTIONS_PAGE = 10;

type Dialog =
  | { kind: 'unbind'; binding: AdminBinding }
  | { kind: 'suspendMember' | 'reinstateMember' | 'liftWithdrawalLock' };

/** The dialog's words and call for each action of the page that needs a reason. */
function useDialogCopy(dialog: Dialog | null, exchangeName: (platId: number) => string) {
  const { t } = useTranslation();
  if (!dialog) return null;
  if (dialog.kind === 'unbind') {
    const { binding } = dialog;
    return {
      title: t('admin.members.unbindTitle'),
      description: t('admin.members.unbindDescription', {
        exchange: exchangeName(binding.platId),
        uid: binding.uid,
      }),
      label: t('admin.members.unbindReason'),
      hint: undefined,
      submitLabel: t('admin.members.unbindSubmit'),
      danger: true,
      run: async (reason: string, userId: number) => {
        await unbindUid({ userId, platId: binding.platId, uid: binding.uid, reason });
        toast.success(t('msg:unbindSuccessful'));
      },
    };
  }
  const { kind } = dialog;
  const done = {
    suspendMember: 'memberSuspended',
    reinstateMember: 'memberReinstated',
    liftWithdrawalLock: 'withdrawalLockLifted',
  } as const;
  return {
    title: t(`admin.lifecycle.${kind}.title`),
    description: t(`admin.lifecycle.${kind}.description`),
    label: t('admin.lifecycle.reason'),
    hint: t(`admin.lifecycle.${kind}.hint`),
    submitLabel: t(`admin.lifecycle.${kind}.submit`),
    danger: kind === 'suspendMember',
    run: async (reason: string, userId: number) => {
      await memberAction(kind, { userId, reason });
      toast.success(t(`msg:${done[kind]}`));
    },
  };
}

/** Whether the member can log in, and the 72 h withdrawal lock: each with the operator's action. */
function AccountStatus({
  member,
  onAction,
  own,
}: {
  member: MemberDetail['member'];
  onAction(kind: 'suspendMember' | 'reinstateMember' | 'liftWithdrawalLock'): void;
  /** The operator's own account: its lock is another operator's to lift (the server refuses it). */
  own: boolean;
}) {
  const { t } = useTranslation();
  const { suspension, lockLifted, withdrawalLockedUntil } = member;
  return (
    <section className="card admin-section" aria-labelledby="account-status-title">
      <h2 id="account-status-title">{t('admin.lifecycle.statusTitle')}</h2>
      <dl className="admin-facts">
        <div>
          <dt>{t('admin.lifecycle.login')}</dt>
          <dd>
            {suspension ? (
              <span className="status status-failed">{t('admin.lifecycle.suspended')}</span>
            ) : (
              <span className="status status-completed">{t('admin.lifecycle.active')}</span>
            )}
          </dd>
        </div>
        {suspension ? (
          <div>
            <dt>{t('admin.lifecycle.suspendedBecause')}</dt>
            <dd>
              {suspension.reason}
              <span className="status-reason">
                {t('admin.lifecycle.byAt', {
                  by: suspension.by ?? t('admin.lifecycle.unknownOperator'),
                  time: formatTime(suspension.at),
                })}
              </span>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin.members.lockedUntil')}</dt>
          <dd>
            {withdrawalLockedUntil ? formatTime(withdrawalLockedUntil) : t('admin.lifecycle.notLocked')}
          </dd>
        </div>
        {lockLifted ? (
          <div>
            <dt>{t('admin.lifecycle.lockLifted')}</dt>
            <dd>
              {lockLifted.reason}
              <span className="status-reason">
                {t('admin.lifecycle.byAt', { by: lockLifted.by, time: formatTime(lockLifted.at) })}
              </span>
            </dd>
          </div>
        ) : null}
      </dl>
      {member.deletedAt ? null : (
        <div className="admin-actions">
          {suspension ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => onAction('reinstateMember')}
            >
              {t('admin.lifecycle.reinstateMember.open')}
            </button>
          ) : member.isOperator ? null : (
            <button type="button" className="button button-danger" onClick={() => onAction('suspendMember')}>
              {t('admin.lifecycle.suspendMember.open')}
            </button>
          )}
          {withdrawalLockedUntil && !own ? (
            <button
              type="button"
              className="button button-ghost"
              onClick={() => onAction('liftWithdrawalLock')}
            >
              {t('admin.lifecycle.liftWithdrawalLock.open')}
            </button>
          ) : null}
        </div>
      )}
      {own && !member.deletedAt ? <p className="muted">{t('admin.lifecycle.ownAccount')}</p> : null}
    </section>
  );
}

/** /admin/members/:userId: who, bindings (live and ended) with balances, the ledger; unbind a UID. */
export default function MemberPage() {
  const { t } = useTranslation();
  const refresh = useRefreshAfterDecision();
  const userId = Number(useParams().userId);
  const detail = useMemberDetail(userId);
  const [page, setPage] = useState(1);
  const ledger = useMemberLedger(userId, page, LEDGER_PAGE);
  const exchangeName = useExchangeNames();
  const [correctionsPage, setCorrectionsPage] = useState(1);
  const corrections = useCorrections({ userId, page: correctionsPage, pageSize: CORRECTIONS_PAGE });
  const [proposing, setProposing] = useState(false);
  const refreshAfterCorrection = useRefreshAfterCorrection();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const copy = useDialogCopy(dialog, exchangeName);

  const data = detail.data;
  const own = useWhoami().data?.userId === userId;
  const title = data?.member.email ?? (data ? t('admin.members.deletedAccount') : t('admin.members.member'));
  return (
    <Page title={title} wide>
      <p>
        <Link to="/admin/members" className="admin-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {t('admin.members.back')}
        </Link>
      </p>
      {detail.isError && !data ? <LoadError onRetry={() => void detail.refetch()} /> : null}
      {!data ? (
        detail.isError ? null : (
          <Skeleton lines={5} />
        )
      ) : (
        <>
          <div className="admin-two-columns">
            <section className="card">
              <h2>{t('admin.members.profile')}</h2>
              <dl className="admin-facts">
                <div>
                  <dt>{t('admin.members.userCode')}</dt>
                  <dd className="mono">{data.member.userCode}</dd>
                </div>
                <div>
                  <dt>{t('admin.members.inviteCode')}</dt>
                  <dd className="mono">{data.member.inviteCode}</dd>
                </div>
                <div>
                  <dt>{t('admin.members.joined')}</dt>
                  <dd>{formatTime(data.member.createdAt)}</dd>
                </div>
                <div>
                  <dt>{t('admin.members.language')}</dt>
                  <dd>{data.member.locale}</dd>
                </div>
                {data.member.inviterId ? (
                  <div>
                    <dt>{t('admin.members.invitedBy')}</dt>
                    <dd>
                      <Link to={`/admin/members/${data.member.inviterId}`}>#{data.member.inviterId}</Link>
                    </dd>
                  </div>
                ) : null}
                {data.member.deletedAt ? (
                  <div>
                    <dt>{t('admin.members.deleted')}</dt>
                    <dd>{formatTime(data.member.deletedAt)}</dd>
                  </div>
                ) : null}
                {data.member.isOperator ? (
                  <div>
                    <dt>{t('admin.members.role')}</dt>
                    <dd>{t('admin.members.operator')}</dd>
                  </div>
                ) : null}
              </dl>
            </section>
            <section className="card">
              <h2>{t('admin.members.balances')}</h2>
              <dl className="admin-stats admin-stats-small">
                <div className="admin-stat">
                  <dt>{t('admin.members.cashbackBalance')}</dt>
                  <dd>{t('admin.common.usdt', { amount: formatCardAmount(data.balances.cashback) })}</dd>
                </div>
                <div className="admin-stat">
                  <dt>{t('admin.members.rewardsBalance')}</dt>
                  <dd>{t('admin.common.usdt', { amount: formatCardAmount(data.balances.rewards) })}</dd>
                </div>
              </dl>
            </section>
          </div>

          <AccountStatus member={data.member} own={own} onAction={(kind) => setDialog({ kind })} />

          <section className="card admin-section">
            <h2>{t('admin.members.bindings')}</h2>
            {data.bindings.length === 0 ? (
              <p className="muted">{t('admin.members.noBindings')}</p>
            ) : (
              <ScrollRegion label={t('admin.members.bindings')}>
                <table className="data-table admin-compact admin-fit">
                  <thead>
                    <tr>
                      <th scope="col">{t('admin.members.exchange')}</th>
                      <th scope="col">{t('admin.members.uidAndAddress')}</th>
                      <th scope="col">{t('admin.members.boundAt')}</th>
                      <th scope="col" className="numeric">
                        {t('admin.members.uidBalance')}
                      </th>
                      <th scope="col">{t('admin.members.state')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.bindings.map((binding) => (
                      <tr key={`${binding.platId}-${binding.uid}-${binding.boundAt}`}>
                        <td>{exchangeName(binding.platId)}</td>
                        <td>
                          <span className="mono">{binding.uid}</span>
                          <span className="status-reason mono admin-break">{binding.address}</span>
                        </td>
                        <td className="admin-when">{formatTime(binding.boundAt)}</td>
                        <td className="numeric">{formatAmount(binding.balance)}</td>
                        <td className="wrap">
                          {binding.unboundAt ? (
                            <>
                              <span className="status status-failed">{t('admin.members.unbound')}</span>
                              <span className="status-reason">
                                {formatTime(binding.unboundAt)} · {binding.unbindReason}
                              </span>
                            </>
                          ) : own ? (
                            <span className="status-reason">{t('admin.members.ownUid')}</span>
                          ) : (
                            <button
                              type="button"
                              className="button button-ghost admin-small-button"
                              onClick={() => setDialog({ kind: 'unbind', binding })}
                              aria-label={t('admin.members.unbindUid', { uid: binding.uid })}
                            >
                              {t('admin.members.unbind')}
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            )}
          </section>

          <section className="card admin-section" aria-labelledby="member-corrections">
            <div className="admin-section-head">
              <h2 id="member-corrections">{t('admin.corrections.section')}</h2>
              {data.member.deletedAt ? null : (
                <button type="button" className="button button-primary" onClick={() => setProposing(true)}>
                  {t('admin.corrections.propose')}
                </button>
              )}
            </div>
            {corrections.isError && !corrections.data ? (
              <LoadError onRetry={() => void corrections.refetch()} />
            ) : !corrections.data ? (
              <Skeleton lines={2} />
            ) : corrections.data.rows.length === 0 ? (
              <p className="muted">{t('admin.corrections.empty')}</p>
            ) : (
              <>
                <CorrectionsTable rows={corrections.data.rows} showMember={false} />
                <Pager
                  page={correctionsPage}
                  pageSize={CORRECTIONS_PAGE}
                  total={corrections.data.total}
                  onPage={setCorrectionsPage}
                  label={t('admin.corrections.section')}
                />
              </>
            )}
          </section>
          <ProposeCorrectionDialog
            key={userId}
            open={proposing}
            userId={userId}
            bindings={data.bindings}
            rewardsBalance={data.balances.rewards}
            threshold={corrections.data?.approvalThreshold ?? '0'}
            exchangeName={exchangeName}
            onClose={() => setProposing(false)}
            onDone={async () => {
              setProposing(false);
              await refreshAfterCorrection(userId);
            }}
          />

          <section className="card admin-section">
            <h2>{t('admin.members.ledger')}</h2>
            {ledger.isError && !ledger.data ? (
              <LoadError onRetry={() => void ledger.refetch()} />
            ) : !ledger.data ? (
              <Skeleton lines={3} />
            ) : ledger.data.rows.length === 0 ? (
              <p className="muted">{t('admin.members.noLedger')}</p>
            ) : (
              <>
                <ScrollRegion label={t('admin.members.ledger')}>
                  <table className="data-table admin-compact admin-fit">
                    <thead>
                      <tr>
                        <th scope="col">{t('admin.ledger.at')}</th>
                        <th scope="col">{t('admin.ledger.kind')}</th>
                        <th scope="col">{t('admin.ledger.account')}</th>
                        <th scope="col" className="numeric">
                          {t('admin.ledger.amount')}
                        </th>
                        <th scope="col" className="numeric">
                          {t('admin.ledger.balanceAfter')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {ledger.data.rows.map((line) => (
                        <tr key={line.lineId}>
                          <td className="admin-when">{formatTime(line.at)}</td>
                          <td>{t(`admin.ledger.kinds.${line.kind}`, { defaultValue: line.kind })}</td>
                          <td className="admin-account">
                            <span className="mono admin-break">{line.account}</span>
                            {line.bindingEnded ? (
                              <span className="status-reason">{t('admin.ledger.bindingEnded')}</span>
                            ) : null}
                          </td>
                          <td className={`numeric${line.amount.startsWith('-') ? '' : ' positive'}`}>
                            {formatAmount(line.amount)}
                          </td>
                          <td className="numeric">{formatAmount(line.balanceAfter)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </ScrollRegion>
                <Pager
                  page={page}
                  pageSize={LEDGER_PAGE}
                  total={ledger.data.total}
                  onPage={setPage}
                  label={t('admin.members.ledger')}
                />
              </>
            )}
          </section>
          <ReasonDialog
            open={copy !== null}
            id={dialog?.kind ?? 'member'}
            title={copy?.title ?? ''}
            description={copy?.description ?? ''}
            label={copy?.label ?? ''}
            hint={copy?.hint}
            submitLabel={copy?.submitLabel ?? ''}
            danger={copy?.danger}
            onClose={() => setDialog(null)}
            onSubmit={async (reason) => {
              const unbinding = dialog?.kind === 'unbind';
              try {
                await copy?.run(reason, userId);
              } catch (failure) {
                // The API client showed the reason. An unbind refused (unbindHolderChanged, uidNotBound):
                // the UID changed hands since this page loaded; the dialog closes and the page loads the
                // member again, so it no longer offers the UID as their live binding.
                if (!(unbinding && failure instanceof ApiError && failure.kind === 'refused')) throw failure;
              }
              setDialog(null);
              await refresh(unbinding ? CHANGED_BY.unbinding(userId) : CHANGED_BY.memberStatus(userId));
            }}
          />
        </>
      )}
    </Page>
  );
}
