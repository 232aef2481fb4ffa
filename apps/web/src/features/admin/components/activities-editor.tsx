import {
  ACTIVITY_KINDS,
  type AdminActivity,
  type CatalogExchange,
  SaveActivityRequestSchema,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api/api-client';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { deleteActivity } from '../api/delete-activity';
import { saveActivity } from '../api/save-activity';
import { fieldError } from './field-error';

type ActivityInput = z.input<typeof SaveActivityRequestSchema>;
type ActivityOutput = z.output<typeof SaveActivityRequestSchema>;

function ActivityDialog({
  exchange,
  editing,
  onClose,
  onSaved,
}: {
  exchange: CatalogExchange;
  /** The activity to change, 'new' to add one, null when closed. */
  editing: AdminActivity | 'new' | null;
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const current = editing === 'new' ? null : editing;
  const form = useForm<ActivityInput, unknown, ActivityOutput>({
    resolver: zodResolver(SaveActivityRequestSchema),
    mode: 'onTouched',
    values: current
      ? { ...current, platId: exchange.platId }
      : {
          platId: exchange.platId,
          kind: 'general',
          titles: { en: '', zh: '', ko: '' },
          activityUrl: 'https://',
          position: exchange.activities.length,
        },
  });
  const { errors, isSubmitting } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  return (
    <ResponsiveDialog
      open={editing !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={current ? t('admin.catalog.editActivity') : t('admin.catalog.addActivity')}
      maxWidthPx={560}
    >
      <form
        className="form admin-dialog-form"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            await saveActivity(values);
            toast.success(t('msg:savedSuccessfully'));
            await onSaved();
            onClose();
          } catch (failure) {
            // The API client showed the reason. A refusal may be another operator's change since this
            // dialog opened (activityEditedMeanwhile): the list reloads to show their version, and the
            // dialog stays open with what was typed here; opened again, it starts from theirs.
            if (failure instanceof ApiError && failure.kind === 'refused') await onSaved();
          }
        })}
      >
        <Field id="activity-kind" label={t('admin.catalog.activityKind')}>
          <select {...form.register('kind')}>
            {ACTIVITY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`admin.catalog.activityKinds.${kind}`)}
              </option>
            ))}
          </select>
        </Field>
        {(['en', 'zh', 'ko'] as const).map((locale) => (
          <Field
            key={locale}
            id={`activity-title-${locale}`}
            label={t(`admin.catalog.activityTitle.${locale}`)}
            error={error(errors.titles?.[locale]?.message)}
          >
            <input lang={locale} {...form.register(`titles.${locale}`)} />
          </Field>
        ))}
        <Field
          id="activity-url"
          label={t('admin.catalog.activityUrl')}
          error={error(errors.activityUrl?.message)}
        >
          <input className="mono" type="url" {...form.register('activityUrl')} />
        </Field>
        <Field
          id="activity-position"
          label={t('admin.catalog.position')}
          error={error(errors.position?.message)}
        >
          <input inputMode="numeric" {...form.register('position')} />
        </Field>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('admin.common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            {t('admin.catalog.saveActivity')}
          </button>
        </div>
      </form>
    </ResponsiveDialog>
  );
}

/** The partner's activities (home sliders and detail page): add, change, remove. */
export function ActivitiesEditor({
  exchange,
  onSaved,
}: {
  exchange: CatalogExchange;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<AdminActivity | 'new' | null>(null);
  const [removing, setRemoving] = useState<AdminActivity | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section className="card admin-section" aria-labelledby="exchange-activities-title">
      <h2 id="exchange-activities-title">{t('admin.catalog.activities')}</h2>
      {exchange.activities.length === 0 ? <p className="muted">{t('admin.catalog.noActivities')}</p> : null}
      <ul className="admin-activity-list">
        {exchange.activities.map((activity) => (
          <li key={activity.id}>
            <div>
              <p className="entry-title">{activity.titles.en}</p>
              <p className="entry-detail">
                <span className={`status ${activity.kind === 'hot' ? 'status-failed' : 'status-pending'}`}>
                  {t(`admin.catalog.activityKinds.${activity.kind}`)}
                </span>{' '}
                <span lang="zh">{activity.titles.zh}</span> · <span lang="ko">{activity.titles.ko}</span>
              </p>
              <p className="entry-detail mono admin-break">{activity.activityUrl}</p>
            </div>
            <div className="admin-row-actions">
              <button
                type="button"
                className="icon-button"
                aria-label={t('admin.catalog.editActivityNamed', { title: activity.titles.en })}
                onClick={() => setEditing(activity)}
              >
                <Pencil size={18} aria-hidden="true" />
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={t('admin.catalog.removeActivityNamed', { title: activity.titles.en })}
                onClick={() => setRemoving(activity)}
              >
                <Trash2 size={18} aria-hidden="true" />
              </button>
            </div>
          </li>
        ))}
      </ul>
      <button type="button" className="button button-ghost" onClick={() => setEditing('new')}>
        <Plus size={16} aria-hidden="true" />
        {t('admin.catalog.addActivity')}
      </button>
      <ActivityDialog
        exchange={exchange}
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={onSaved}
      />
      <ResponsiveDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t('admin.catalog.removeActivityTitle')}
        description={removing?.titles.en}
      >
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={() => setRemoving(null)}>
            {t('admin.common.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={async () => {
              if (!removing) return;
              setBusy(true);
              try {
                await deleteActivity({ id: removing.id, updatedAt: removing.updatedAt });
                toast.success(t('msg:savedSuccessfully'));
                await onSaved();
                setRemoving(null);
              } catch (failure) {
                // The API client showed the reason. A refusal may be another operator's change since this
                // confirmation opened (activityEditedMeanwhile): nothing was removed; the confirmation
                // closes and the list reloads to show their version, to be removed again only if meant.
                if (failure instanceof ApiError && failure.kind === 'refused') {
                  setRemoving(null);
                  await onSaved();
                }
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('admin.catalog.removeActivity')}
          </button>
        </div>
      </ResponsiveDialog>
    </section>
  );
}
