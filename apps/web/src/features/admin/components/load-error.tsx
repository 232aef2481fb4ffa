import { useTranslation } from 'react-i18next';

/** A list that could not load: says so and offers to try again (the API client toasted the reason). */
export function LoadError({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div className="card load-error" role="alert">
      <p>{t('admin.common.loadFailed')}</p>
      <button type="button" className="button button-ghost" onClick={onRetry}>
        {t('admin.common.retry')}
      </button>
    </div>
  );
}
