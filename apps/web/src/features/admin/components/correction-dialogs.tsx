import {
  type AdminBinding,
  type Correction,
  correctionReasonSchema,
  RejectCorrectionRequestSchema,
  signedUsdtAmountSchema,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod';
import { ApiError } from '../../../shared/api/api-client';
import { newRequestId } from '../../../shared/api/request-id';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { proposeCorrection, rejectCorrection } from '../api/corrections';
import { formatAmount } from '../format';

const message = (t: (key: string) => string, key: string | undefined) => (key ? t(`msg:${key}`) : undefined);

/** The dialog's form: which balance ('rewards' or a UID's 'platId:uid'), the signed amount, the reason. */
const ProposeFormSchema = z.object({
  target: z.string().min(1, { error: 'correctionUidRequired' }),
  amount: signedUsdtAmountSchema,
  reason: correctionReasonSchema,
});

function DialogButtons({
  submit,
  submitClass,
  busy,
  onClose,
}: {
  submit: string;
  submitClass: string;
  busy: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="dialog-actions">
      <button type="button" className="button button-ghost" onClick={onClose}>
        {t('admin.common.cancel')}
      </button>
      <button type="submit" className={`button ${submitClass}`} disabled={busy}>
        {submit}
      </button>
    </div>
  );
}

/**
 * Correct a member's balance: one of the UIDs the member bound (live or ended) or the rewards. Up to
 * the threshold it posts at once, above it it waits for a second operator (the server decides; the
 * toast says which happened).
 */
export function ProposeCorrectionDialog({
  open,
  userId,
  bindings,
  rewardsBalance,
  threshold,
  exchangeName,
  onClose,
  onDone,
}: {
  open: boolean;
  userId: number;
  bindings: readonly AdminBinding[];
  rewardsBalance: string;
  threshold: string;
  exchangeName(platId: number): string;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const form = useForm<z.input<typeof ProposeFormSchema>, unknown, z.output<typeof ProposeFormSchema>>({
    resolver: zodResolver(ProposeFormSchema),
    mode: 'onTouched',
    defaultValues: { target: 'rewards', amount: '', reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  // One id per correction meant: a click sent again after a lost answer (no answer, a fault) is the same
  // proposal, and the server answers the correction the first made instead of booking a second. An
  // answer (booked or refused) renews it for the next proposal; the member page keys this dialog by the
  // member, so another member's proposal never takes an id kept from a lost answer.
  const [requestId, setRequestId] = useState(newRequestId);
  // Only the UIDs the member holds now: an ended binding's balance is its next holder's.
  const uids = bindings.filter((binding) => binding.unboundAt === null);
  return (
    <ResponsiveDialog
      open={open}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={t('admin.corrections.proposeTitle')}
      description={t('admin.corrections.proposeDescription', { threshold: formatAmount(threshold) })}
      maxWidthPx={560}
    >
      <form
        className="form admin-dialog-form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          const [platId, uid] = values.target.split(/:(.*)/s);
          const account =
            values.target === 'rewards'
              ? { account: 'rewards' as const }
              : { account: 'cashback' as const, platId: Number(platId), uid };
          try {
            const saved = await proposeCorrection({
              userId,
              ...account,
              amount: values.amount,
              reason: values.reason,
              requestId,
            });
            setRequestId(newRequestId());
            // A click sent again answers the first correction as it is now: rejected meanwhile, it says so.
            const said = {
              posted: 'correctionPosted',
              pending: 'correctionPending',
              rejected: 'correctionAlreadyRejected',
            } as const;
            toast.success(t(`msg:${said[saved.status]}`));
            form.reset();
            onDone();
          } catch (error) {
            // The API client showed the reason (an overdraft names the balance). Refused: nothing was
            // booked, so the next try is a new proposal; no answer: it may have been, so the same one.
            if (error instanceof ApiError && error.kind === 'refused') setRequestId(newRequestId());
          }
        })}
      >
        <Field
          id="correction-target"
          label={t('admin.corrections.accountLabel')}
          error={message(t, errors.target?.message)}
        >
          <select {...form.register('target')}>
            <option value="rewards">
              {t('admin.corrections.rewardsOption', { balance: formatAmount(rewardsBalance) })}
            </option>
            {uids.map((binding) => (
              <option key={`${binding.platId}:${binding.uid}`} value={`${binding.platId}:${binding.uid}`}>
                {t('admin.corrections.uidOption', {
                  exchange: exchangeName(binding.platId),
                  uid: binding.uid,
                  balance: formatAmount(binding.balance),
                })}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="correction-amount"
          label={t('admin.corrections.amountLabel')}
          hint={t('admin.corrections.amountHint')}
          error={message(t, errors.amount?.message)}
        >
          <input className="mono" inputMode="decimal" autoComplete="off" {...form.register('amount')} />
        </Field>
        <Field
          id="correction-reason"
          label={t('admin.corrections.reasonLabel')}
          hint={t('admin.corrections.reasonHint')}
          error={message(t, errors.reason?.message)}
        >
          <textarea className="input" rows={3} maxLength={300} {...form.register('reason')} />
        </Field>
        <DialogButtons
          submit={t('admin.corrections.submit')}
          submitClass="button-primary"
          busy={isSubmitting}
          onClose={onClose}
        />
      </form>
    </ResponsiveDialog>
  );
}

/** Reject (or, for the proposer, withdraw) a pending correction with a reason: nothing is posted. */
export function RejectCorrectionDialog({
  correction,
  summary,
  onClose,
  onDone,
}: {
  correction: Correction | null;
  summary: string;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const form = useForm<
    z.input<typeof RejectCorrectionRequestSchema>,
    unknown,
    z.output<typeof RejectCorrectionRequestSchema>
  >({
    resolver: zodResolver(RejectCorrectionRequestSchema),
    mode: 'onTouched',
    values: { id: correction?.id ?? 0, reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <ResponsiveDialog
      open={correction !== null}
      onOpenChange={(next) => (next ? undefined : onClose())}
      title={t('admin.corrections.rejectTitle')}
      description={summary}
      maxWidthPx={520}
    >
      <form
        className="form admin-dialog-form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            await rejectCorrection(values);
            toast.success(t('msg:correctionRejected'));
            onDone();
          } catch {
            // The API client showed the reason.
          }
        })}
      >
        <Field
          id="correction-reject-reason"
          label={t('admin.corrections.rejectReason')}
          error={message(t, errors.reason?.message)}
        >
          <textarea className="input" rows={3} maxLength={300} {...form.register('reason')} />
        </Field>
        <DialogButtons
          submit={t('admin.corrections.rejectSubmit')}
          submitClass="button-danger"
          busy={isSubmitting}
          onClose={onClose}
        />
      </form>
    </ResponsiveDialog>
  );
}
