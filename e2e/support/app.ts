import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './server.js';

export type Locale = 'en' | 'zh' | 'ko';
export const locales: readonly Locale[] = ['en', 'zh', 'ko'];

type Messages = { [key: string]: string | Messages };

/** The web app's own strings, so a spec can name a Korean control without copying its text. */
export function readMessages(locale: Locale): Messages {
  const file = path.join(repoRoot, 'apps/web/src/locales', `${locale}.json`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
}

/** `message(ko, 'nav.main')`: one string of a locale file; throws when the key is missing. */
export function message(messages: Messages, key: string): string {
  let node: string | Messages | undefined = messages;
  for (const part of key.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`no string at ${key} in the locale file`);
  return node;
}

/** The page's address, parsed: compare pathname and query values, never encoded literals. */
export function currentUrl(page: Page): URL {
  return new URL(page.url());
}

/** Waits until the router has settled on `pathname` (client-side redirects included). */
export async function waitForPath(page: Page, pathname: string): Promise<URL> {
  await page.waitForURL((url) => url.pathname === pathname);
  return currentUrl(page);
}

/** Opens a route and waits for the lazy page chunk to render its one h1. */
export async function openRoute(page: Page, route: string) {
  const response = await page.goto(route, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'visible' });
  return response;
}
