import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { message, readMessages } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { openAs } from '../support/open-as.js';
import { type RunningServer, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture, waitForCode } from '../support/smtp-capture.js';
import {
  BITGET,
  post,
  RECEIVING_ADDRESS,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from '../support/withdrawals.js';

/**
 * Issue 12, "run the business", end to end in Chromium: an operator retires Bitget (it leaves the
 * public exchange list; a member's bind is refused with the retired message) and suspends a member
 * (their session ends; their login is refused with the reason), then reinstates both, and the login
 * and the binding work again.
 */
const en = readMessages('en');
const ui = (key: string, values: Record<string, string> = {}) =>
  message(en, key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
const RETIRED =
  'This exchange is no longer a partner: it takes no new bindings. UIDs already bound keep their records and balances.';
const REASON = 'Chargeback under investigation';
const appSecret = randomBytes(24).toString('hex');
let root: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let member: WithdrawingMember;
let operator: WithdrawingMember;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-lifecycle-'));
  const dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 1, cashback: '60' });
  member = seeded[0] as WithdrawingMember;
  operator = seeded.reviewer;
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const base = () => (server as RunningServer).url;

/**
 * Each page of this spec loads the console and public pages after server-side writes that drop the
 * catalog cache; on a loaded machine the first load after each took longer than the suite's 10 s.
 */
function patient(page: Page) {
  page.setDefaultTimeout(30_000);
}

async function openPatiently(page: Page, who: WithdrawingMember, route: string) {
  patient(page);
  await openAs(base(), page, who, route);
}

const bindBitget = (token: string) =>
  post(
    base(),
    '/elex/user/bindExchangeUid',
    { platId: BITGET.platId, uid: member.uid, address: RECEIVING_ADDRESS },
    token,
  );

/** Logs the member in over the API with a mailed code; answers the login's envelope. */
async function logIn() {
  const sentAt = Date.now();
  const sent = await post(base(), '/elex/user/verifyCode', { module: 0, email: member.email });
  assert.equal(sent.state, 0, sent.message);
  const authcode = await waitForCode(member.email, sentAt, 20_000, smtp.dir);
  return post(base(), '/elex/user/login', { email: member.email, passwd: member.password, authcode });
}

/** The one move of the editor's status card, confirmed in its dialog. */
async function moveExchange(page: Page, move: 'retire' | 'reinstate', badge: string) {
  await page.getByRole('button', { name: ui(`admin.lifecycle.${move}.open`), exact: true }).click();
  const dialog = page.getByRole('dialog', {
    name: ui(`admin.lifecycle.${move}.title`, { name: BITGET.name }),
  });
  await dialog.getByRole('button', { name: ui(`admin.lifecycle.${move}.submit`), exact: true }).click();
  await page
    .getByRole('heading', { name: new RegExp(`${ui('admin.lifecycle.status')}\\s+${badge}`) })
    .waitFor();
}

/** Opens a reason dialog on the member page, checks focus is on the reason, and submits it. */
async function withReason(page: Page, action: 'suspendMember' | 'reinstateMember', reason: string) {
  await page.getByRole('button', { name: ui(`admin.lifecycle.${action}.open`), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: ui(`admin.lifecycle.${action}.title`) });
  const field = dialog.getByRole('textbox', { name: ui('admin.lifecycle.reason') });
  await field.waitFor();
  await page.waitForFunction(() => document.activeElement?.tagName === 'TEXTAREA');
  await field.fill(reason);
  await dialog.getByRole('button', { name: ui(`admin.lifecycle.${action}.submit`), exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

test(
  'an operator retires an exchange and suspends a member, then reinstates both',
  async ({ newPage }) => {
    // The operator retires Bitget from its editor.
    const desk = await newPage({ viewport: 'desktop' });
    await openPatiently(desk, operator, `/admin/catalog/${BITGET.platId}`);
    await expectNoSeriousA11yViolations(desk, '/admin/catalog/:platId');
    await moveExchange(desk, 'retire', ui('admin.lifecycle.statuses.retired'));

    // It leaves the public exchange list; the member's bind is refused with the retired message.
    const visitor = await newPage({ viewport: 'desktop' });
    patient(visitor);
    await visitor.goto(`${base()}/exchange`, { waitUntil: 'networkidle' });
    await visitor.getByRole('heading', { level: 2, name: 'Binance' }).waitFor();
    assert.equal(await visitor.getByRole('heading', { level: 2, name: BITGET.name }).count(), 0);
    const refused = await bindBitget(member.token);
    assert.deepEqual([refused.state, refused.message], [1002, RETIRED]);

    // The operator suspends the member with a reason: the session ends, and the login page says why.
    const found = await post(base(), '/elex/admin/searchMembers', { query: member.email }, operator.token);
    const userId = ((found.content?.rows ?? []) as Array<{ userId: number }>)[0]?.userId;
    await openPatiently(desk, operator, `/admin/members/${userId}`);
    await withReason(desk, 'suspendMember', REASON);
    await desk.getByText(REASON).waitFor();
    await expectNoSeriousA11yViolations(desk, '/admin/members/:userId');
    assert.equal((await post(base(), '/elex/user/profile', {}, member.token)).state, -5000);

    const login = await newPage({ viewport: 'mobile' });
    patient(login);
    await login.goto(`${base()}/login`, { waitUntil: 'networkidle' });
    await login.getByLabel(ui('auth.email'), { exact: true }).fill(member.email);
    await login.getByLabel(ui('auth.password'), { exact: true }).fill(member.password);
    await login.getByRole('button', { name: ui('auth.loginSubmit'), exact: true }).click();
    await login
      .getByText(`This account is suspended (${REASON}). Contact support if you think this is a mistake.`)
      .first()
      .waitFor();

    // Both reinstated: the member logs in again and can bind at Bitget, which is listed again.
    await withReason(desk, 'reinstateMember', 'The bank cleared the payment');
    await desk.getByText(ui('admin.lifecycle.active'), { exact: true }).waitFor();
    await openPatiently(desk, operator, `/admin/catalog/${BITGET.platId}`);
    await moveExchange(desk, 'reinstate', ui('admin.lifecycle.statuses.live'));
    const again = await logIn();
    assert.equal(again.state, 0, again.message);
    const bound = await bindBitget(String(again.content?.token));
    assert.equal(bound.state, 0, bound.message);
    await visitor.reload({ waitUntil: 'networkidle' });
    await visitor.getByRole('heading', { level: 2, name: BITGET.name }).waitFor();

    const audit = await post(base(), '/elex/admin/auditLog', { target: `user:${userId}` }, operator.token);
    const actions = ((audit.content?.rows ?? []) as Array<{ action: string; actor: string }>).map(
      (row) => row.action,
    );
    assert.deepEqual(actions, ['member.reinstate', 'member.suspend']);
  },
  { timeout: 240_000 },
);
