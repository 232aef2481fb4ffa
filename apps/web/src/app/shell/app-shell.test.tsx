import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderRoutes } from '../../test/helpers';
import { AppShell } from './app-shell';

/** The shell around a few plain pages; every call answers an empty success. */
function renderShell(url: string) {
  const fetchMock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => envelope(null));
  vi.stubGlobal('fetch', fetchMock);
  const page = (name: string) => <h1>{name}</h1>;
  const view = renderRoutes(
    [
      {
        element: <AppShell />,
        children: [
          { path: '/', element: page('home page') },
          { path: '/exchange', element: page('exchange list') },
          { path: '/exchangeDetail', element: page('exchange detail') },
          { path: '/test/introduce', element: page('introduce') },
        ],
      },
    ],
    url,
  );
  /** The page views sent to /elex/track so far, in order. */
  const views = () =>
    fetchMock.mock.calls
      .filter(([path]) => String(path) === '/elex/track')
      .map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>)
      .filter((body) => body.event === 'page_view');
  const go = (to: string) =>
    act(async () => {
      await view.router.navigate(to);
    });
  return { ...view, views, go };
}

beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  window.sessionStorage.clear();
  window.history.pushState({}, '', '/');
});

describe('page views (spec sections 2 and 7)', () => {
  it('sends one page_view per route change, with the page, the time and the landing channel', async () => {
    // The visit lands with a channel; the browser's address carries it, the memory router does not.
    window.history.pushState({}, '', '/?channel=twitter');
    const before = Date.now();
    const { views, go } = renderShell('/');
    await screen.findByRole('heading', { name: 'home page' });
    // The agent is the request's User-Agent header, set by the browser and stored by the server.
    expect(views()).toEqual([
      { event: 'page_view', page: '/', time: expect.any(Number), channel: 'twitter' },
    ]);
    expect(views()[0]?.time).toBeGreaterThanOrEqual(before);

    await go('/exchange');
    await go('/exchangeDetail?id=3');

    expect(views().map((view) => [view.page, view.channel])).toEqual([
      ['/', 'twitter'],
      ['/exchange', 'twitter'],
      ['/exchangeDetail', 'twitter'],
    ]);
  });

  it('sends no page view for the untracked /test/introduce', async () => {
    const { views, go } = renderShell('/');
    await waitFor(() => expect(views()).toHaveLength(1));
    await go('/test/introduce');
    await screen.findByRole('heading', { name: 'introduce' });
    await go('/exchange');
    expect(views().map((view) => view.page)).toEqual(['/', '/exchange']);
  });
});

describe('scroll to the top (spec section 2)', () => {
  it('scrolls up on each route change, a new query on the same path included', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { go } = renderShell('/exchange');
    await screen.findByRole('heading', { name: 'exchange list' });
    scrollTo.mockClear();

    await go('/exchangeDetail?id=1');
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    // Another exchange on the same page: the reader starts at its top, not halfway down.
    await go('/exchangeDetail?id=2');
    expect(scrollTo).toHaveBeenCalledTimes(2);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });
});
