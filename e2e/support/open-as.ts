import type { Page } from 'playwright-core';

/**
 * Puts `token` into the app's storage without starting the app: the server's health check is a page
 * of the same origin (so the same localStorage) with no script of the site. Loading the home page only
 * to leave it cost about 2 core-seconds more per call on 2 cores (docs/decisions.md, "The end-to-end
 * suite's CPU, again").
 */
export async function storeToken(page: Page, baseUrl: string, token: string) {
  await page.goto(`${baseUrl}/healthz`);
  await page.evaluate((value) => window.localStorage.setItem('token', value), token);
}

/**
 * Opens `route` logged in as `who`: the token goes into the app's storage first, then the route loads
 * as after a login, and the call waits for its heading.
 */
export async function openAs(baseUrl: string, page: Page, who: { token: string }, route: string) {
  await storeToken(page, baseUrl, who.token);
  await page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}
