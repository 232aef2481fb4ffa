import { useTranslation } from '../i18n/use-translation';
import { LoadError } from '../ui/load-error';

/**
 * Where a page needs the partner list and the dictionary could not be loaded: says so and loads it
 * again on request (the dictionary keeps no failure, so a retry asks the server).
 */
export function ExchangeListLoadError({
  list,
  message,
}: {
  list: { refetch(): Promise<unknown>; isFetching: boolean };
  /** Defaults to 'The exchange list could not be loaded.' */
  message?: string;
}) {
  const { t } = useTranslation();
  return (
    <LoadError
      message={message ?? t('homePublic.loadFailed')}
      isRetrying={list.isFetching}
      onRetry={() => void list.refetch()}
    />
  );
}
