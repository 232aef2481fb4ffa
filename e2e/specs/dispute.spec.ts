import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { message, readMessages } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { openAs } from '../support/open-as.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture, waitForCode } from '../support/smtp-capture.js';
import {
  BITGET,
  post,
  RECEIVING_ADDRESS,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from '../support/withdrawals.js';

/**
 * Issue 11, "a UID can be taken with the money it earned", end to end: a squatter binds the owner's
 * UID (150 USDT on it) and can withdraw nothing; the owner, refused with 'This account is already
 * bound!', opens a dispute from that dialog with a screenshot (desktop, English); the operator moves
 * the binding on a phone in Korean; the owner withdraws the whole balance; `ledger:check` is clean.
 */
const ko = readMessages('ko');
const appSecret = randomBytes(24).toString('hex');
/** A 1x1 PNG: the screenshot of the exchange account page. */
const SCREENSHOT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const OWNER_ADDRESS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
let root: string;
let dataDir: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let owner: WithdrawingMember;
let squatter: WithdrawingMember;
let operator: WithdrawingMember;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-dispute-'));
  dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 2, cashback: '150' });
  [owner, squatter] = seeded as unknown as [WithdrawingMember, WithdrawingMember];
  operator = seeded.reviewer;
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const base = () => (server as RunningServer).url;

/** Asks for a withdrawal of the owner's UID as `who`, with a real mailed code; answers the envelope. */
async function tryToWithdraw(who: WithdrawingMember, amount: string) {
  const sentAt = Date.now();
  await post(base(), '/elex/user/verifyCode', { module: 3 }, who.token);
  const authCode = await waitForCode(who.email, sentAt, 20_000, smtp.dir);
  return post(
    base(),
    '/elex/user/applyDeposit',
    {
      requestId: crypto.randomUUID(),
      platId: BITGET.platId,
      uid: owner.uid,
      address: RECEIVING_ADDRESS,
      amount,
      authCode,
    },
    who.token,
  );
}

test(
  'a squatter binds a UID and can withdraw nothing; the owner disputes with a screenshot, the operator moves it, the owner withdraws',
  async ({ newPage }) => {
    // The squatter binds the owner's UID (found by a search: it was eligible) and tries to take its 150 USDT.
    const bound = await post(
      base(),
      '/elex/user/bindExchangeUid',
      { platId: BITGET.platId, uid: owner.uid, address: RECEIVING_ADDRESS },
      squatter.token,
    );
    assert.equal(bound.state, 0);
    const held = await tryToWithdraw(squatter, '150');
    assert.equal(held.state, 1002);
    assert.match(held.message, /can be withdrawn from .* once its ownership check ends/);

    // The owner tries to bind it, is refused, and opens a dispute from the refusal (desktop, English).
    const ownerPage = await newPage({ viewport: 'desktop' });
    await openAs(base(), ownerPage, owner, `/uidlinking?platId=${BITGET.platId}&uid=${owner.uid}`);
    await ownerPage.getByRole('textbox', { name: 'Polygon receiving address (USDT)' }).fill(OWNER_ADDRESS);
    await ownerPage.getByRole('button', { name: 'Bind UID', exact: true }).click();
    const refused = ownerPage.getByRole('dialog', { name: 'Binding failed' });
    await refused.getByText('This account is already bound!').waitFor();
    await refused.getByRole('link', { name: 'This UID is mine: open a dispute' }).click();

    await ownerPage.waitForURL((url) => url.pathname === '/mypage/support/new');
    await ownerPage
      .getByRole('textbox', { name: 'Your Polygon receiving address (USDT)' })
      .fill(OWNER_ADDRESS);
    await ownerPage
      .getByRole('textbox', { name: 'Describe the problem' })
      .fill('This Bitget UID is mine: the screenshot shows my account page with the UID.');
    await ownerPage.locator('input[type="file"]').setInputFiles({
      name: 'bitget-account.png',
      mimeType: 'image/png',
      buffer: SCREENSHOT,
    });
    await ownerPage.getByRole('img', { name: /bitget-account\.png/ }).waitFor();
    await expectNoSeriousA11yViolations(ownerPage, '/mypage/support/new');
    await ownerPage.getByRole('button', { name: 'Send request', exact: true }).click();
    await ownerPage.waitForURL((url) => /^\/mypage\/support\/\d+$/.test(url.pathname));
    const requestId = new URL(ownerPage.url()).pathname.split('/').at(-1) as string;
    await ownerPage.getByText('Waiting for support').first().waitFor();

    // From now on the UID is frozen: even past the hold, nothing of it leaves.
    const frozen = await post(base(), '/elex/user/withdrawable', {}, squatter.token);
    const bindings = (frozen.content?.bindings ?? []) as Array<{ uid: string; frozen: boolean }>;
    const squatterBinding = bindings.find((binding) => binding.uid === owner.uid);
    assert.equal(squatterBinding?.frozen, true);

    // The operator decides on a phone, in Korean: the screenshot is there, the binding moves.
    const operatorPage = await newPage({ viewport: 'mobile', localStorage: { locale: 'ko' } });
    await openAs(base(), operatorPage, operator, '/admin/support');
    await operatorPage
      .getByRole('link', { name: new RegExp(`#${requestId}`) })
      .first()
      .click();
    await operatorPage.waitForURL((url) => url.pathname === `/admin/support/${requestId}`);
    const image = operatorPage.locator('img[src^="data:image/png;base64,"]');
    await image.first().waitFor();
    await expectNoSeriousA11yViolations(operatorPage, `/admin/support/${requestId}`);
    await operatorPage.getByRole('button', { name: message(ko, 'admin.support.move'), exact: true }).click();
    const ask = operatorPage.getByRole('dialog', { name: message(ko, 'admin.support.moveTitle') });
    await ask.getByText('150', { exact: false }).first().waitFor();
    await ask.getByRole('button', { name: message(ko, 'admin.support.moveConfirm'), exact: true }).click();
    await operatorPage.getByText(message(ko, 'admin.support.resolutions.moved')).first().waitFor();

    // The squatter holds nothing any more; the owner withdraws the whole 150 USDT in the browser.
    const squatterInfo = await post(base(), '/elex/user/myInfo', {}, squatter.token);
    assert.deepEqual(squatterInfo.content?.exchangeBinds, []);
    await openAs(base(), ownerPage, owner, '/withdrawal');
    await ownerPage.getByText('150.00 USDT', { exact: true }).first().waitFor();
    await ownerPage.getByRole('button', { name: 'Max: withdraw all 150.00 USDT' }).click();
    const sentAt = Date.now();
    await ownerPage.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const code = await waitForCode(owner.email, sentAt, 20_000, smtp.dir);
    const codeDialog = ownerPage.getByRole('dialog');
    await codeDialog.getByRole('textbox').first().click();
    await ownerPage.keyboard.type(code);
    await codeDialog.getByRole('button', { name: 'Confirm', exact: true }).click();
    const done = ownerPage.getByRole('dialog', { name: 'Withdrawal successful' });
    await done.getByText(`150.00 USDT to ${OWNER_ADDRESS} is under review`, { exact: false }).waitFor();

    // The money adds up: the ledger's every invariant holds.
    await (server as RunningServer).stop();
    server = undefined;
    assert.match(await runOps(['ledger:check'], { dataDir, appSecret }), /Ledger OK/);
  },
  { timeout: 240_000 },
);
