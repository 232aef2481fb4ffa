import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11yViolations } from '../support/a11y.js';
import type { Viewport } from '../support/browser.js';
import { test } from '../support/fixtures.js';
import { openAs } from '../support/open-as.js';
import { type RunningServer, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.js';
import { bindUid, seedWithdrawingMembers, type WithdrawingMember } from '../support/withdrawals.js';

/**
 * Reconciliation in the console (issue 12): an operator uploads Bitget's figures on the imports page,
 * one of them for a UID the roster does not list; the reconciliation page shows the commission and
 * the unbound remainder, the roster finds the member's UID, the failed record says why; the roster
 * upload pays it, and re-settling afterwards settles nothing twice. axe on every view, both widths.
 */
let root: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let member: WithdrawingMember;
let operator: WithdrawingMember;
const tag = randomBytes(3).toString('hex').toUpperCase();
/** A UID the roster does not list until the operator uploads it. */
const LATE_UID = `LATE${tag}`;

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-reconcile-'));
  const dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  const appSecret = randomBytes(24).toString('hex');
  // The member's UID is in Bitget's roster with 150 USDT of commission; the reviewer is an operator.
  const seeded = await seedWithdrawingMembers({ dataDir, appSecret, smtp, count: 1, cashback: '150' });
  [member] = seeded as unknown as [WithdrawingMember];
  operator = seeded.reviewer;
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  await bindUid(server.url, member, operator);
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const base = () => (server as RunningServer).url;
const DAY_MS = 86_400_000;
const day = (daysAgo: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysAgo * DAY_MS)
    .toISOString()
    .slice(0, 10);
};

async function upload(page: Page, kind: 'referrals' | 'rebates', name: string, csv: string) {
  await page.goto(`${base()}/admin/imports`, { waitUntil: 'networkidle' });
  await page.getByLabel('Report').selectOption(kind);
  await page.getByLabel('Exchange', { exact: true }).first().selectOption({ label: 'Bitget' });
  await page.getByLabel('File', { exact: true }).setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByRole('button', { name: 'Upload and import' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${name} imported` })
    .waitFor();
}

test(
  'desktop: figures, roster and a failed record with its reason; the roster upload pays it; re-settling settles nothing twice',
  async ({ newPage }) => {
    const page = await newPage({ viewport: 'desktop' });
    await openAs(base(), page, operator, '/admin/imports');
    // Eight days ago for the UID nobody listed (past the 7-day grace: refused as not referred), and
    // three days ago for the member's UID (Bitget's 50 % of the 10 USDT fee: 5).
    await upload(
      page,
      'rebates',
      'bitget-figures.csv',
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        `${LATE_UID},${day(9)},${day(8)},1000,6,7`,
        `${member.uid},${day(3)},${day(2)},1000,10,8`,
        '',
      ].join('\n'),
    );

    await page
      .getByRole('navigation', { name: 'Operator console' })
      .getByRole('link', { name: 'Reconciliation' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Reconciliation' }).waitFor();
    const bitget = page.getByRole('row', { name: /^Bitget/ });
    await bitget.waitFor();
    // The seed's two UIDs (150 each, the member's and the operator's), 7 and 8: 315 in the last 30 days;
    // 7 of it for a UID the roster does not list.
    const cells = await bitget.getByRole('cell').allInnerTexts();
    assert.equal(cells[0], '315.00');
    assert.match(cells[1] ?? '', /^305\.00/);
    assert.equal(cells[5], '7.00');
    await expectNoSeriousA11yViolations(page, '/admin/reconciliation summary');

    // The roster: the member's UID, bound to the member (masked).
    await page.getByRole('link', { name: 'Roster' }).click();
    await page.getByLabel('Exchange', { exact: true }).selectOption({ label: 'Bitget' });
    await page.getByLabel('UID starts with').fill(member.uid.slice(0, 6));
    await page.getByRole('button', { name: 'Search' }).click();
    const found = page.getByRole('row', { name: new RegExp(member.uid) });
    await found.waitFor();
    assert.match(await found.innerText(), new RegExp(`${member.email.slice(0, 2)}\\*\\*\\*@example\\.com`));
    await expectNoSeriousA11yViolations(page, '/admin/reconciliation roster');

    // The records not paid: the late UID's, failed, with why.
    await page.getByRole('link', { name: 'Records not paid' }).click();
    const failed = page.getByRole('row', { name: new RegExp(LATE_UID) });
    await failed.waitFor();
    assert.match(await failed.innerText(), /Failed/);
    assert.match(await failed.innerText(), /not in the exchange's roster \(not referred\)/);
    await expectNoSeriousA11yViolations(page, '/admin/reconciliation records not paid');

    // The roster arrives: its upload settles what it unblocks, so the record is paid (3 USDT).
    await upload(page, 'referrals', 'bitget-roster.csv', `uid,registered_at\n${LATE_UID},${day(400)}\n`);
    await page.goto(`${base()}/admin/reconciliation?tab=rebates&platId=4`, { waitUntil: 'networkidle' });
    await page.getByText('Every record of this exchange matching these filters is paid.').waitFor();
    // Re-settling now finds nothing due: a record settles once, however often an operator presses.
    await page.getByRole('button', { name: 'Re-settle Bitget' }).click();
    await page.getByText('Nothing was due: no record settled').waitFor();

    await page.getByRole('link', { name: 'Period summary' }).click();
    // allInnerTexts does not wait: the summary's row first.
    const bitgetRow = page.getByRole('row', { name: /^Bitget/ });
    await bitgetRow.waitFor();
    const after = await bitgetRow.getByRole('cell').allInnerTexts();
    assert.match(after[1] ?? '', /^308\.00/);
    assert.equal(after[5], '0.00');

    // At 1024 px (a common laptop) the nine columns of the identity fit: "held now" is in view.
    await page.setViewportSize({ width: 1024, height: 800 });
    const summary = page.locator('.table-scroll[aria-label="Period summary"]');
    const fit = await summary.evaluate((table) => ({ scroll: table.scrollWidth, client: table.clientWidth }));
    assert.ok(fit.scroll <= fit.client, `the period summary fits at 1024 px (${fit.scroll} > ${fit.client})`);
  },
  // Two uploads, each settling, and axe three times: minutes on a busy machine.
  { timeout: 300_000 },
);

for (const viewport of ['mobile'] as Viewport[]) {
  test(
    `axe: the reconciliation views have no serious violation and fit a phone (${viewport})`,
    async ({ newPage }) => {
      const page = await newPage({ viewport });
      await openAs(base(), page, operator, '/admin/reconciliation');
      for (const tab of ['', '?tab=roster&platId=4', '?tab=rebates&platId=4']) {
        await page.goto(`${base()}/admin/reconciliation${tab}`, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { level: 1, name: 'Reconciliation' }).waitFor();
        await expectNoSeriousA11yViolations(page, `/admin/reconciliation${tab} (${viewport})`);
        assert.equal(
          await page.evaluate(() => document.documentElement.scrollWidth),
          390,
          `${tab} fits the phone`,
        );
      }
    },
    { timeout: 120_000 },
  );
}
