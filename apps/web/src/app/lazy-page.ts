import { LAYOUT } from '@elex/contract';
import type { ComponentType } from 'react';
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

/**
 * A route's `lazy`: loads the page chunk and, but for the pages of the first paint (the home), the rest
 * of the language's strings (shared/i18n/i18n.ts), giving up after 120 s.
 */
export function lazyPage(
  load: () => Promise<{ default: ComponentType }>,
  timeoutMs: number = LAYOUT.chunkTimeoutMs,
  { firstPaint = false }: { firstPaint?: boolean } = {},
) {
  const loadWithStrings = firstPaint
    ? load
    : () => Promise.all([load(), whenStringsComplete()]).then(([module]) => module);
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    });
    try {
      const module = await Promise.race([loadWithStrings(), timeout]);
      return { Component: module.default };
    } catch (error) {
      throw error instanceof ChunkLoadError ? error : new ChunkLoadError(classifyChunkError(error));
    } finally {
      clearTimeout(timer);
    }
  };
}
