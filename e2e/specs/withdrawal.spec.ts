import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { translate } from '@elex/contract';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { message, readMessages } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { storeToken } from '../support/open-as.js';
import { type RunningServer, startServer } from '../support/server.js';
import {
  type CapturedMail,
  mailsTo,
  type SmtpCapture,
  startSmtpCapture,
  waitForCode,
} from '../support/smtp-capture.js';
import {
  bindUid,
  RECEIVING_ADDRESS,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from '../support/withdrawals.js';

/**
 * The member's withdrawal journey of issue 6 on a server of its own (its balance comes from the
 * operator's CSV commands, which need the embedded database to themselves): choose the UID, see the
 * minimum, take the max, confirm with the e-mailed code, see it under review, cancel it and get the
 * money back; on a phone in Korean, withdraw part and leave it under review.
 */
const en = readMessages('en');
const ko = readMessages('ko');
const appSecret = randomBytes(24).toString('hex');
let root: string;
let dataDir: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let members: WithdrawingMember[] = [];
/** More than one page of the records' CSV export (1,000 records a page, by cursor). */
const EXPORT_FAILED_RECORDS = 1_001;

before(async () => {
  // The data directory and the operator's CSV files side by side, removed together.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-withdrawal-'));
  dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  const seeded = await seedWithdrawingMembers({
    dataDir,
    appSecret,
    smtp,
    count: 2,
    cashback: '150',
    failedRecordsOfFirst: EXPORT_FAILED_RECORDS,
  });
  members = seeded;
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  for (const member of members) await bindUid(server.url, member, seeded.reviewer);
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

async function openAsMember(page: Page, member: WithdrawingMember) {
  const base = (server as RunningServer).url;
  await storeToken(page, base, member.token);
  await page.goto(`${base}/withdrawal`, { waitUntil: 'networkidle' });
}

/** Types the mailed code into the six boxes (dialog on desktop, drawer on a phone) and confirms. */
async function confirmWithCode(page: Page, member: WithdrawingMember, sentAfter: number, confirm: string) {
  const code = await waitForCode(member.email, sentAfter, 20_000, smtp.dir);
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByRole('textbox').first().click();
  await page.keyboard.type(code);
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
}

test(
  'desktop: a member withdraws everything, sees it under review, cancels it and has the money back',
  async ({ newPage }) => {
    const member = members[0] as WithdrawingMember;
    const page = await newPage({ viewport: 'desktop' });
    await openAsMember(page, member);

    await page.getByLabel('Exchange UID', { exact: true }).waitFor();
    assert.equal(
      await page.getByLabel('Exchange UID', { exact: true }).inputValue(),
      `4:${member.uid}`,
      'the bound UID is chosen',
    );
    assert.equal(await page.getByLabel('Receiving address (Polygon)').inputValue(), RECEIVING_ADDRESS);
    await page.getByText('150.00 USDT', { exact: true }).first().waitFor();
    await page.getByText('The minimum of 50.00 USDT is reached.').waitFor();

    // Below the minimum the page says how much is missing.
    const amount = page.getByLabel('Amount (USDT)', { exact: true });
    await amount.fill('20');
    await amount.blur();
    await page.getByText('The minimum withdrawal is 50.00 USDT; 30.00 USDT more is needed').waitFor();
    await page.getByRole('button', { name: 'Max: withdraw all 150.00 USDT' }).click();
    assert.equal(await amount.inputValue(), '150.00');
    await expectNoSeriousA11yViolations(page, '/withdrawal');

    const sentAt = Date.now();
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await confirmWithCode(page, member, sentAt, 'Confirm');
    const done = page.getByRole('dialog', { name: 'Withdrawal successful' });
    await done.getByText(`150.00 USDT to ${RECEIVING_ADDRESS} is under review`, { exact: false }).waitFor();
    await done.getByRole('button', { name: 'Close', exact: true }).last().click();

    // The list shows it under review; the balance is on hold.
    const list = page.getByRole('region', { name: 'Your withdrawals' });
    const row = list.getByRole('row').filter({ hasText: 'Under review' });
    await row.waitFor();
    assert.match(await row.innerText(), /Bitget[\s\S]*150\.00/);
    await page.getByText('50.00 USDT more is needed to reach the minimum of 50.00 USDT.').waitFor();
    // The outbox worker sends within a second or two.
    let confirmation: CapturedMail | undefined;
    for (let tries = 0; !confirmation && tries < 100; tries += 1) {
      confirmation = mailsTo(member.email, smtp.dir).find((mail) => mail.subject.includes('requested'));
      if (!confirmation) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(confirmation, 'a confirmation mail was sent');
    assert.match(confirmation.text, new RegExp(`Amount: 150\\.00 USDT[\\s\\S]*${RECEIVING_ADDRESS}`));

    // Cancel it: the money returns.
    await row.getByRole('button', { name: 'Cancel the withdrawal of 150.00 USDT' }).click();
    const ask = page.getByRole('dialog', { name: 'Cancel this withdrawal?' });
    await ask.getByText('150.00 USDT returns to your balance at once.').waitFor();
    await ask.getByRole('button', { name: 'Cancel the withdrawal', exact: true }).click();
    await page.getByText('Withdrawal cancelled', { exact: true }).first().waitFor();
    await list.getByRole('row').filter({ hasText: 'Cancelled' }).waitFor();
    await page.getByText('The minimum of 50.00 USDT is reached.').waitFor();
    assert.equal(await list.getByRole('button', { name: /Cancel the withdrawal/ }).count(), 0);
  },
  { timeout: 120_000 },
);

test('mobile, Korean: withdraw part in the bottom drawer and see it under review', async ({ newPage }) => {
  const member = members[1] as WithdrawingMember;
  const page = await newPage({ viewport: 'mobile', localStorage: { locale: 'ko' } });
  await openAsMember(page, member);
  const amount = page.getByLabel(message(ko, 'withdrawal.amount'), { exact: true });
  await amount.waitFor();
  await amount.fill('60');
  const sentAt = Date.now();
  await page.getByRole('button', { name: message(ko, 'withdrawal.submit'), exact: true }).click();
  await confirmWithCode(page, member, sentAt, message(ko, 'common.confirm'));
  await page.getByRole('dialog', { name: '출금 신청 성공' }).waitFor();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: message(ko, 'common.close'), exact: true })
    .last()
    .click();
  const list = page.getByRole('region', { name: message(ko, 'withdrawal.historyTitle') });
  await list.getByText(message(ko, 'withdrawal.statuses.pending'), { exact: true }).waitFor();
  await list.getByText('60.00', { exact: true }).waitFor();
  // What is left: 90.00 of the UID's 150.00.
  await page.getByText('90.00 USDT', { exact: true }).first().waitFor();
  // The list scrolls sideways inside its region; the page itself stays as wide as the phone.
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  assert.equal(message(en, 'withdrawal.statuses.pending'), 'Under review');
});

test('desktop: the records export downloads every record, over more than one page, with the reasons', async ({
  newPage,
}) => {
  const member = members[1] as WithdrawingMember;
  const first = members[0] as WithdrawingMember;
  const page = await newPage({ viewport: 'desktop' });
  const base = (server as RunningServer).url;
  await storeToken(page, base, first.token);
  await page.goto(`${base}/mypage/records`, { waitUntil: 'networkidle' });
  await page.getByRole('table').waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: message(en, 'cashback.exportCsv') }).click(),
  ]);
  const file = path.join(root, 'records.csv');
  await download.saveAs(file);
  const lines = fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  assert.equal(
    lines.length,
    1 + EXPORT_FAILED_RECORDS + 1,
    'the header, every failed record and the paid one',
  );
  // Headers and statuses in the member's language (docs/decisions.md, "Statements a trader can read and add up").
  const columns = [
    'exchange',
    'uid',
    'periodStart',
    'periodEnd',
    'tradingVolume',
    'fee',
    'cashback',
    'status',
    'reason',
  ];
  assert.equal(lines[0], columns.map((column) => message(en, `cashback.csvColumns.${column}`)).join(','));
  assert.equal(
    lines.filter((line) => line.includes(translate('en', 'noCommission'))).length,
    EXPORT_FAILED_RECORDS,
  );
  const completed = `,${message(en, 'cashback.statuses.completed')},`;
  assert.equal(lines.filter((line) => line.includes(completed)).length, 1, 'the paid record');
  assert.equal(new Set(lines).size, lines.length, 'no record twice');
  await expectNoSeriousA11yViolations(page);
  // The other member's file is not this member's business: their UID is nowhere in it.
  assert.equal(lines.filter((line) => line.includes(member.uid)).length, 0);
});
