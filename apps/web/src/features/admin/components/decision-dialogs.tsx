import { ApproveWithdrawalRequestSchema, RejectWithdrawalRequestSchema } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent, ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { approveWithdrawal, rejectWithdrawal } from '../api/decide-withdrawal';

export interface DecisionTarget {
  id: string;
  /** "60.00 USDT to 0x… (Bitget UID …)": what the operator is deciding, in the dialog's words. */
  summary: string;
}

const message = (t: (key: string) => string, key: string | undefined) => (key ? t(`msg:${key}`) : undefined);

/** The frame both decisions share: the dialog, the form and its cancel and submit buttons. */
function DecisionDialog(props: {
  target: DecisionTarget | null;
  title: string;
  submitLabel: string;
  submitClass: string;
  isSubmitting: boolean;
  onClose(): void;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ResponsiveDialog
      open={props.target !== null}
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      title={props.title}
      description={props.target?.summary}
      maxWidthPx={520}
    >
      <form className="form admin-dialog-form" noValidate onSubmit={props.onSubmit}>
        {props.children}
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={props.onClose}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" className={`button ${props.submitClass}`} disabled={props.isSubmitting}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}

/** Approve: the payout was sent on chain; its transaction hash completes the withdrawal. */
export function ApproveDialog({
  target,
  onClose,
  onDone,
}: {
  target: DecisionTarget | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const form = useForm<
    z.input<typeof ApproveWithdrawalRequestSchema>,
    unknown,
    z.output<typeof ApproveWithdrawalRequestSchema>
  >({
    resolver: zodResolver(ApproveWithdrawalRequestSchema),
    mode: 'onTouched',
    values: { id: target?.id ?? '', txHash: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <DecisionDialog
      target={target}
      title={t('admin.withdrawals.approveTitle')}
      submitLabel={t('admin.withdrawals.approveSubmit')}
      submitClass="button-primary"
      isSubmitting={isSubmitting}
      onClose={onClose}
      onSubmit={form.handleSubmit(async (values) => {
        try {
          await approveWithdrawal(values);
          toast.success(t('msg:withdrawalApproved'));
          onDone();
        } catch {
          // The API client showed the reason.
        }
      })}
    >
      <Field
        id="approve-tx-hash"
        label={t('admin.withdrawals.txHash')}
        hint={t('admin.withdrawals.txHashHint')}
        error={message(t, errors.txHash?.message)}
      >
        <input className="mono" autoComplete="off" spellCheck={false} {...form.register('txHash')} />
      </Field>
    </DecisionDialog>
  );
}

/** Reject: the member reads the reason; the held funds return to where they came from. */
export function RejectDialog({
  target,
  onClose,
  onDone,
}: {
  target: DecisionTarget | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const form = useForm<
    z.input<typeof RejectWithdrawalRequestSchema>,
    unknown,
    z.output<typeof RejectWithdrawalRequestSchema>
  >({
    resolver: zodResolver(RejectWithdrawalRequestSchema),
    mode: 'onTouched',
    values: { id: target?.id ?? '', reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <DecisionDialog
      target={target}
      title={t('admin.withdrawals.rejectTitle')}
      submitLabel={t('admin.withdrawals.rejectSubmit')}
      submitClass="button-danger"
      isSubmitting={isSubmitting}
      onClose={onClose}
      onSubmit={form.handleSubmit(async (values) => {
        try {
          await rejectWithdrawal(values);
          toast.success(t('msg:withdrawalRejected'));
          onDone();
        } catch {
          // The API client showed the reason.
        }
      })}
    >
      <Field
        id="reject-reason"
        label={t('admin.withdrawals.reason')}
        hint={t('admin.withdrawals.reasonHint')}
        error={message(t, errors.reason?.message)}
      >
        <textarea className="input" rows={3} maxLength={500} {...form.register('reason')} />
      </Field>
    </DecisionDialog>
  );
}
