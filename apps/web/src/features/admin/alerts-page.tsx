import { ALERT_KINDS, type AlertPreferences } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { alertPreferencesQuery, saveAlertPreferences, useAlertPreferences } from './api/alert-preferences';
import { LoadError } from './components/load-error';

/** /admin/alerts: the calling operator's own alert e-mails, each on or off. */
export default function AlertsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const preferences = useAlertPreferences();
  const [draft, setDraft] = useState<AlertPreferences | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (preferences.data) setDraft(preferences.data);
  }, [preferences.data]);
  const changed =
    !!draft && !!preferences.data && ALERT_KINDS.some((kind) => draft[kind] !== preferences.data[kind]);
  return (
    <Page title={t('admin.alerts.title')} intro={t('admin.alerts.intro')} wide>
      {preferences.isError && !preferences.data ? (
        <LoadError onRetry={() => void preferences.refetch()} />
      ) : null}
      {!draft ? (
        preferences.isError ? null : (
          <Skeleton lines={4} />
        )
      ) : (
        <form
          className="card admin-alerts"
          onSubmit={async (event) => {
            event.preventDefault();
            setSaving(true);
            try {
              const saved = await saveAlertPreferences(draft);
              client.setQueryData(alertPreferencesQuery.queryKey, saved);
              toast.success(t('msg:savedSuccessfully'));
            } catch {
              // The API client showed the reason.
            } finally {
              setSaving(false);
            }
          }}
        >
          <fieldset>
            <legend>{t('admin.alerts.legend')}</legend>
            {ALERT_KINDS.map((kind) => (
              <div key={kind} className="admin-alert-option">
                <label className="checkbox-field">
                  <input
                    type="checkbox"
                    checked={draft[kind]}
                    aria-describedby={`alert-${kind}-hint`}
                    onChange={(event) => setDraft({ ...draft, [kind]: event.target.checked })}
                  />
                  <span>{t(`admin.alerts.kinds.${kind}`)}</span>
                </label>
                <p id={`alert-${kind}-hint`} className="field-hint">
                  {t(`admin.alerts.hints.${kind}`)}
                </p>
              </div>
            ))}
          </fieldset>
          <div className="admin-actions">
            <button type="submit" className="button button-primary" disabled={saving || !changed}>
              {t('admin.alerts.save')}
            </button>
          </div>
        </form>
      )}
    </Page>
  );
}
