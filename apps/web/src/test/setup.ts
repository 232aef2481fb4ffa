import '@testing-library/jest-dom/vitest';
import { LOCALES } from '@elex/contract';
import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { toast as sonner } from 'sonner';
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';

// findBy and waitFor give up after 1 s by default; with two test files per core on a busy 2-core
// machine a lazily loaded chunk (a dialog, a schema) can take longer than that to arrive. Waiting longer
// changes no outcome: a test still fails when what it waits for never comes.
configure({ asyncUtilTimeout: 5_000 });

// Each test file is a page load: the app's modules keep what a page keeps once per load (the exchange
// dictionary, the query client, the first paint), so a file starts from modules of its own. The files
// of a worker share the libraries and the document (vitest.config.ts); only the app's modules are
// evaluated again.
vi.resetModules();
const { initI18n, loadLocale } = await import('../shared/i18n/i18n');

// Every test starts in English, as a first-time visitor (spec: default en, logged in = stored token).
// The other languages are loaded too, so a test may switch to them with i18next.changeLanguage.
await initI18n('en');
await Promise.all(LOCALES.map(loadLocale));

// jsdom lacks matchMedia; the toaster and the drawer ask it for motion and colour preferences.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom does not implement scrolling; the shell scrolls to the top on each route change (spec section 2).
window.scrollTo = (() => {}) as typeof window.scrollTo;

const JSDOM_DEFAULT_WIDTH = 1024;

// House style (after epic-stack): a test that makes React or a library log an error fails, so act()
// warnings, missing keys and failed prop types cannot pile up unnoticed. A test that expects an error
// log clears the spy itself (`vi.mocked(console.error).mockClear()`).
let consoleError: MockInstance<typeof console.error>;

beforeEach(async () => {
  consoleError = vi.spyOn(console, 'error');
  window.localStorage.clear();
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
  document.documentElement.lang = 'en';
  Object.defineProperty(window, 'innerWidth', {
    configurable: true,
    writable: true,
    value: JSDOM_DEFAULT_WIDTH,
  });
});

afterEach(() => {
  cleanup();
  // Toasts live in sonner's module state, and a new Toaster shows the ones still active: end them.
  sonner.dismiss();
  const logged = consoleError.mock.calls.map((args) => args.map(String).join(' '));
  window.localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  if (logged.length > 0) throw new Error(`console.error was called during the test:\n${logged.join('\n')}`);
});
