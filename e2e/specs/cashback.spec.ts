import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { currentUrl, message, readMessages, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { storeToken } from '../support/open-as.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture, waitForCode } from '../support/smtp-capture.js';

/**
 * The cashback journey of issue 5 on a server of its own, because the operator commands need the
 * embedded database to themselves: register, bind a referred UID, import rebates through the command,
 * then see the balance, the daily chart and the records. Every figure the member sees is checked
 * against what the imported file and the exchange's cash rate make it, to the cent.
 */
const DAY = 86_400_000;
const iso = (time: number) => new Date(time).toISOString();
const appSecret = randomBytes(24).toString('hex');
let root: string;
let dataDir: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;

before(async () => {
  // The data directory and the CSV files handed to the CLI, removed together.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-cashback-'));
  dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
});
after(async () => {
  await server?.stop();
  await smtp.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const start = async () => {
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  return server.url;
};
const stop = async () => {
  await server?.stop();
  server = undefined;
};

async function post(base: string, pathName: string, body: unknown, token?: string) {
  const response = await fetch(`${base}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as {
    state: number;
    message: string;
    content: Record<string, unknown> | null;
  };
}

const en = readMessages('en');
/** The failure reason the server gives (msg:noCommission), as the records table shows it. */
const NO_COMMISSION = 'The exchange paid no commission for this period';
const text = (key: string) => message(en, key);

/** A decimal string with up to 6 places as micro-USDT (or basis points with places = 2). */
function scaled(value: string, places = 6): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 10n ** BigInt(places) + BigInt(fraction.padEnd(places, '0').slice(0, places));
}

/** micro-USDT as the pages show it: two decimals, truncated (amounts here are under 1,000). */
const shown = (micro: bigint) =>
  `${micro / 1_000_000n}.${String((micro % 1_000_000n) / 10_000n).padStart(2, '0')}`;
/** micro-USDT as the operator commands print it: six decimals. */
const printed = (micro: bigint) => `${micro / 1_000_000n}.${String(micro % 1_000_000n).padStart(6, '0')}`;

/** The page's stat cards as label -> figure (terms and definitions pair in order). */
async function stats(page: Page): Promise<Record<string, string>> {
  const terms = await page.getByRole('term').allTextContents();
  const values = await page.getByRole('definition').allTextContents();
  return Object.fromEntries(terms.map((term, index) => [term.trim(), (values[index] ?? '').trim()]));
}

/** A table's body rows as the text of their cells. */
async function bodyRows(page: Page, name: string): Promise<string[][]> {
  const table = page.getByRole('table', { name, exact: true });
  await table.waitFor({ state: 'attached' });
  const rows = await table.locator('tbody tr').all();
  return Promise.all(
    rows.map(async (row) => (await row.getByRole('cell').allTextContents()).map((cell) => cell.trim())),
  );
}

function writeCsv(name: string, lines: string[]): string {
  const file = path.join(root, `${name}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test(
  'a member binds a referred UID, rebates arrive by CSV command, and the balance, chart and records show the exact figures',
  async ({ newPage }) => {
    const email = `cashback-${randomBytes(3).toString('hex')}@example.com`;
    const uid = `77${Date.now().toString().slice(-8)}`;
    const now = Date.now();
    const today = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate(),
    );

    // The server seeds the partner catalog on its first start; register over the API with the mailed code.
    let base = await start();
    const sentAt = Date.now();
    assert.equal((await post(base, '/elex/user/verifyCode', { module: 1, email })).state, 0);
    const authcode = await waitForCode(email, sentAt, 20_000, smtp.dir);
    const registered = await post(base, '/elex/user/register', { email, passwd: 'cashback1!', authcode });
    assert.equal(registered.state, 0, registered.message);
    const token = String(registered.content?.token);
    // The operator is another member: an operator imports no figures crediting their own UID.
    const operator = `cashback-ops-${randomBytes(3).toString('hex')}@example.com`;
    const opsSentAt = Date.now();
    assert.equal((await post(base, '/elex/user/verifyCode', { module: 1, email: operator })).state, 0);
    const opsCode = await waitForCode(operator, opsSentAt, 20_000, smtp.dir);
    const opsRegistered = await post(base, '/elex/user/register', {
      email: operator,
      passwd: 'cashback1!',
      authcode: opsCode,
    });
    assert.equal(opsRegistered.state, 0, opsRegistered.message);
    // Bitget's cash rate as the site publishes it (the exchange dictionary every page loads).
    const dictionary = (await (await fetch(`${base}/elex/user/config/res.json`)).json()) as {
      content: { exchangeList: Array<{ name: string; cashRate: string }> };
    };
    const bitget = dictionary.content.exchangeList.find((entry) => entry.name === 'Bitget');
    assert.ok(bitget, 'Bitget is in the catalog');
    const rateBps = scaled(bitget.cashRate, 2);
    await stop();

    // The operator imports the referral roster: this UID registered with our code 60 days ago, so
    // the basic cash rate applies (the speed-up rate covers the first 3 weeks only). Commands that
    // change data name their operator: the operator's account is made the first one (the bootstrap grant).
    await runOps(['admin:grant', operator], { dataDir, appSecret });
    const referrals = writeCsv('referrals', ['uid,registered_at', `${uid},${iso(now - 60 * DAY)}`]);
    assert.match(
      await runOps(['referrals:import', 'Bitget', referrals, '--operator', operator], { dataDir, appSecret }),
      /Imported .*: 1 row\(s\), 1 new, 0 already known/,
    );

    // The member binds it in the browser.
    base = await start();
    const page = await newPage({ viewport: 'desktop' });
    await storeToken(page, base, token);
    await page.goto(`${base}/uidlinking`);
    await page.getByLabel('Exchange', { exact: true }).selectOption({ label: 'Bitget' });
    await page.getByLabel('Exchange UID', { exact: true }).fill(uid);
    await page
      .getByLabel('Polygon receiving address (USDT)', { exact: true })
      .fill('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await page.getByRole('button', { name: 'Bind UID', exact: true }).click();
    await page.getByRole('dialog', { name: 'Binding successful' }).waitFor();
    await page.context().close();
    await stop();

    // Rebates arrive by the operator's command: three days old enough to settle at once (one paid at
    // the rate, one capped by the commission, one without commission) and the 6-hour segment that
    // ended at midnight, still inside the 24 h settlement delay.
    const rows = [
      { start: today - 5 * DAY, end: today - 4 * DAY, fee: '10.123457', commission: '8.25' },
      { start: today - 6 * DAY, end: today - 5 * DAY, fee: '30.5', commission: '8.25' },
      { start: today - 7 * DAY, end: today - 6 * DAY, fee: '3', commission: '0' },
      { start: today - 6 * 3_600_000, end: today, fee: '0.00001', commission: '1' },
    ];
    const cashback = rows.map((row) => {
      const byRate = (scaled(row.fee) * rateBps) / 10_000n;
      const commission = scaled(row.commission);
      return byRate < commission ? byRate : commission;
    });
    const [paidByRate, capped, , pendingEstimate] = cashback as [bigint, bigint, bigint, bigint];
    const credited = paidByRate + capped;
    const rebates = writeCsv('rebates', [
      'uid,period_start,period_end,trading_volume,fee,commission',
      ...rows.map((row) => `${uid},${iso(row.start)},${iso(row.end)},25000.5,${row.fee},${row.commission}`),
    ]);
    const imported = await runOps(['rebates:import', 'Bitget', rebates, '--operator', operator], {
      dataDir,
      appSecret,
    });
    assert.ok(
      imported.includes(
        `4 row(s), 4 new, 0 already imported; settled 3: 2 completed (${printed(credited)} USDT cashback, ` +
          '0.000000 USDT invite bonuses), 1 failed',
      ),
      imported,
    );
    // The same file again credits nothing.
    const again = await runOps(['rebates:import', 'Bitget', rebates, '--operator', operator], {
      dataDir,
      appSecret,
    });
    assert.ok(
      again.includes('4 row(s), 0 new, 4 already imported; settled 0: 0 completed (0.000000 USDT cashback'),
      again,
    );
    assert.match(await runOps(['ledger:check'], { dataDir, appSecret }), /Ledger OK: every invariant holds/);

    // Home: the bound UID shows exactly the cashback the file earned.
    base = await start();
    const member = await newPage({ viewport: 'desktop' });
    await storeToken(member, base, token);
    await member.goto(`${base}/`);
    const row = member.getByRole('link', { name: new RegExp(`Bitget.*${uid}`) });
    await row.waitFor();
    assert.ok((await row.innerText()).replace(/\s+/g, ' ').endsWith(`${shown(credited)} USDT`));
    assert.equal((await stats(member))[text('homeMember.totalRebate')], `${shown(credited)} USDT`);

    // The exchange's page: balance, totals, the chart's figures by trading day and the records.
    await row.click();
    await waitForPath(member, '/exchangeLinkDetail');
    assert.equal(currentUrl(member).searchParams.get('UID'), uid);
    // A term only this page has: the home page's own terms can still be on screen just after the click.
    await member
      .getByRole('term')
      .filter({ hasText: text('cashback.pending') })
      .waitFor();
    assert.deepEqual(await stats(member), {
      [text('cashback.balance')]: `${shown(credited)} USDT`,
      [text('cashback.totalRebate')]: `${shown(credited)} USDT`,
      // Under a cent, shown in full rather than as 0.00.
      [text('cashback.pending')]: `${printed(pendingEstimate).replace(/0+$/, '')} USDT`,
    });
    const chartName = text('cashback.dailyTitle');
    await member.getByRole('region', { name: chartName }).locator('svg').first().waitFor();
    assert.deepEqual(await bodyRows(member, chartName), [
      [iso(rows[1]?.start ?? 0).slice(0, 10), shown(capped)],
      [iso(rows[0]?.start ?? 0).slice(0, 10), shown(paidByRate)],
    ]);

    const records = await bodyRows(member, text('pages.records.title'));
    const dayOf = (time: number) =>
      new Intl.DateTimeFormat('en', { timeZone: 'UTC', dateStyle: 'medium' }).format(new Date(time));
    // Newest period first: exchange, UID, period, fee, amount, status (with the reason of a failure).
    assert.deepEqual(
      records.map((cells) => [cells[0], cells[1], cells[4], cells[5]]),
      [
        ['Bitget', uid, printed(pendingEstimate).replace(/0+$/, ''), 'Under review'],
        ['Bitget', uid, shown(paidByRate), 'Completed'],
        ['Bitget', uid, shown(capped), 'Completed'],
        ['Bitget', uid, '0.00', `${text('cashback.statuses.failed')}${NO_COMMISSION}`],
      ],
    );
    assert.equal(records[1]?.[2], dayOf(rows[0]?.start ?? 0));
    assert.equal(records[1]?.[3], '10.12');
  },
  { timeout: 240_000 },
);
