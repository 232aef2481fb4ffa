import assert from 'node:assert/strict';
import { currentUrl, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';

test('a visitor opening a member page is sent to /login with the full path as redirect', async ({
  newPage,
}) => {
  const page = await newPage();
  const target = '/mypage/settings?tab=2';
  await page.goto(target);
  const url = await waitForPath(page, '/login');
  assert.equal(url.searchParams.get('redirect'), target);
});

test('a logged-in user opening /login is sent on to the redirect target', async ({ newPage }) => {
  const page = await newPage();
  // The client decides "logged in" from the stored token alone (spec section 4); this token is not a
  // session, so the one member call the top bar makes (check-in status) is answered here instead of
  // by the server, which would rightly answer -5000 and log the page out.
  await page.route('**/elex/user/isSignTody', (route) =>
    route.fulfill({ json: { state: 0, message: 'ok', content: { isSignToday: true } } }),
  );
  await page.goto('/');
  await page.evaluate(() => window.localStorage.setItem('token', 'e2e-member-token'));
  await page.goto('/login?redirect=/calculator');
  await waitForPath(page, '/calculator');
  assert.equal(currentUrl(page).search, '');
});
