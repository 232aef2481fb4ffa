import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/**
 * Debian's Chromium headless shell (apt package `chromium-headless-shell`, the same Blink and V8 as
 * `chromium` without the browser's own interface); `scripts/ensure-browser.sh` installs it. The full
 * browser in headless mode cost 10-20 % more CPU for the same specs (docs/decisions.md, "The e2e
 * suite in Chromium's headless shell").
 */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

/**
 * Flags for a root user on a machine with a closed network: no sandbox (root), no GPU, and nothing
 * that phones home (without them Chromium retries Google's hosts at every start).
 */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

export type Viewport = 'desktop' | 'mobile';

export const viewports = {
  desktop: { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 },
  mobile: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
} as const;

export interface NewPageOptions {
  viewport?: Viewport;
  /** The browser's language (navigator.language, Accept-Language); the app's own choice is localStorage 'locale'. */
  locale?: string;
  baseURL?: string;
  /** Stored before any script of the site runs, e.g. `{ locale: 'ko' }` or `{ token: '...' }`. */
  localStorage?: Record<string, string>;
}

export async function createContext(browser: Browser, options: NewPageOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    ...viewports[options.viewport ?? 'desktop'],
    locale: options.locale ?? 'en-US',
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
  });
  if (options.localStorage) {
    const entries = Object.entries(options.localStorage);
    // Runs before the page's own scripts on every navigation, so the app reads these values at boot.
    await context.addInitScript((pairs: [string, string][]) => {
      try {
        for (const [key, value] of pairs) window.localStorage.setItem(key, value);
      } catch {
        // about:blank and opaque origins have no storage
      }
    }, entries);
  }
  return context;
}
