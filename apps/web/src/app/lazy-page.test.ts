import { useQueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { type ComponentType, createElement, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, classifyChunkError, lazyPage, loadPageChunk } from './lazy-page';

const Page: ComponentType = () => null;

/** A page that asks for data: it throws without a query client above it. */
const AsksForData: ComponentType = () => {
  const client = useQueryClient();
  return createElement('p', null, client ? 'has a query client' : 'none');
};

/** Records how a pending promise settles without an unhandled rejection. */
function watch<T>(promise: Promise<T>) {
  const outcome: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(outcome, { settled: true, value }),
    (error: unknown) => Object.assign(outcome, { settled: true, error }),
  );
  return outcome;
}

describe('loadPageChunk (spec section 8/9: chunk failures missing, timeout, error; timeout 120000 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the page module when the chunk loads', async () => {
    await expect(loadPageChunk(async () => ({ default: Page }))()).resolves.toEqual({ default: Page });
  });

  it('waits up to 120 s for a chunk, then fails with a timeout', async () => {
    const outcome = watch(loadPageChunk(() => new Promise<never>(() => {}))());

    await vi.advanceTimersByTimeAsync(119_999);
    expect(outcome.settled).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.settled).toBe(true);
    expect(outcome.error).toBeInstanceOf(ChunkLoadError);
    expect((outcome.error as ChunkLoadError).failure).toBe('timeout');
  });

  it('does not time out a chunk that arrives before the deadline', async () => {
    const outcome = watch(
      loadPageChunk(
        () =>
          new Promise<{ default: ComponentType }>((resolve) =>
            setTimeout(() => resolve({ default: Page }), 119_000),
          ),
      )(),
    );
    await vi.advanceTimersByTimeAsync(200_000);
    expect(outcome).toEqual({ settled: true, value: { default: Page } });
  });

  it('reports a module the browser could not fetch as missing', async () => {
    const load = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'));
    const error = await loadPageChunk(load)().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).failure).toBe('missing');
  });

  it('reports any other failure as error', async () => {
    const error = await loadPageChunk(() => Promise.reject(new Error('boom')))().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).failure).toBe('error');
  });
});

describe('lazyPage', () => {
  it('loads its chunk once, whether the route preloads it or renders it first', async () => {
    const load = vi.fn(async () => ({ default: Page }));
    const page = lazyPage(load);
    expect(load).not.toHaveBeenCalled();

    const first = page.preload();
    expect(page.preload()).toBe(first);
    await first;
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders its page with TanStack Query, which loads beside it (issue 14: none above the pages)', async () => {
    const page = lazyPage(async () => ({ default: AsksForData }));
    render(createElement(Suspense, { fallback: null }, createElement(page.Page)));
    expect(await screen.findByText('has a query client')).toBeInTheDocument();
  });
});

describe('classifyChunkError', () => {
  it('recognises the wording of each browser for a missing module', () => {
    expect(classifyChunkError(new TypeError('Failed to fetch dynamically imported module: x'))).toBe(
      'missing',
    );
    expect(classifyChunkError(new TypeError('Importing a module script failed.'))).toBe('missing');
    expect(classifyChunkError(new Error('error loading dynamically imported module'))).toBe('missing');
  });

  it('keeps the failure of a ChunkLoadError and calls everything else error', () => {
    expect(classifyChunkError(new ChunkLoadError('timeout'))).toBe('timeout');
    expect(classifyChunkError(new RangeError('x'))).toBe('error');
    expect(classifyChunkError('a string')).toBe('error');
  });
});
