import assert from 'node:assert/strict';
import { type Locale as ContractLocale, type MessageKey, translate } from '@elex/contract';
import type { Page } from 'playwright-core';
import { type Locale, message, openRoute, readMessages, waitForPath } from '../support/app.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';
import { uniqueEmail } from '../support/members.js';
import { waitForCode } from '../support/smtp-capture.js';

/**
 * The whole account journey (register, change password, log out, reset, log in, delete) in the
 * browser, with every code read from the mail the real SMTP capture received, and the refusals a user
 * meets on the way: incomplete code boxes, a wrong code, a taken e-mail on blur, a wrong password, the
 * 60 s cool-down warning, the deleted e-mail. One run per layout and language pair; together the runs
 * cover both layouts and all three languages.
 */
const RUNS: { viewport: Viewport; locale: Locale }[] = [
  { viewport: 'desktop', locale: 'en' },
  { viewport: 'mobile', locale: 'zh' },
  { viewport: 'desktop', locale: 'ko' },
  { viewport: 'mobile', locale: 'ko' },
];

/** Another code of six digits than `code`. */
function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function journeyStrings(locale: Locale) {
  const web = readMessages(locale);
  const ui = (key: string) => message(web, key);
  const msg = (key: MessageKey, values: Record<string, string | number> = {}) =>
    translate(locale as ContractLocale, key, values);
  /** A message whose placeholders may hold anything (e.g. the seconds left). */
  const pattern = (text: string) =>
    new RegExp(
      `^${text
        .split(/\{\{\w+\}\}/)
        .map(escapeRegExp)
        .join('.+')}$`,
    );
  const uiPattern = (key: string) => pattern(ui(key));
  return { ui, msg, uiPattern };
}

async function expectText(page: Page, text: string | RegExp) {
  await page.getByText(text, { exact: true }).first().waitFor({ state: 'visible' });
}

for (const { viewport, locale } of RUNS) {
  test(
    `${viewport}, ${locale}: register, change password, log out, reset, log in, delete, with every refusal on the way`,
    async ({ newPage }) => {
      const page = await newPage({ viewport, localStorage: { locale } });
      const { ui, msg, uiPattern } = journeyStrings(locale);
      const email = uniqueEmail(`journey-${viewport}-${locale}`);
      const firstPassword = 'first-pass1!';
      const secondPassword = 'second-pass2@';
      const thirdPassword = 'third-pass3#';
      const confirmLabel = ui('common.confirm');
      const nav = page.getByRole('navigation', {
        name: ui(viewport === 'mobile' ? 'nav.tabBar' : 'nav.main'),
      });

      const codeDialog = page.getByRole('dialog', { name: ui('auth.codeTitle') });
      /**
       * Types six (or fewer) digits into the boxes from the first, over whatever they held: a box
       * selects its digit when focused, so each key replaces it (a click would drop the selection).
       */
      const typeCode = async (digits: string) => {
        await codeDialog.waitFor({ state: 'visible' });
        await codeDialog.getByRole('textbox').first().focus();
        await page.keyboard.type(digits);
      };
      const confirmCode = async (digits: string) => {
        await typeCode(digits);
        await codeDialog.getByRole('button', { name: confirmLabel, exact: true }).click();
      };

      // Register: the e-mail is trimmed; the code dialog refuses incomplete boxes on the page and a
      // wrong code through the server, then takes the code the mail brought.
      await openRoute(page, '/register');
      const registerEmail = page.getByLabel(ui('auth.email'), { exact: true });
      await registerEmail.fill(`  ${email} `);
      await page.getByLabel(ui('auth.password'), { exact: true }).fill(firstPassword);
      let sentAt = Date.now();
      await page.getByRole('button', { name: ui('auth.registerSubmit'), exact: true }).click();
      const registerCode = await waitForCode(email, sentAt);
      await confirmCode(registerCode.slice(0, 3));
      await codeDialog
        .getByRole('alert')
        .filter({ hasText: msg('codeIncomplete') })
        .waitFor();
      await confirmCode(wrongCode(registerCode));
      await expectText(page, msg('codeInvalid'));
      await confirmCode(registerCode);
      await expectText(page, msg('welcome'));
      await waitForPath(page, '/');

      // My page shows the account; the password change pauses withdrawals.
      await nav.getByRole('link', { name: ui('nav.mypage'), exact: true }).click();
      await waitForPath(page, '/mypage');
      await page.getByText(email, { exact: true }).waitFor();
      await openRoute(page, '/mypage/changepassword');
      // A wrong current password is marked on its field, which takes the focus; the rest stays typed.
      const oldPassword = page.getByLabel(ui('mypage.oldPassword'), { exact: true });
      await oldPassword.fill(`${firstPassword}x`);
      await page.getByLabel(ui('auth.newPassword'), { exact: true }).fill(secondPassword);
      await page.getByLabel(ui('auth.confirmPassword'), { exact: true }).fill(secondPassword);
      await page.getByRole('button', { name: ui('mypage.changeSubmit'), exact: true }).click();
      await page.locator('#change-old[aria-invalid="true"]').waitFor();
      assert.equal(await oldPassword.evaluate((input) => input === document.activeElement), true);
      assert.match((await oldPassword.getAttribute('aria-describedby')) ?? '', /\S/);
      await expectText(page, msg('passwordIncorrect'));
      await oldPassword.fill(firstPassword);
      await page.getByRole('button', { name: ui('mypage.changeSubmit'), exact: true }).click();
      await expectText(page, msg('passwordChanged'));
      const pausedUntil = ui('mypage.withdrawalLockedUntil').split('{{time}}')[0] ?? '';
      await page.getByRole('status').filter({ hasText: pausedUntil.trim() }).waitFor();

      // Log out.
      await openRoute(page, '/mypage');
      await page.getByRole('button', { name: ui('mypage.logout'), exact: true }).click();
      await waitForPath(page, '/');
      await nav.getByRole('link', { name: ui('nav.login'), exact: true }).waitFor();
      assert.equal(await page.evaluate(() => window.localStorage.getItem('token')), null);

      // The register page says at once, when the e-mail field is left, that the address is taken.
      await openRoute(page, '/register');
      await registerEmail.fill(email.toUpperCase());
      await page.getByLabel(ui('auth.password'), { exact: true }).focus();
      await expectText(page, msg('emailExists'));
      assert.equal(
        await page.getByRole('button', { name: ui('auth.registerSubmit'), exact: true }).isDisabled(),
        true,
      );

      // Reset the password: the server checks the code before the password form shows.
      await openRoute(page, '/resetpassword');
      await page.getByLabel(ui('auth.email'), { exact: true }).fill(email);
      sentAt = Date.now();
      await page.getByRole('button', { name: ui('auth.sendCode'), exact: true }).click();
      await confirmCode(await waitForCode(email, sentAt));
      await page.getByLabel(ui('auth.newPassword'), { exact: true }).fill(thirdPassword);
      await page.getByLabel(ui('auth.confirmPassword'), { exact: true }).fill('not-the-same1!');
      await expectText(page, msg('passwordsDoNotMatch'));
      await page.getByLabel(ui('auth.confirmPassword'), { exact: true }).fill(thirdPassword);
      await page.getByRole('button', { name: ui('auth.resetSubmit'), exact: true }).click();
      await expectText(page, msg('passwordResetSuccessful'));
      await waitForPath(page, '/login');

      // Log in, coming back to a member page through the guard. A wrong password is refused after
      // the code; asking again within 60 s warns and opens the dialog for the code already mailed.
      await page.goto('/mypage/settings');
      await waitForPath(page, '/login');
      const loginPassword = page.getByLabel(ui('auth.password'), { exact: true });
      await page.getByLabel(ui('auth.email'), { exact: true }).fill(email);
      await loginPassword.fill(secondPassword);
      sentAt = Date.now();
      await page.getByRole('button', { name: ui('auth.loginSubmit'), exact: true }).click();
      const loginCode = await waitForCode(email, sentAt);
      await confirmCode(loginCode);
      await expectText(page, msg('loginFailed'));
      await page.keyboard.press('Escape');
      await codeDialog.waitFor({ state: 'hidden' });
      await loginPassword.fill(thirdPassword);
      await page.getByRole('button', { name: ui('auth.loginSubmit'), exact: true }).click();
      // Asking again within the cool-down is calm: the code sent before is still valid (issue 15).
      await expectText(page, uiPattern('codeCoolDown.stillValid'));
      await confirmCode(loginCode);
      await expectText(page, msg('welcome'));
      await waitForPath(page, '/mypage/settings');

      // Delete the account: a wrong password is refused; the dialog says what is lost.
      await openRoute(page, '/mypage');
      await page.getByRole('button', { name: ui('mypage.deleteAccount'), exact: true }).click();
      const deleteDialog = page.getByRole('dialog', { name: ui('mypage.deleteTitle') });
      // This member holds no money: the dialog says so plainly (and sends a total of 0 with the deletion).
      await deleteDialog.getByText(ui('mypage.deleteNothingHeld'), { exact: true }).waitFor();
      await deleteDialog.getByText(ui('mypage.deleteLossMoney'), { exact: true }).waitFor();
      await deleteDialog.getByText(ui('mypage.deleteLossEmail'), { exact: true }).waitFor();
      const deletePassword = deleteDialog.getByLabel(ui('mypage.deletePassword'), { exact: true });
      const deleteButton = deleteDialog.getByRole('button', {
        name: ui('mypage.deleteConfirm'),
        exact: true,
      });
      await deletePassword.fill(secondPassword);
      await deleteButton.click();
      await expectText(page, msg('passwordIncorrect'));
      await deletePassword.fill(thirdPassword);
      await deleteButton.click();
      await expectText(page, msg('accountDeleted'));
      await waitForPath(page, '/');

      // The e-mail of a deleted account can never register again.
      await openRoute(page, '/register');
      await registerEmail.fill(email);
      await page.getByLabel(ui('auth.password'), { exact: true }).fill(firstPassword);
      await page.getByRole('button', { name: ui('auth.registerSubmit'), exact: true }).click();
      await expectText(page, msg('emailDeleted'));
    },
    { timeout: 120_000 },
  );
}
