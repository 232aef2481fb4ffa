import { useTranslation } from 'react-i18next';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { useSaveSettings, useSettings } from './api/settings';

/** Notification settings: the marketing-consent flag. */
export default function SettingsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const save = useSaveSettings();

  const onToggle = (marketingConsent: boolean) =>
    save.mutate(
      { marketingConsent },
      {
        onSuccess: () => toast.success(t('msg:savedSuccessfully')),
        onError: () => toast.error(t('msg:saveFailed')),
      },
    );

  return (
    <Page title={t('pages.settings.title')} intro={t('pages.settings.intro')}>
      {settings.isPending ? (
        <Skeleton lines={2} />
      ) : settings.isError ? (
        <LoadError isRetrying={settings.isFetching} onRetry={() => void settings.refetch()} />
      ) : (
        <div className="card setting-row">
          <div>
            <p id="marketing-label" className="setting-title">
              {t('mypage.marketingTitle')}
            </p>
            <p id="marketing-hint" className="muted">
              {t('mypage.marketingHint')}
            </p>
          </div>
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={settings.data.marketingConsent}
            aria-labelledby="marketing-label"
            aria-describedby="marketing-hint"
            disabled={save.isPending}
            onClick={() => onToggle(!settings.data.marketingConsent)}
          >
            <span className="switch-thumb" aria-hidden="true" />
          </button>
        </div>
      )}
    </Page>
  );
}
