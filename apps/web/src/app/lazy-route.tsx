import { type ReactNode, useEffect } from 'react';
import { matchRoutes, type RouteObject, useLocation, useRoutes } from 'react-router';
import { markFirstPaint } from '../shared/after-first-paint';
import type { LazyPage } from './lazy-page';
import { RouteErrorBoundary } from './route-error';

/**
 * A lazy page in place: the shell's Suspense shows a skeleton until the chunk is there, and the error
 * view takes the page's place (inside the layout) when the chunk or the page fails.
 */
function LazyRoutePage({ page }: { page: LazyPage }) {
  // Runs once the page is in: until then the shell's Suspense holds this route back.
  useEffect(markFirstPaint, []);
  return (
    <RouteErrorBoundary location={useLocation()}>
      <page.Page />
    </RouteErrorBoundary>
  );
}

/** A page in the main chunk (the home): marks the first paint once rendered, as a lazy page does. */
export function FirstPaintPage({ children }: { children: ReactNode }) {
  useEffect(markFirstPaint, []);
  return <RouteErrorBoundary location={useLocation()}>{children}</RouteErrorBoundary>;
}

interface LazyRouteHandle {
  preload: LazyPage['preload'];
}

/** A route object's element for a lazy page, and its chunk for `useLazyRoutes` to start early. */
export function lazyRoute(page: LazyPage): Pick<RouteObject, 'element' | 'handle'> {
  const handle: LazyRouteHandle = { preload: page.preload };
  return { element: <LazyRoutePage page={page} />, handle };
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
