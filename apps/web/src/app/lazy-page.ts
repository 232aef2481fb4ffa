import { LAYOUT } from '@elex/contract';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { isBeforeFirstPaint, whenFirstPainted } from '../shared/after-first-paint';
import { whenStringsComplete } from '../shared/i18n/i18n';

export type ChunkFailure = 'missing' | 'timeout' | 'error';

/** spec: chunk load failures are raised as errors of type missing, timeout or error. */
export class ChunkLoadError extends Error {
  constructor(readonly failure: ChunkFailure) {
    super(`page chunk failed to load: ${failure}`);
    this.name = 'ChunkLoadError';
  }
}

export function classifyChunkError(error: unknown): ChunkFailure {
  if (error instanceof ChunkLoadError) return error.failure;
  const message = error instanceof Error ? error.message : String(error);
  // Browsers report a missing or unreachable module file this way (a deploy replaced the hashes).
  if (/dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message))
    return 'missing';
  return 'error';
}

type PageModule = { default: ComponentType };
type PageLoader = () => Promise<PageModule>;
/**
 * Loads a page chunk and the rest of the language's strings (shared/i18n/i18n.ts; the home, in the
 * main chunk, needs only the first paint's), giving up after 120 s; any failure becomes a
 * ChunkLoadError.
 */
export function loadPageChunk(load: PageLoader, timeoutMs: number = LAYOUT.chunkTimeoutMs): PageLoader {
  const loadWithStrings = () => Promise.all([load(), whenStringsComplete()]).then(([module]) => module);
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    });
    try {
      return await Promise.race([loadWithStrings(), timeout]);
    } catch (error) {
      throw error instanceof ChunkLoadError ? error : new ChunkLoadError(classifyChunkError(error));
    } finally {
      clearTimeout(timer);
    }
  };
}

export interface LazyPage {
  /** Renders the page, suspending until its chunk is there and throwing its ChunkLoadError if it fails. */
  Page: LazyExoticComponent<ComponentType>;
  /** Starts loading the chunk (once: every call answers the same promise, as the render does). */
  preload: () => Promise<PageModule>;
}

/** The page inside TanStack Query's scope, which loads beside it (shared/queries/query-scope.tsx). */
const withQueries =
  (load: PageLoader): PageLoader =>
  () =>
    Promise.all([load(), import('../shared/queries/query-scope')]).then(([page, { withQueryScope }]) => ({
      default: withQueryScope(page.default),
    }));

/**
 * A route's page, loaded on first use by `loadPageChunk`, with TanStack Query (the home, in the main
 * chunk, loads the library after it paints, with its sections: issue 14).
 */
export function lazyPage(load: PageLoader, timeoutMs?: number): LazyPage {
  let chunk: Promise<PageModule> | undefined;
  const loadPage = withQueries(load);
  const preload = () => {
    const start = () => loadPageChunk(loadPage, timeoutMs)();
    chunk ??= isBeforeFirstPaint() ? whenFirstPainted().then(start) : start();
    return chunk;
  };
  return { Page: lazy(preload), preload };
}
