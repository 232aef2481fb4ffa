import { operatorReasonSchema } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';

const ReasonSchema = z.object({ reason: operatorReasonSchema });

export interface ReasonDialogProps {
  open: boolean;
  /** Tells the fields of one dialog from another's on the page. */
  id: string;
  title: string;
  description: string;
  label: string;
  hint?: string;
  submitLabel: string;
  danger?: boolean;
  onClose(): void;
  /** Does the action; a failure it rethrows (shown by the API client) keeps the dialog open. */
  onSubmit(reason: string): Promise<void>;
}

/** An operator's action that needs a written reason (the audit log keeps it); focus opens on the field. */
export function ReasonDialog(props: ReasonDialogProps) {
  const { t } = useTranslation();
  const form = useForm<z.input<typeof ReasonSchema>, unknown, z.output<typeof ReasonSchema>>({
    resolver: zodResolver(ReasonSchema),
    mode: 'onTouched',
    values: { reason: '' },
  });
  const error = form.formState.errors.reason?.message;
  return (
    <ResponsiveDialog
      open={props.open}
      onOpenChange={(open) => (open ? undefined : props.onClose())}
      title={props.title}
      description={props.description}
      maxWidthPx={520}
    >
      <form
        className="form admin-dialog-form"
        noValidate
        onSubmit={form.handleSubmit(async ({ reason }) => {
          try {
            await props.onSubmit(reason);
            form.reset();
          } catch {
            // The API client showed the reason.
          }
        })}
      >
        <Field
          id={`${props.id}-reason`}
          label={props.label}
          hint={props.hint}
          error={error ? t(`msg:${error}`) : undefined}
        >
          <textarea className="input" rows={3} maxLength={500} {...form.register('reason')} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={props.onClose}>
            {t('admin.common.cancel')}
          </button>
          <button
            type="submit"
            className={`button ${props.danger ? 'button-danger' : 'button-primary'}`}
            disabled={form.formState.isSubmitting}
          >
            {props.submitLabel}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}
