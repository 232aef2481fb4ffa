import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { message, openRoute, readMessages, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { MEMBER_PASSWORD as PASSWORD, registerOverApi, uniqueEmail } from '../support/members.js';
import { waitForCode } from '../support/smtp-capture.js';

/**
 * Points and invites (issue 7): check in (the button and the top bar's red dot), claim a binding task,
 * invite a friend who registers through the link. Members are registered over the API with the code
 * from the real SMTP capture; the journeys themselves run in the browser.
 */
const en = readMessages('en');
const zh = readMessages('zh');
async function expectToast(page: Page, text: string) {
  await page.getByText(text, { exact: true }).first().waitFor({ state: 'visible' });
}

test(
  'desktop: check in (the red dot goes), bind the XME account and claim its points once',
  async ({ baseUrl, newPage }) => {
    const token = await registerOverApi(baseUrl, uniqueEmail('checkin'));
    const page = await newPage({ viewport: 'desktop', localStorage: { token } });
    await openRoute(page, '/mypage/point');

    const dot = page.getByRole('status', { name: message(en, 'nav.checkInDue') });
    await dot.waitFor();
    await page.getByRole('button', { name: message(en, 'points.checkIn'), exact: true }).click();
    await expectToast(page, 'Check-in successful');
    const checkedIn = page.getByRole('button', { name: 'Already Checked In', exact: true });
    await checkedIn.waitFor();
    assert.equal(await checkedIn.isDisabled(), true);
    await dot.waitFor({ state: 'detached' });

    // No community bot is configured on this server: the Telegram task says so and offers no check.
    const telegram = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: message(en, 'tasks.names.telegram') }),
    });
    await telegram.getByText(message(en, 'tasks.status.unavailable')).waitFor();
    assert.equal(
      await telegram.getByRole('button', { name: message(en, 'tasks.buttons.verify') }).count(),
      0,
    );

    // Bind the XME account, then Claim; the task then shows Bound.
    const xme = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: message(en, 'tasks.names.bindXme') }),
    });
    await xme.getByRole('button', { name: 'Bind', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: message(en, 'tasks.xmeTitle') });
    await dialog
      .getByLabel(message(en, 'tasks.xmeLabel'), { exact: true })
      .fill(`xme-${randomBytes(4).toString('hex')}`);
    await dialog.getByRole('button', { name: 'Bind', exact: true }).click();
    await expectToast(page, 'Binding successful');
    await xme.getByRole('button', { name: 'Claim', exact: true }).click();
    await expectToast(page, 'Claim Successful');
    const bound = xme.getByRole('button', { name: 'Bound', exact: true });
    await bound.waitFor();
    assert.equal(await bound.isDisabled(), true);

    const history = page.getByRole('region', { name: message(en, 'points.historyTitle') });
    await history.getByText(message(en, 'points.reasons.task'), { exact: true }).waitFor();
    await history.getByText(message(en, 'points.reasons.checkIn'), { exact: true }).waitFor();

    // The server agrees after a reload: still checked in, no dot, the task still Bound.
    await page.reload({ waitUntil: 'networkidle' });
    await checkedIn.waitFor();
    await bound.waitFor();
    assert.equal(await dot.count(), 0);
    await expectNoSeriousA11yViolations(page, '/mypage/point (desktop)');
    await openRoute(page, '/mypage/makefriend');
    await page
      .getByRole('region', { name: message(en, 'invite.friendsTitle') })
      .or(page.getByText(message(en, 'invite.noFriends')))
      .waitFor();
    await expectNoSeriousA11yViolations(page, '/mypage/makefriend (desktop)');
  },
  { timeout: 90_000 },
);

test(
  'mobile, Chinese: a friend registers through the invite link and both see the reward',
  async ({ baseUrl, newPage }) => {
    const inviterToken = await registerOverApi(baseUrl, uniqueEmail('inviter'));
    const inviter = await newPage({
      viewport: 'mobile',
      localStorage: { token: inviterToken, locale: 'zh' },
    });
    await openRoute(inviter, '/mypage/makefriend');
    await inviter.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const code = await inviter.getByLabel(message(zh, 'invite.codeLabel'), { exact: true }).inputValue();
    const link = await inviter.getByLabel(message(zh, 'invite.linkLabel'), { exact: true }).inputValue();
    const target = new URL(link);
    assert.equal(target.pathname, '/register');
    assert.equal(target.searchParams.get('inviteCode'), code);
    await inviter.getByRole('button', { name: message(zh, 'invite.copyLink') }).click();
    await expectToast(inviter, '复制成功');
    assert.equal(await inviter.evaluate(() => navigator.clipboard.readText()), link);

    // The friend opens the link: the form carries the code; registering takes the mailed code.
    const friendEmail = uniqueEmail('friend');
    const friend = await newPage({ viewport: 'mobile', localStorage: { locale: 'zh' } });
    await openRoute(friend, `${target.pathname}${target.search}`);
    assert.equal(
      await friend.getByLabel(message(zh, 'auth.inviteCodeOptional'), { exact: true }).inputValue(),
      code,
    );
    await friend.getByLabel(message(zh, 'auth.email'), { exact: true }).fill(friendEmail);
    await friend.getByLabel(message(zh, 'auth.password'), { exact: true }).fill(PASSWORD);
    const sentAt = Date.now();
    await friend.getByRole('button', { name: message(zh, 'auth.registerSubmit'), exact: true }).click();
    const authcode = await waitForCode(friendEmail, sentAt);
    const drawer = friend.getByRole('dialog');
    await drawer.getByRole('textbox').first().click();
    await friend.keyboard.type(authcode);
    await drawer.getByRole('button', { name: message(zh, 'common.confirm'), exact: true }).click();
    await expectToast(friend, '欢迎');
    await waitForPath(friend, '/');

    // The friend's points history shows the invite points.
    await openRoute(friend, '/mypage/point');
    const friendHistory = friend.getByRole('list', { name: message(zh, 'points.historyTitle') });
    await friendHistory.getByText(message(zh, 'points.reasons.inviteSignup'), { exact: true }).waitFor();

    // The inviter sees the friend, masked, with the points they earned.
    await inviter.reload({ waitUntil: 'networkidle' });
    const friends = inviter.getByRole('list', { name: message(zh, 'invite.friendsTitle') });
    const masked = `${friendEmail.slice(0, 2)}***@example.com`;
    const row = friends.getByRole('listitem').filter({ hasText: masked });
    await row.waitFor();
    assert.match(await row.innerText(), /100 积分/);
    assert.match(await row.innerText(), new RegExp(message(zh, 'invite.noUidYet')));
    await expectNoSeriousA11yViolations(inviter, '/mypage/makefriend (mobile, zh)');
    await expectNoSeriousA11yViolations(friend, '/mypage/point (mobile, zh)');
  },
  { timeout: 120_000 },
);
