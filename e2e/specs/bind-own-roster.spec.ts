import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { translate } from '@elex/contract';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { type Locale, message, readMessages } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { openAs } from '../support/open-as.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture, waitForCode } from '../support/smtp-capture.js';
import { BITGET, post, RECEIVING_ADDRESS } from '../support/withdrawals.js';

/**
 * A member who is also an operator may not bind a UID that a roster they imported listed first
 * (`bindOwnRoster`, docs/cashback.md): the roster line let the UID's records settle at the rate its
 * registration time decides. On a server of its own (the role is granted with the operator command,
 * which the running server takes over its ops socket): the operator uploads the roster in the console,
 * then tries to bind the UID on the binding page and reads the refusal, naming the UID, in the dialog;
 * on a phone in Korean, in the drawer, within the screen.
 */
const en = readMessages('en');
const appSecret = randomBytes(24).toString('hex');
let root: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let token: string;
const uid = `55${Date.now().toString().slice(-8)}`;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-own-roster-'));
  const dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  const email = `own-roster-${randomBytes(3).toString('hex')}@example.com`;
  const sentAt = Date.now();
  assert.equal((await post(server.url, '/elex/user/verifyCode', { module: 1, email })).state, 0);
  const authcode = await waitForCode(email, sentAt, 20_000, smtp.dir);
  const registered = await post(server.url, '/elex/user/register', { email, passwd: 'roster1!', authcode });
  assert.equal(registered.state, 0, registered.message);
  token = String(registered.content?.token);
  // The first operator (the bootstrap grant), beside the running server.
  assert.match(await runOps(['admin:grant', email], { dataDir, appSecret }), /is now an operator/);
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const base = () => (server as RunningServer).url;

/** Fills the binding form with the UID and a receiving address and sends it, in `locale`'s words. */
async function bind(page: Page, locale: Locale) {
  const words = readMessages(locale);
  await page
    .getByLabel(message(words, 'binding.exchange'), { exact: true })
    .selectOption({ label: BITGET.name });
  await page.getByLabel(message(words, 'binding.uid'), { exact: true }).fill(uid);
  await page.getByLabel(message(words, 'binding.address'), { exact: true }).fill(RECEIVING_ADDRESS);
  await page.getByRole('button', { name: message(words, 'binding.submit'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: translate(locale, 'bindingFailed') });
  await dialog.waitFor();
  return dialog;
}

test('desktop: the operator imports a roster in the console, then binding its UID is refused with the reason', async ({
  newPage,
}) => {
  const page = await newPage({ viewport: 'desktop' });
  await openAs(base(), page, { token }, '/admin/imports');
  await page.getByLabel('Report').selectOption('referrals');
  await page.getByLabel('Exchange', { exact: true }).first().selectOption({ label: BITGET.name });
  await page.getByLabel('File', { exact: true }).setInputFiles({
    name: 'own-roster.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`uid,registered_at\n${uid},2026-01-02T00:00:00Z\n`),
  });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  await page.getByRole('status').filter({ hasText: 'own-roster.csv imported' }).waitFor();

  // The UID is in the roster (the check says so), yet not this operator's to bind.
  const verified = await post(base(), '/elex/user/verifyExchangeUid', { platId: BITGET.platId, uid }, token);
  assert.equal((verified.content as { eligibility?: string } | null)?.eligibility, 'eligible');
  await page.goto(`${base()}/uidlinking`, { waitUntil: 'networkidle' });
  const dialog = await bind(page, 'en');
  const refusal = translate('en', 'bindOwnRoster', { uid });
  assert.equal(
    refusal,
    `UID ${uid} was listed by a roster you imported as an operator: it cannot be bound to your own account`,
  );
  assert.equal((await dialog.getByRole('alert').innerText()).trim(), refusal);
  await dialog.getByRole('link', { name: message(en, 'binding.support.contact') }).waitFor();
  // The message wraps inside the dialog.
  const fit = await dialog.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
  }));
  assert.ok(fit.scroll <= fit.client, `the refusal fits the dialog (${fit.scroll} > ${fit.client})`);
  await expectNoSeriousA11yViolations(page, '/uidlinking with the bindOwnRoster refusal');
  await dialog
    .getByRole('button', { name: message(en, 'common.close'), exact: true })
    .last()
    .click();
  await dialog.waitFor({ state: 'hidden' });

  // Nothing was bound: the UID's check still finds it free.
  const after = await post(base(), '/elex/user/verifyExchangeUid', { platId: BITGET.platId, uid }, token);
  assert.equal((after.content as { eligibility?: string } | null)?.eligibility, 'eligible');
});

test('390 px, Korean: the refusal reads in the drawer, within the screen', async ({ newPage }) => {
  const page = await newPage({ viewport: 'mobile', localStorage: { locale: 'ko' } });
  await openAs(base(), page, { token }, '/uidlinking');
  const dialog = await bind(page, 'ko');
  await dialog
    .getByRole('alert')
    .getByText(translate('ko', 'bindOwnRoster', { uid }), { exact: true })
    .waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  const box = await dialog.getByRole('alert').boundingBox();
  assert.ok(
    box && box.x >= 0 && box.x + box.width <= 390,
    `the refusal is on screen: ${JSON.stringify(box)}`,
  );
  await expectNoSeriousA11yViolations(page, '/uidlinking on a phone with the bindOwnRoster refusal');
});
