import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient, QueryScope } from '../shared/queries/query-scope';
import { storage } from '../shared/storage';

/** Logs in the way the app decides it (spec section 4: a token in local storage). */
export function logIn(token = 'test-token') {
  storage.setToken(token);
}

/** Sets the viewport width and tells the page, as a browser window resize would. */
export function resizeTo(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

/** An answer in the server's envelope (state 0 success unless told). */
export function envelope(content: unknown, state = 0, message = '', status = 200): Response {
  return new Response(JSON.stringify({ state, message, content }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Renders a route tree at `url` inside the app's providers (a fresh query client and the toaster);
 * the router is returned so a test can read where it landed.
 */
export function renderRoutes(routes: RouteObject[], url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const client = createQueryClient();
  const result = render(
    <Providers client={client}>
      {/* Lazy pages bring their own scope; an element rendered as a route does not. */}
      <QueryScope>
        <RouterProvider router={router} />
      </QueryScope>
    </Providers>,
  );
  return { ...result, router, client };
}

/** Renders one element at `url`, as the only route. */
export function renderAt(element: ReactElement, url = '/') {
  return renderRoutes([{ path: '*', element }], url);
}
