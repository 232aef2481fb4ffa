import { CreateExportRequestSchema, EXPORT_KINDS } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { toast } from '../../shared/ui/toast';
import { createExport, startDownload } from './api/exports';
import { fieldError } from './components/field-error';

type ExportInput = z.input<typeof CreateExportRequestSchema>;
type ExportOutput = z.output<typeof CreateExportRequestSchema>;

const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** /admin/exports: a CSV of one kind of record over a range of UTC days, downloaded by the browser. */
export default function ExportsPage() {
  const { t, i18n } = useTranslation();
  const today = new Date();
  const form = useForm<ExportInput, unknown, ExportOutput>({
    resolver: zodResolver(CreateExportRequestSchema),
    mode: 'onTouched',
    defaultValues: {
      kind: 'withdrawals',
      from: `${utcDay(today).slice(0, 8)}01`,
      to: utcDay(today),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  return (
    <Page title={t('admin.exports.title')} intro={t('admin.exports.intro')} wide>
      <form
        className="card admin-export"
        noValidate
        aria-label={t('admin.exports.title')}
        onSubmit={form.handleSubmit(async (values) => {
          try {
            const link = await createExport(values);
            startDownload(link.url, i18n.language);
            toast.success(t('admin.exports.started', { fileName: link.fileName }));
          } catch {
            // The API client showed the reason.
          }
        })}
      >
        <div className="admin-export-grid">
          <Field id="export-kind" label={t('admin.exports.kind')} error={error(errors.kind?.message)}>
            <select {...form.register('kind')}>
              {EXPORT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`admin.exports.kinds.${kind}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="export-from" label={t('admin.exports.from')} error={error(errors.from?.message)}>
            <input type="date" {...form.register('from', { deps: ['to'] })} />
          </Field>
          <Field id="export-to" label={t('admin.exports.to')} error={error(errors.to?.message)}>
            <input type="date" {...form.register('to')} />
          </Field>
        </div>
        <p className="muted">{t('admin.exports.format')}</p>
        <div className="admin-actions">
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            {isSubmitting ? t('admin.exports.preparing') : t('admin.exports.download')}
          </button>
        </div>
      </form>
    </Page>
  );
}
