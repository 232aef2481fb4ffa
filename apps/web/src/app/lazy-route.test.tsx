import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { type JSX, Suspense } from 'react';
import { Link, MemoryRouter, Outlet, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';
import { lazyRoute, useLazyRoutes } from './lazy-route';

const t = (key: string) => i18next.t(key);
const heading = (name: string) => () => <h1>{name}</h1>;

function RouteTable({ routes }: { routes: RouteObject[] }) {
  return useLazyRoutes(routes);
}

/** A route table in the declarative router the app uses; the routes sit under `Layout`. */
function renderTable(routes: RouteObject[], url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <RouteTable routes={routes} />
    </MemoryRouter>,
  );
}

function Throws(): never {
  throw new Error('render failed');
}

function Layout() {
  return (
    <>
      <nav>
        <Link to="/broken">broken</Link>
        <Link to="/fine">fine</Link>
      </nav>
      <Suspense fallback={<p>loading</p>}>
        <Outlet />
      </Suspense>
    </>
  );
}

describe('lazy routes in the declarative router (issue 14)', () => {
  it('shows the error view in place of a page whose chunk fails, and the next page after a navigation', async () => {
    renderTable(
      [
        {
          element: <Layout />,
          children: [
            { path: 'broken', ...lazyRoute(lazyPage(() => Promise.reject(new Error('boom')), 1000)) },
            { path: 'fine', ...lazyRoute(lazyPage(async () => ({ default: heading('fine page') }), 1000)) },
          ],
        },
      ],
      '/broken',
    );

    expect(await screen.findByRole('alert')).toHaveTextContent(t('chunkError.error'));
    // React reports the error its boundary caught; this test provokes it.
    vi.mocked(console.error).mockClear();
    expect(screen.getByRole('link', { name: 'broken' })).toBeVisible();

    await userEvent.click(screen.getByRole('link', { name: 'fine' }));
    expect(await screen.findByRole('heading', { name: 'fine page' })).toBeVisible();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the error view when a page fails as it renders', async () => {
    renderTable(
      [
        {
          element: <Layout />,
          children: [{ path: 'broken', ...lazyRoute(lazyPage(async () => ({ default: Throws }))) }],
        },
      ],
      '/broken',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(t('chunkError.error'));
    vi.mocked(console.error).mockClear();
  });

  it("asks for a nested page's chunk at once, not after its layout's chunk", () => {
    const loadLayout = vi.fn(() => new Promise<never>(() => {}));
    const loadPage = vi.fn(() => new Promise<never>(() => {}));
    renderTable(
      [
        {
          element: <Layout />,
          children: [
            {
              path: 'mypage',
              ...lazyRoute(lazyPage(loadLayout)),
              children: [{ path: 'settings', ...lazyRoute(lazyPage(loadPage)) }],
            },
          ],
        },
      ],
      '/mypage/settings',
    );
    expect(loadLayout).toHaveBeenCalledTimes(1);
    expect(loadPage).toHaveBeenCalledTimes(1);
    expect(screen.getByText('loading')).toBeInTheDocument();
  });

  it("shows a page's title and intro above a skeleton while its chunk loads, then the page in their place", async () => {
    let arrive: (module: { default: () => JSX.Element }) => void = () => undefined;
    const loadPage = () => new Promise<{ default: () => JSX.Element }>((resolve) => (arrive = resolve));
    renderTable(
      [
        {
          element: <Layout />,
          children: [{ path: 'calculator', ...lazyRoute(lazyPage(loadPage), { key: 'calculator' }) }],
        },
      ],
      '/calculator',
    );
    expect(await screen.findByRole('heading', { level: 1, name: t('pages.calculator.title') })).toBeVisible();
    expect(screen.getByText(t('pages.calculator.intro'))).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent(t('common.loading'));
    // The header stands in for the layout's own skeleton.
    expect(screen.queryByText('loading')).not.toBeInTheDocument();

    arrive({ default: heading('the calculator itself') });
    expect(await screen.findByRole('heading', { name: 'the calculator itself' })).toBeVisible();
    expect(screen.queryByText(t('pages.calculator.intro'))).not.toBeInTheDocument();
  });
});
