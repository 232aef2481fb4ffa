import type { Page } from 'playwright-core';

export interface PageErrorWatch {
  /** Every console.error and uncaught page error seen so far, as readable lines. */
  readonly errors: readonly string[];
  /** Throws when anything was collected, listing each error. */
  assertNone(): void;
}

/**
 * Collects `console.error` messages and uncaught exceptions of a page (epic-stack's habit: a test that
 * logs an error fails). `ignore` lets one test accept an error it provokes on purpose.
 */
export function watchPageErrors(page: Page, ignore: readonly RegExp[] = []): PageErrorWatch {
  const errors: string[] = [];
  const isIgnored = (text: string) => ignore.some((pattern) => pattern.test(text));

  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (isIgnored(text)) return;
    const { url, lineNumber } = message.location();
    // The browser logs a refused analytics event (429 once one address sends 120 a minute, and the
    // whole suite is one address) as a failed resource; the app drops it silently by design.
    if (
      new URL(url || 'about:blank').pathname === '/elex/track' &&
      text.startsWith('Failed to load resource')
    ) {
      return;
    }
    errors.push(`console.error: ${text}${url ? ` (at ${url}:${lineNumber})` : ''} [page ${page.url()}]`);
  });
  page.on('pageerror', (error) => {
    const text = `${error.name}: ${error.message}`;
    if (isIgnored(text)) return;
    errors.push(`uncaught ${text} [page ${page.url()}]${error.stack ? `\n${error.stack}` : ''}`);
  });

  return {
    errors,
    assertNone() {
      if (errors.length === 0) return;
      throw new Error(`The page reported ${errors.length} error(s):\n  ${errors.join('\n  ')}`);
    },
  };
}
