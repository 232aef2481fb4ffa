import assert from 'node:assert/strict';
import { openRoute, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';

test('an unknown path shows the not-found page with a way back home', async ({ newPage }) => {
  const page = await newPage();
  const response = await openRoute(page, '/no-such-page');
  // History-mode SPA: the server answers index.html, the router renders the 404 page.
  assert.equal(response?.status(), 200);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ state: 'visible' });

  const main = page.getByRole('main');
  await main.getByRole('link', { name: 'Back to the home page' }).click();
  await waitForPath(page, '/');
});
