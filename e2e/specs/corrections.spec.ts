import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import { test } from '../support/fixtures.js';
import { openAs } from '../support/open-as.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';
import {
  BITGET,
  bindUid,
  post,
  seedWithdrawingMembers,
  type WithdrawingMember,
} from '../support/withdrawals.js';

/**
 * Issue 12, corrections, end to end: an operator credits a member's UID 150 USDT (above the default
 * 100 USDT threshold) from the member's page; it waits; the same operator cannot approve it; a second
 * operator approves it from the Corrections queue; the member sees it as an "Adjustment" with the
 * reason under the cashback records, and the balance includes it; at 1024 px the member page's bindings
 * and ledger fit; the approver downloads the day's
 * audit log from /admin/exports and it names both operators; `ledger:check` is clean.
 */
const appSecret = randomBytes(24).toString('hex');
const REASON = 'Missed rebate for the 3 March trades';
let root: string;
let dataDir: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let member: WithdrawingMember;
let proposer: WithdrawingMember;
let approver: WithdrawingMember;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-corrections-'));
  dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 2, cashback: '40' });
  [member, approver] = seeded as unknown as [WithdrawingMember, WithdrawingMember];
  proposer = seeded.reviewer;
  await runOps(['admin:grant', approver.email, '--operator', proposer.email], { dataDir, appSecret });
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  await bindUid(server.url, member, proposer);
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const base = () => (server as RunningServer).url;

test(
  'an operator credits 150 USDT, a second operator approves it, the member sees the adjustment',
  async ({ newPage }) => {
    const found = await post(base(), '/elex/admin/searchMembers', { query: member.email }, proposer.token);
    const userId = (found.content as { rows: Array<{ userId: number }> } | undefined)?.rows[0]?.userId;
    assert.ok(userId);

    // The proposer corrects the UID's cashback from the member's page.
    const proposerPage = await newPage({ viewport: 'desktop' });
    await openAs(base(), proposerPage, proposer, `/admin/members/${userId}`);
    await proposerPage.getByRole('button', { name: 'Correct a balance', exact: true }).click();
    const dialog = proposerPage.getByRole('dialog', { name: 'Correct this member’s balance' });
    await dialog.getByText('Above 100.00 USDT a second operator must approve', { exact: false }).waitFor();
    await dialog
      .getByRole('combobox', { name: 'Which balance' })
      .selectOption(`${BITGET.platId}:${member.uid}`);
    await dialog.getByRole('textbox', { name: 'Amount in USDT' }).fill('150');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(REASON);
    await expectNoSeriousA11yViolations(proposerPage, 'propose a correction');
    await dialog.getByRole('button', { name: 'Save the correction', exact: true }).click();
    await proposerPage
      .getByText('Correction saved: it waits for a second operator’s approval')
      .first()
      .waitFor();
    const section = proposerPage.getByRole('region', { name: 'Corrections' });
    await section.getByText('Yours: another operator approves').waitFor();
    // Each decision button names its correction (amount and account) after its visible word.
    const approveIt = /^Approve 150\.00 USDT · Bitget · /;
    assert.equal(await section.getByRole('button', { name: approveIt }).count(), 0);

    // Nothing moved yet.
    const before = await post(base(), '/elex/user/myInfo', {}, member.token);
    assert.equal(
      (before.content as { exchangeBinds: Array<{ balance: string }> } | undefined)?.exchangeBinds[0]
        ?.balance,
      '40.000000',
    );

    // The second operator approves it from the queue.
    const approverPage = await newPage({ viewport: 'desktop' });
    await openAs(base(), approverPage, approver, '/admin/corrections');
    const row = approverPage.getByRole('row').filter({ hasText: REASON });
    await row.getByRole('button', { name: approveIt }).waitFor();
    await expectNoSeriousA11yViolations(approverPage, '/admin/corrections');
    await row.getByRole('button', { name: approveIt }).click();
    await approverPage.getByText('Correction posted').first().waitFor();
    await approverPage.getByText('No corrections here.').waitFor();

    // The member sees it under the cashback records, and the balance includes it.
    const memberPage = await newPage({ viewport: 'mobile' });
    await openAs(base(), memberPage, member, '/mypage/records');
    const adjustments = memberPage.getByRole('region', { name: 'Adjustments' });
    await adjustments.getByText(REASON).waitFor();
    await adjustments.getByText('Adjustment', { exact: true }).waitFor();
    await adjustments.getByText('+150.00 USDT', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(memberPage, '/mypage/records');
    const info = await post(base(), '/elex/user/myInfo', {}, member.token);
    assert.equal(
      (info.content as { exchangeBinds: Array<{ balance: string }> } | undefined)?.exchangeBinds[0]?.balance,
      '190.000000',
    );
    assert.equal(info.content?.totalRebate, '190.000000');

    // At 1024 px (a common laptop) the member's bindings and ledger fit their card: the unbind button
    // and each movement's balance after it are in view without scrolling sideways.
    await proposerPage.setViewportSize({ width: 1024, height: 800 });
    await openAs(base(), proposerPage, proposer, `/admin/members/${userId}`);
    for (const name of ['Bindings', 'Ledger history']) {
      const region = proposerPage.getByRole('region', { name, exact: true });
      await region.getByRole('row').nth(1).waitFor();
      const fit = await region.evaluate((table) => ({
        scroll: table.scrollWidth,
        client: table.clientWidth,
      }));
      assert.ok(fit.scroll <= fit.client, `${name} fits at 1024 px (${fit.scroll} > ${fit.client})`);
    }
    await proposerPage.getByRole('button', { name: `Unbind UID ${member.uid}` }).waitFor();
    await expectNoSeriousA11yViolations(proposerPage, '/admin/members/:userId at 1024 px');

    // The approver exports today's audit log: the file names who proposed and who approved.
    await openAs(base(), approverPage, approver, '/admin/exports');
    await approverPage
      .getByRole('combobox', { name: 'What to export' })
      .selectOption({ label: 'Audit log (by day of the action)' });
    await expectNoSeriousA11yViolations(approverPage, '/admin/exports');
    const [download] = await Promise.all([
      approverPage.waitForEvent('download'),
      approverPage.getByRole('button', { name: 'Download CSV', exact: true }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^elex-audit-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    const lines = csv.split('\r\n');
    const proposed = lines.find((line) => line.includes('correction.propose'));
    const approved = lines.find((line) => line.includes('correction.approve'));
    assert.ok(proposed?.includes(proposer.email), `the propose line names ${proposer.email}: ${proposed}`);
    assert.ok(approved?.includes(approver.email), `the approve line names ${approver.email}: ${approved}`);

    await (server as RunningServer).stop();
    server = undefined;
    assert.match(await runOps(['ledger:check'], { dataDir, appSecret }), /Ledger OK/);
  },
  { timeout: 240_000 },
);
