import { type PromotionCode, UpdatePromotionCodeRequestSchema } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api/api-client';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { updatePromotionCode } from '../api/promotion-codes';
import { fieldError } from './field-error';

/**
 * Changes a code's note, last valid day and cap (disabling is the row's own button), on the version
 * the list showed when the dialog opened. The server refuses a cap below the sign-ups made, a new last
 * day in the past, and a change built on a version another operator changed since.
 */
export function PromotionEditDialog({
  code,
  minDay,
  onClose,
  onSaved,
  onRefused,
}: {
  code: PromotionCode | null;
  /** Today (UTC): the date picker offers no earlier day. */
  minDay: string;
  onClose(): void;
  onSaved(): void;
  /** The server refused the change: the list reloads. */
  onRefused(): void;
}) {
  const { t } = useTranslation();
  const form = useForm<
    z.input<typeof UpdatePromotionCodeRequestSchema>,
    unknown,
    z.output<typeof UpdatePromotionCodeRequestSchema>
  >({
    resolver: zodResolver(UpdatePromotionCodeRequestSchema),
    mode: 'onTouched',
    values: {
      id: code?.id ?? 0,
      updatedAt: code?.updatedAt ?? '',
      note: code?.note ?? '',
      validThrough: code?.validThrough ?? '',
      maxUses: code?.maxUses === null || code?.maxUses === undefined ? '' : String(code.maxUses),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  return (
    <ResponsiveDialog
      open={code !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('admin.promotions.editTitle', { code: code?.code ?? '' })}
      description={t('admin.promotions.editDescription', { signups: code?.signups ?? 0 })}
      maxWidthPx={520}
    >
      <form
        className="form admin-dialog-form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            await updatePromotionCode(values);
            toast.success(t('msg:savedSuccessfully'));
            onSaved();
          } catch (failure) {
            // The API client showed the reason (a cap below the sign-ups made ...). A refusal may be
            // another operator's change since this dialog opened (promotionCodeEditedMeanwhile): the
            // list reloads to show their version, and the dialog stays open with what was typed here;
            // opened again, it starts from theirs.
            if (failure instanceof ApiError && failure.kind === 'refused') onRefused();
          }
        })}
      >
        <Field
          id="promotion-edit-note"
          label={t('admin.promotions.note')}
          error={error(errors.note?.message)}
        >
          <input autoComplete="off" {...form.register('note')} />
        </Field>
        <Field
          id="promotion-edit-valid-through"
          label={t('admin.promotions.validThrough')}
          hint={t('admin.promotions.validThroughHint')}
          error={error(errors.validThrough?.message)}
        >
          <input type="date" min={minDay} {...form.register('validThrough')} />
        </Field>
        <Field
          id="promotion-edit-max-uses"
          label={t('admin.promotions.maxUses')}
          hint={t('admin.promotions.maxUsesHint')}
          error={error(errors.maxUses?.message)}
        >
          <input inputMode="numeric" autoComplete="off" {...form.register('maxUses')} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            {t('admin.promotions.save')}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}
