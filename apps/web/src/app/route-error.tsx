import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import NotFoundPage from '../features/errors/not-found-page';
import { Page } from '../shared/ui/page';
import { ChunkLoadError, classifyChunkError } from './lazy-page';

/** What a route shows instead of a blank screen when its chunk or its render fails. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const failure = error instanceof ChunkLoadError ? error.failure : classifyChunkError(error);
  return (
    <Page title={t('chunkError.title')}>
      <div role="alert" className="card">
        <p>{t(`chunkError.${failure}`)}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {t('chunkError.retry')}
        </button>
      </div>
    </Page>
  );
}
