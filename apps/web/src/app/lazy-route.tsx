import { type ReactNode, Suspense } from 'react';
import { matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';
import { useTranslation } from '../shared/i18n/use-translation';
import { Page } from '../shared/ui/page';
import { Skeleton } from '../shared/ui/skeleton';
import type { LazyPage } from './lazy-page';
import { RouteErrorBoundary } from './route-error';

/**
 * What a page shows of itself while its chunk loads: its title and intro (`pages.<key>` of the
 * catalog, which the main chunk carries), in the layout the page uses, above a skeleton. Only for pages
 * whose header is those two strings, so nothing moves when the page arrives (issue 14: the visitor reads
 * where they are at the first paint, and the intro is the largest paint of such a page).
 */
export interface PageHeader {
  key: string;
  wide?: boolean;
  /** The lines of the skeleton the page itself shows while its data loads, so nothing moves. */
  lines?: number;
}

function PageHeaderFallback({ header }: { header: PageHeader }) {
  const { t } = useTranslation();
  return (
    <Page title={t(`pages.${header.key}.title`)} intro={t(`pages.${header.key}.intro`)} wide={header.wide}>
      <Skeleton lines={header.lines} />
    </Page>
  );
}

/**
 * A lazy page in place: a skeleton (the shell's, or the page's header above one) until the chunk is
 * there, and the error view takes the page's place (inside the layout) when the chunk or the page fails.
 */
function LazyRoutePage({ page, header }: { page: LazyPage; header: PageHeader | undefined }) {
  return (
    <RouteErrorBoundary location={useLocation()}>
      {header ? (
        <Suspense fallback={<PageHeaderFallback header={header} />}>
          <page.Page />
        </Suspense>
      ) : (
        <page.Page />
      )}
    </RouteErrorBoundary>
  );
}

/** A page in the main chunk (the home), with the error view a lazy page has. */
export function FirstPaintPage({ children }: { children: ReactNode }) {
  return <RouteErrorBoundary location={useLocation()}>{children}</RouteErrorBoundary>;
}

interface LazyRouteHandle {
  preload: LazyPage['preload'];
}

/** A route object's element for a lazy page, and its chunk for `useLazyRoutes` to start early. */
export function lazyRoute(page: LazyPage, header?: PageHeader): Pick<RouteObject, 'element' | 'handle'> {
  const handle: LazyRouteHandle = { preload: page.preload };
  return { element: <LazyRoutePage page={page} header={header} />, handle };
}

const isLazyRouteHandle = (handle: unknown): handle is LazyRouteHandle =>
  typeof handle === 'object' && handle !== null && typeof (handle as LazyRouteHandle).preload === 'function';

/**
 * `useRoutes`, starting the chunks of every lazy route the address matches at once: a nested page
 * (/mypage/settings) would otherwise ask for its chunk only once its layout's chunk had rendered.
 */
export function useLazyRoutes(routes: RouteObject[]) {
  const location = useLocation();
  for (const { route } of matchRoutes(routes, location) ?? []) {
    // Only started here: a failure shows when the route renders, which awaits the same promise.
    if (isLazyRouteHandle(route.handle)) route.handle.preload().catch(() => undefined);
  }
  return useRoutes(routes, location);
}
