import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { message, openRoute, readMessages, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { waitForCode } from '../support/smtp-capture.js';

const en = readMessages('en');
const zh = readMessages('zh');
const uniqueEmail = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

/** Types the code from the mail into the six boxes and confirms (the dialog or the mobile drawer). */
async function enterCode(page: Page, email: string, sentAfter: number, confirmLabel: string) {
  const code = await waitForCode(email, sentAfter);
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByRole('textbox').first().click();
  await page.keyboard.type(code);
  await dialog.getByRole('button', { name: confirmLabel, exact: true }).click();
}

async function expectToast(page: Page, text: string) {
  await page.getByText(text, { exact: true }).first().waitFor({ state: 'visible' });
}

test(
  'desktop: register, change password, log out, reset, log in, delete; the deleted e-mail cannot return',
  async ({ newPage }) => {
    const page = await newPage({ viewport: 'desktop' });
    const email = uniqueEmail('journey');
    const firstPassword = 'first-pass1!';
    const secondPassword = 'second-pass2@';
    const thirdPassword = 'third-pass3#';

    // Register with a code from the real SMTP server.
    await openRoute(page, '/register');
    await page.getByLabel('E-mail', { exact: true }).fill(`  ${email} `);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    let sentAt = Date.now();
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await enterCode(page, email, sentAt, 'Confirm');
    await expectToast(page, 'Welcome');
    await waitForPath(page, '/');
    const nav = page.getByRole('navigation', { name: message(en, 'nav.main') });
    await nav.getByRole('link', { name: 'My page', exact: true }).waitFor();

    // My Page shows the account; change the password and see the withdrawal lock.
    await openRoute(page, '/mypage');
    await page.getByText(email, { exact: true }).waitFor();
    await openRoute(page, '/mypage/changepassword');
    await page.getByLabel('Current password', { exact: true }).fill(firstPassword);
    await page.getByLabel('New password', { exact: true }).fill(secondPassword);
    await page.getByLabel('Confirm the new password', { exact: true }).fill(secondPassword);
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await expectToast(page, 'Password changed');
    await page.getByRole('status').filter({ hasText: 'withdrawals are paused until' }).waitFor();

    // Log out.
    await openRoute(page, '/mypage');
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await waitForPath(page, '/');
    await nav.getByRole('link', { name: 'Log in', exact: true }).waitFor();
    assert.equal(await page.evaluate(() => window.localStorage.getItem('token')), null);

    // Reset the password: the server checks the code before the password form shows.
    await openRoute(page, '/resetpassword');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    sentAt = Date.now();
    await page.getByRole('button', { name: 'Send code', exact: true }).click();
    await enterCode(page, email, sentAt, 'Confirm');
    await page.getByLabel('New password', { exact: true }).fill(thirdPassword);
    await page.getByLabel('Confirm the new password', { exact: true }).fill('not-the-same1!');
    await page.getByText('Passwords Do Not Match', { exact: true }).waitFor();
    await page.getByLabel('Confirm the new password', { exact: true }).fill(thirdPassword);
    await page.getByRole('button', { name: 'Reset password', exact: true }).click();
    await expectToast(page, 'Password Reset Successful');
    await waitForPath(page, '/login');

    // Log in with the new password, coming back to a member page through the guard.
    await page.goto('/mypage/settings');
    await waitForPath(page, '/login');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(thirdPassword);
    sentAt = Date.now();
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await enterCode(page, email, sentAt, 'Confirm');
    await expectToast(page, 'Welcome');
    await waitForPath(page, '/mypage/settings');

    // Delete the account: the dialog says what is lost; the e-mail can never register again.
    await openRoute(page, '/mypage');
    await page.getByRole('button', { name: 'Delete account', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('This e-mail address can never register again.').waitFor();
    await dialog.getByLabel('Enter your password to confirm', { exact: true }).fill(thirdPassword);
    await dialog.getByRole('button', { name: 'Delete my account for good', exact: true }).click();
    await expectToast(page, 'Your account has been deleted');
    await waitForPath(page, '/');

    await openRoute(page, '/register');
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(firstPassword);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expectToast(page, 'This e-mail address belonged to a deleted account and cannot register again');
  },
  { timeout: 120_000 },
);

test('mobile, Chinese: register in the bottom drawer, log out, log in again', async ({ newPage }) => {
  const page = await newPage({ viewport: 'mobile', localStorage: { locale: 'zh' } });
  const email = uniqueEmail('mobile');
  const password = 'mobile-pass1!';
  const confirm = message(zh, 'common.confirm');

  await openRoute(page, '/register');
  await page.getByLabel(message(zh, 'auth.email'), { exact: true }).fill(email);
  await page.getByLabel(message(zh, 'auth.password'), { exact: true }).fill(password);
  let sentAt = Date.now();
  await page.getByRole('button', { name: message(zh, 'auth.registerSubmit'), exact: true }).click();
  await enterCode(page, email, sentAt, confirm);
  await expectToast(page, '欢迎');
  await waitForPath(page, '/');

  const tabs = page.getByRole('navigation', { name: message(zh, 'nav.tabBar') });
  await tabs.getByRole('link', { name: message(zh, 'nav.mypage') }).click();
  await waitForPath(page, '/mypage');
  await page.getByRole('button', { name: message(zh, 'mypage.logout'), exact: true }).click();
  await waitForPath(page, '/');

  await tabs.getByRole('link', { name: message(zh, 'nav.login') }).click();
  await waitForPath(page, '/login');
  await page.getByLabel(message(zh, 'auth.email'), { exact: true }).fill(email);
  await page.getByLabel(message(zh, 'auth.password'), { exact: true }).fill(password);
  sentAt = Date.now();
  await page.getByRole('button', { name: message(zh, 'auth.loginSubmit'), exact: true }).click();
  await enterCode(page, email, sentAt, confirm);
  await waitForPath(page, '/');
  await tabs.getByRole('link', { name: message(zh, 'nav.mypage') }).waitFor();
});
