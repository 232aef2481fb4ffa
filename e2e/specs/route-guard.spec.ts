import assert from 'node:assert/strict';
import { currentUrl, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { registerOverApi, uniqueEmail } from '../support/members.js';

test('a visitor opening a member page is sent to /login with the full path as redirect', async ({
  newPage,
}) => {
  const page = await newPage();
  const target = '/mypage/settings?tab=2';
  await page.goto(target);
  const url = await waitForPath(page, '/login');
  assert.equal(url.searchParams.get('redirect'), target);
});

test('a logged-in user opening /login is sent on to the redirect target', async ({ baseUrl, newPage }) => {
  // A real session (registered through the SMTP capture), stored before the app boots: the guard
  // decides from the stored token, and the top bar's member calls then succeed instead of logging out.
  const token = await registerOverApi(baseUrl, uniqueEmail('guard'));
  const page = await newPage({ localStorage: { token } });
  await page.goto('/login?redirect=/calculator');
  await waitForPath(page, '/calculator');
  assert.equal(currentUrl(page).search, '');
});

test('an expired session shows the message, keeps the page 1.5 s, then /login brings the member back', async ({
  baseUrl,
  newPage,
}) => {
  const token = await registerOverApi(baseUrl, uniqueEmail('expiry'));
  // The session ends elsewhere (logged out on another device); this browser still holds the token.
  const ended = await fetch(`${baseUrl}/elex/user/logout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: '{}',
  });
  assert.equal(((await ended.json()) as { state: number }).state, 0);

  const page = await newPage({ localStorage: { token }, ignoreErrors: [/status of 401/] });
  const target = '/mypage/settings?tab=2';
  await page.goto(target);
  await page.getByText('Session expired, please log in again').first().waitFor({ state: 'visible' });
  assert.equal(currentUrl(page).pathname, '/mypage/settings');

  const url = await waitForPath(page, '/login');
  assert.equal(url.searchParams.get('redirect'), target);
});
