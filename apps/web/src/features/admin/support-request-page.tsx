import {
  type AdminSupportDetail,
  AdminSupportReplySchema,
  State,
  type SupportStatus,
  type SupportUidState,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../../shared/api/api-client';
import { STATUS_CLASS } from '../../shared/support-labels';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { SupportThread } from '../../shared/ui/support-thread';
import { toast } from '../../shared/ui/toast';
import { adminSupportRequestQuery, useAdminSupportRequest } from './api/get-support-request';
import { CHANGED_BY, useRefreshAfterDecision } from './api/refresh-after-decision';
import { replySupportRequest } from './api/reply-support-request';
import { fieldError } from './components/field-error';
import { LoadError } from './components/load-error';
import { type SupportAction, SupportActionDialog } from './components/support-action-dialog';
import { formatAmount, formatTime } from './format';
import { useExchangeNames } from './use-exchange-names';

/**
 * /admin/support/:id (issue 11): one request, its thread with the member's screenshots, and for a UID
 * request what the operator needs to decide it (who holds the UID now, since when, its hold, balance,
 * roster registration, freeze and withdrawals under review); reply, close, move the binding to the
 * claimant, or confirm the holder's ownership, each decision confirmed in a dialog first.
 */
export default function SupportRequestPage() {
  const { t } = useTranslation();
  const id = useParams().id ?? '';
  const client = useQueryClient();
  const refresh = useRefreshAfterDecision();
  const request = useAdminSupportRequest(id);
  const exchangeName = useExchangeNames();
  const [action, setAction] = useState<SupportAction | null>(null);
  const notFound =
    request.error instanceof ApiError &&
    request.error.kind === 'refused' &&
    request.error.state === State.NotFound;

  const updated = (detail: AdminSupportDetail) => {
    setAction(null);
    client.setQueryData(adminSupportRequestQuery(id).queryKey, detail);
    void client.invalidateQueries({ queryKey: ['admin', 'support', 'list'] });
  };
  // A decision (close, move, confirm) changes more than the queue: members, bindings, withdrawals.
  const decided = (detail: AdminSupportDetail) => {
    updated(detail);
    void refresh(CHANGED_BY.supportDecision());
  };

  return (
    <Page title={t('admin.support.requestTitle', { id })} wide>
      <p>
        <Link to="/admin/support" className="admin-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {t('admin.support.back')}
        </Link>
      </p>
      {notFound ? (
        <p className="card muted">{t('admin.support.notFound')}</p>
      ) : request.isError && !request.data ? (
        <LoadError onRetry={() => void request.refetch()} />
      ) : !request.data ? (
        <Skeleton lines={6} />
      ) : (
        <>
          <div className="admin-two-columns">
            <RequestFacts request={request.data} />
            {request.data.uidState ? (
              <UidState state={request.data.uidState} exchangeName={exchangeName} />
            ) : null}
          </div>
          <section className="card admin-section" aria-labelledby="support-thread-title">
            <h2 id="support-thread-title">{t('support.thread.title')}</h2>
            <SupportThread messages={request.data.messages} reader="operator" formatTime={formatTime} />
          </section>
          {request.data.status === 'closed' ? null : (
            <>
              <OperatorReply request={request.data} onDone={updated} />
              <Decisions request={request.data} onChoose={setAction} />
            </>
          )}
          <SupportActionDialog
            action={action}
            request={request.data}
            exchangeName={exchangeName}
            onClose={() => setAction(null)}
            onDone={decided}
          />
        </>
      )}
    </Page>
  );
}

function RequestFacts({ request }: { request: AdminSupportDetail }) {
  const { t } = useTranslation();
  return (
    <section className="card admin-section" aria-labelledby="support-request-title">
      <h2 id="support-request-title">{t('admin.support.request')}</h2>
      <dl className="admin-facts">
        <div>
          <dt>{t('admin.support.columns.member')}</dt>
          <dd className="admin-break">
            <Link to={`/admin/members/${request.userId}`}>
              {request.email ?? t('admin.members.deletedAccount')}
            </Link>
          </dd>
        </div>
        <div>
          <dt>{t('admin.support.kind')}</dt>
          <dd>{t(`support.kinds.${request.kind}`)}</dd>
        </div>
        <div>
          <dt>{t('admin.support.status')}</dt>
          <dd>
            <span className={STATUS_CLASS[request.status as SupportStatus]}>
              {t(`admin.support.statuses.${request.status}`)}
            </span>
          </dd>
        </div>
        {request.resolution ? (
          <div>
            <dt>{t('admin.support.resolution')}</dt>
            <dd>{t(`admin.support.resolutions.${request.resolution}`)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin.support.openedAt')}</dt>
          <dd>{formatTime(request.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('admin.support.columns.lastActivity')}</dt>
          <dd>{formatTime(request.updatedAt)}</dd>
        </div>
        {request.address ? (
          <div>
            <dt>{t('admin.support.claimantAddress')}</dt>
            <dd className="mono admin-break">{request.address}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/** The UID as it is now: what a dispute or an ownership check is decided on. */
function UidState({ state, exchangeName }: { state: SupportUidState; exchangeName(platId: number): string }) {
  const { t } = useTranslation();
  const { holder } = state;
  return (
    <section className="card admin-section" aria-labelledby="support-uid-title">
      <h2 id="support-uid-title">{t('admin.support.uidState')}</h2>
      <dl className="admin-facts">
        <div>
          <dt>{t('admin.support.columns.uid')}</dt>
          <dd>{t('support.uidValue', { exchange: exchangeName(state.platId), uid: state.uid })}</dd>
        </div>
        <div>
          <dt>{t('admin.support.holder')}</dt>
          <dd className="admin-break">
            {holder ? (
              <Link to={`/admin/members/${holder.userId}`}>
                {holder.email ?? t('admin.members.deletedAccount')}
              </Link>
            ) : (
              t('admin.support.noHolder')
            )}
          </dd>
        </div>
        {holder ? (
          <>
            <div>
              <dt>{t('admin.support.boundAt')}</dt>
              <dd>{formatTime(holder.boundAt)}</dd>
            </div>
            <div>
              <dt>{t('admin.support.heldUntil')}</dt>
              <dd>{holder.heldUntil ? formatTime(holder.heldUntil) : t('admin.support.notHeld')}</dd>
            </div>
            <div>
              <dt>{t('admin.support.verifiedAt')}</dt>
              <dd>
                {holder.ownershipVerifiedAt
                  ? formatTime(holder.ownershipVerifiedAt)
                  : t('admin.support.notVerified')}
              </dd>
            </div>
          </>
        ) : null}
        <div>
          <dt>{t('admin.support.balance')}</dt>
          <dd className="strong">{t('admin.common.usdt', { amount: formatAmount(state.balance) })}</dd>
        </div>
        <div>
          <dt>{t('admin.support.registeredAt')}</dt>
          <dd>{state.registeredAt ? formatTime(state.registeredAt) : t('admin.support.notOnRoster')}</dd>
        </div>
        <div>
          <dt>{t('admin.support.frozen')}</dt>
          <dd>
            {state.frozen ? (
              <span className="status status-failed">{t('admin.support.frozenYes')}</span>
            ) : (
              t('admin.support.frozenNo')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('admin.support.inviterBonuses')}</dt>
          <dd className="admin-break">
            {state.holderInviterBonuses.length > 0
              ? state.holderInviterBonuses.map((bonus) => (
                  <span key={bonus.inviterId} className="admin-bonus">
                    <Link to={`/admin/members/${bonus.inviterId}`}>
                      {bonus.email ?? t('admin.members.deletedAccount')}
                    </Link>
                    {' · '}
                    {t('admin.common.usdt', { amount: formatAmount(bonus.amount) })}
                  </span>
                ))
              : t('admin.support.inviterBonusesNone')}
          </dd>
        </div>
        <div>
          <dt>{t('admin.support.underReview')}</dt>
          <dd>
            {state.withdrawalsUnderReview > 0 ? (
              <Link to="/admin/withdrawals">
                {t('admin.support.underReviewCount', { count: state.withdrawalsUnderReview })}
              </Link>
            ) : (
              t('admin.support.underReviewNone')
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function OperatorReply({
  request,
  onDone,
}: {
  request: AdminSupportDetail;
  onDone(detail: AdminSupportDetail): void;
}) {
  const { t } = useTranslation();
  const form = useForm<
    z.input<typeof AdminSupportReplySchema>,
    unknown,
    z.output<typeof AdminSupportReplySchema>
  >({
    resolver: zodResolver(AdminSupportReplySchema),
    mode: 'onTouched',
    defaultValues: { id: request.id, text: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <section className="card admin-section" aria-labelledby="support-reply-title">
      <h2 id="support-reply-title">{t('admin.support.replyTitle')}</h2>
      <form
        className="form admin-form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            const detail = await replySupportRequest({ id: request.id, text: values.text });
            toast.success(t('msg:supportReplySent'));
            form.reset({ id: request.id, text: '' });
            onDone(detail);
          } catch {
            // The API client showed the reason.
          }
        })}
      >
        <Field
          id="support-operator-reply"
          label={t('admin.support.replyText')}
          hint={t('admin.support.replyHint')}
          error={fieldError(t, errors.text?.message)}
        >
          <textarea className="input admin-support-textarea" rows={4} {...form.register('text')} />
        </Field>
        <div>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            {isSubmitting ? t('common.loading') : t('admin.support.replySend')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The decisions this request allows; a button that cannot work now says why beside it. */
function Decisions({
  request,
  onChoose,
}: {
  request: AdminSupportDetail;
  onChoose(action: SupportAction): void;
}) {
  const { t } = useTranslation();
  const state = request.uidState;
  const moveBlocked = !state?.holder
    ? t('msg:supportNoHolder')
    : state.withdrawalsUnderReview > 0
      ? t('msg:supportWithdrawalUnderReview')
      : null;
  const verifyBlocked = state && !state.holder ? t('msg:supportNoHolder') : null;
  const canVerify = request.kind === 'ownership' || request.kind === 'uidBoundByOther';
  return (
    <section className="card admin-section" aria-labelledby="support-decisions-title">
      <h2 id="support-decisions-title">{t('admin.support.decisions')}</h2>
      <div className="admin-support-decisions">
        {request.kind === 'uidBoundByOther' ? (
          <div className="admin-support-decision">
            <button
              type="button"
              className="button button-primary"
              disabled={moveBlocked !== null}
              aria-describedby={moveBlocked ? 'support-move-blocked' : undefined}
              onClick={() => onChoose('moveBinding')}
            >
              {t('admin.support.move')}
            </button>
            {moveBlocked ? (
              <p id="support-move-blocked" className="muted admin-support-reason">
                {moveBlocked}
              </p>
            ) : null}
          </div>
        ) : null}
        {canVerify ? (
          <div className="admin-support-decision">
            <button
              type="button"
              className="button button-primary"
              disabled={verifyBlocked !== null}
              aria-describedby={verifyBlocked ? 'support-verify-blocked' : undefined}
              onClick={() => onChoose('verifyOwnership')}
            >
              {t(request.kind === 'uidBoundByOther' ? 'admin.support.verifyHolder' : 'admin.support.verify')}
            </button>
            {verifyBlocked ? (
              <p id="support-verify-blocked" className="muted admin-support-reason">
                {verifyBlocked}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="admin-support-decision">
          <button type="button" className="button button-ghost" onClick={() => onChoose('close')}>
            {t('admin.support.close')}
          </button>
        </div>
      </div>
    </section>
  );
}
