import type { Page } from 'playwright-core';

/**
 * Opens `route` logged in as `who`: the token goes into the app's storage on the home page first,
 * then the route loads as after a login, and the call waits for its heading.
 */
export async function openAs(baseUrl: string, page: Page, who: { token: string }, route: string) {
  await page.goto(`${baseUrl}/`);
  await page.evaluate((token) => window.localStorage.setItem('token', token), who.token);
  await page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}
