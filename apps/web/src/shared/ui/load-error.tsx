import { useTranslation } from '../i18n/use-translation';

/**
 * Something the page needs could not be loaded: says so and offers to load it again, instead of a
 * skeleton or an empty list that never changes. The API client has already toasted the reason.
 */
export function LoadError({
  message,
  onRetry,
  isRetrying = false,
}: {
  /** Defaults to 'This could not be loaded.' */
  message?: string;
  onRetry(): void;
  isRetrying?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="card load-error" role="alert">
      <p>{message ?? t('common.loadFailed')}</p>
      <button type="button" className="button button-ghost" disabled={isRetrying} onClick={onRetry}>
        {isRetrying ? t('common.loading') : t('common.retry')}
      </button>
    </div>
  );
}
