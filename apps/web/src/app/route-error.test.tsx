import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, renderRoutes } from '../test/helpers';
import { ChunkLoadError, lazyPage } from './lazy-page';
import { lazyRoute } from './lazy-route';
import { routes } from './router';

const t = (key: string) => i18next.t(key);

/** React reports the error its boundary caught (these tests provoke it); any other error still fails. */
function acceptReportedChunkError() {
  const calls = vi.mocked(console.error).mock.calls;
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.every((args) => args.some((arg) => arg instanceof ChunkLoadError))).toBe(true);
  vi.mocked(console.error).mockClear();
}

/** One route whose chunk fails the given way, with the app's error view. */
function renderFailingChunk(error: unknown) {
  return renderRoutes([{ path: '/', ...lazyRoute(lazyPage(() => Promise.reject(error))) }], '/');
}

describe('route error view (spec section 8: chunk failures missing, timeout, error)', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope({})),
    );
  });

  it('tells the user the site was updated when a chunk is missing, and offers a reload', async () => {
    renderFailingChunk(new TypeError('Failed to fetch dynamically imported module: /assets/home.js'));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t('chunkError.missing'));
    expect(screen.getByRole('heading', { level: 1, name: t('chunkError.title') })).toBeVisible();
    expect(screen.getByRole('button', { name: t('chunkError.retry') })).toBeEnabled();
    acceptReportedChunkError();
  });

  it('says the page took too long when the chunk does not arrive within its time limit', async () => {
    renderRoutes([{ path: '/', ...lazyRoute(lazyPage(() => new Promise(() => {}), 50)) }], '/');
    expect(await screen.findByRole('alert')).toHaveTextContent(t('chunkError.timeout'));
    acceptReportedChunkError();
  });

  it('reloads the page when the user asks to try again', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    try {
      renderFailingChunk(new Error('boom'));
      await userEvent.click(await screen.findByRole('button', { name: t('chunkError.retry') }));
      expect(reload).toHaveBeenCalledTimes(1);
      acceptReportedChunkError();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says something went wrong for any other failure', async () => {
    renderFailingChunk(new Error('boom'));
    expect(await screen.findByRole('alert')).toHaveTextContent(t('chunkError.error'));
    acceptReportedChunkError();
  });

  it('shows the not-found page for an unknown address, inside the app shell', async () => {
    renderRoutes(routes, '/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('notFound.title') }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: t('notFound.backHome') })).toHaveAttribute('href', '/');
    expect(screen.getByRole('navigation', { name: t('nav.main') })).toBeInTheDocument();
  });
});
