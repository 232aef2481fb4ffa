import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { currentUrl, waitForPath } from '../support/app.js';
import { test } from '../support/fixtures.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture, waitForCode } from '../support/smtp-capture.js';

/**
 * The cashback journey of issue 5 on a server of its own, because the operator commands need the
 * embedded database to themselves: register, bind a referred UID, import rebates through the command,
 * then see the balance, the daily chart and the records.
 */
const DAY = 86_400_000;
const iso = (time: number) => new Date(time).toISOString();
const appSecret = randomBytes(24).toString('hex');
let dataDir: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;

before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-cashback-'));
  smtp = await startSmtpCapture();
});
after(async () => {
  await server?.stop();
  await smtp.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
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

function writeCsv(name: string, lines: string[]): string {
  const file = path.join(dataDir, '..', `${path.basename(dataDir)}-${name}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test(
  'a member binds a referred UID, rebates arrive by CSV command, and the balance, chart and records show them',
  async ({ newPage }) => {
    const email = `cashback-${randomBytes(3).toString('hex')}@example.com`;
    const uid = `77${Date.now().toString().slice(-8)}`;
    const now = Date.now();

    // The server seeds the partner catalog on its first start; register over the API with the mailed code.
    let base = await start();
    const sentAt = Date.now();
    assert.equal((await post(base, '/elex/user/verifyCode', { module: 1, email })).state, 0);
    const authcode = await waitForCode(email, sentAt, 20_000, smtp.dir);
    const registered = await post(base, '/elex/user/register', { email, passwd: 'cashback1!', authcode });
    assert.equal(registered.state, 0, registered.message);
    const token = String(registered.content?.token);
    await stop();

    // The operator imports the referral roster: this UID registered with our code 60 days ago.
    const referrals = writeCsv('referrals', ['uid,registered_at', `${uid},${iso(now - 60 * DAY)}`]);
    assert.match(await runOps(['referrals:import', 'Bitget', referrals], { dataDir, appSecret }), /1/);

    // The member binds it in the browser.
    base = await start();
    const page = await newPage({ viewport: 'desktop' });
    await page.goto(`${base}/`);
    await page.evaluate((value) => window.localStorage.setItem('token', value), token);
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

    // Three days of rebates arrive by the operator's command (old enough to settle at once).
    const rows = [0, 1, 2].map((offset) => {
      const dayStart =
        Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()) -
        (5 + offset) * DAY;
      return `${uid},${iso(dayStart)},${iso(dayStart + DAY)},25000.5,${10 + offset}.5,${8 + offset}.25`;
    });
    const rebates = writeCsv('rebates', [
      'uid,period_start,period_end,trading_volume,fee,commission',
      ...rows,
    ]);
    await runOps(['rebates:import', 'Bitget', rebates], { dataDir, appSecret });
    await runOps(['ledger:check'], { dataDir, appSecret });

    // The member sees the balance at home, the chart and the records on the exchange's page.
    base = await start();
    const member = await newPage({ viewport: 'desktop' });
    await member.goto(`${base}/`);
    await member.evaluate((value) => window.localStorage.setItem('token', value), token);
    await member.goto(`${base}/`);
    const row = member.getByRole('link', { name: new RegExp(`Bitget.*${uid}`) });
    await row.waitFor();
    const rowText = await row.innerText();
    assert.doesNotMatch(rowText, /\b0\.00\b/, 'the bound UID shows a balance once rebates settled');
    await row.click();
    await waitForPath(member, '/exchangeLinkDetail');
    assert.equal(currentUrl(member).searchParams.get('UID'), uid);
    const chart = member.getByRole('region', { name: 'Cashback per day' });
    await chart.locator('svg').first().waitFor();
    assert.equal(await chart.getByText('No cashback records yet.').count(), 0);
    const table = member.getByRole('table', { name: 'Cashback records' });
    await table.waitFor();
    assert.equal(await table.getByRole('row').count(), 1 + rows.length);
    assert.equal(await table.getByText('Completed', { exact: true }).count(), rows.length);
  },
  { timeout: 180_000 },
);
