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
import { openAs } from '../support/open-as.js';
import { type RunningServer, runOps, startServer } from '../support/server.js';
import { type SmtpCapture, startSmtpCapture, waitForCode } from '../support/smtp-capture.js';
import { BITGET, post, RECEIVING_ADDRESS } from '../support/withdrawals.js';

/**
 * Paging through a member's cashback records (issue 14: the pager walks by cursor, "Next" after the
 * shown page's `next`, "Previous" with the cursor remembered, a filter starting over at page 1). A server
 * of its own, whose operator commands run beside it (the server takes them over its ops socket): a
 * member with 50 daily records of one UID, every other one failed for want of commission, each with its
 * own fee so every row reads differently. 20 a page on /mypage/records (3 pages; 2 of completed ones),
 * 10 on the UID's own page.
 */
const en = readMessages('en');
const text = (key: string) => message(en, key);
const DAY = 86_400_000;
const RECORDS = 50;
const iso = (time: number) => new Date(time).toISOString();
const appSecret = randomBytes(24).toString('hex');
let root: string;
let smtp: SmtpCapture;
let server: RunningServer | undefined;
let token: string;
const uid = `66${Date.now().toString().slice(-8)}`;

/** Record i (0 newest): one UTC day, fee i + 1.25, failed (no commission) when i is even. */
interface Expected {
  day: string;
  fee: string;
  status: string;
}
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const dayStart = (index: number) => today - (3 + index) * DAY;
const isFailed = (index: number) => index % 2 === 0;
const dayOf = (time: number) =>
  new Intl.DateTimeFormat('en', { timeZone: 'UTC', dateStyle: 'medium' }).format(new Date(time));
const expected: Expected[] = Array.from({ length: RECORDS }, (_, index) => ({
  day: dayOf(dayStart(index)),
  fee: `${index + 1}.25`,
  status: isFailed(index)
    ? `${text('cashback.statuses.failed')}${translate('en', 'noCommission')}`
    : text('cashback.statuses.completed'),
}));

async function register(base: string, email: string): Promise<string> {
  const sentAt = Date.now();
  assert.equal((await post(base, '/elex/user/verifyCode', { module: 1, email })).state, 0);
  const authcode = await waitForCode(email, sentAt, 20_000, smtp.dir);
  const registered = await post(base, '/elex/user/register', { email, passwd: 'records1!', authcode });
  assert.equal(registered.state, 0, registered.message);
  return String(registered.content?.token);
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-e2e-records-'));
  const dataDir = path.join(root, 'data');
  smtp = await startSmtpCapture();
  server = await startServer({ smtpUrl: smtp.url, dataDir, appSecret });
  const tag = randomBytes(3).toString('hex');
  token = await register(server.url, `records-${tag}@example.com`);
  // The operator is another account: an operator imports no figures crediting their own UID.
  const operator = `records-ops-${tag}@example.com`;
  await register(server.url, operator);
  const ops = (args: string[]) => runOps(args, { dataDir, appSecret });
  await ops(['admin:grant', operator]);
  const write = (name: string, lines: string[]) => {
    const file = path.join(root, `${name}.csv`);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  const roster = write('roster', ['uid,registered_at', `${uid},${iso(today - 200 * DAY)}`]);
  await ops(['referrals:import', BITGET.name, roster, '--operator', operator]);
  const figures = write('rebates', [
    'uid,period_start,period_end,trading_volume,fee,commission',
    ...expected.map(
      (row, index) =>
        `${uid},${iso(dayStart(index))},${iso(dayStart(index) + DAY)},10000,${row.fee},${isFailed(index) ? 0 : 100}`,
    ),
  ]);
  assert.match(
    await ops(['rebates:import', BITGET.name, figures, '--operator', operator]),
    new RegExp(`${RECORDS} new.*settled ${RECORDS}: ${RECORDS / 2} completed .* ${RECORDS / 2} failed`),
  );
  const bound = await post(
    server.url,
    '/elex/user/bindExchangeUid',
    { platId: BITGET.platId, uid, address: RECEIVING_ADDRESS },
    token,
  );
  assert.equal(bound.state, 0, bound.message);
});
after(async () => {
  await server?.stop();
  await smtp?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const base = () => (server as RunningServer).url;

/**
 * The records table's rows as period, fee and status, read in one go (the table re-renders when a
 * page arrives, so rows read one by one could mix two pages); every row is of the member's one UID.
 */
async function tableRows(page: Page): Promise<Expected[]> {
  const table = page.getByRole('table', { name: text('pages.records.title'), exact: true });
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from((tr as HTMLTableRowElement).cells, (cell) => cell.textContent?.trim() ?? ''),
      ),
    );
  return rows.map((cells) => {
    assert.deepEqual(cells.slice(0, 2), [BITGET.name, uid]);
    return { day: cells[2] ?? '', fee: cells[3] ?? '', status: cells[5] ?? '' };
  });
}

/** The position the pager reads out, once it says `position` (the page's rows have arrived with it). */
async function waitForPosition(page: Page, position: string) {
  const pager = page.getByRole('navigation', { name: text('cashback.paging') });
  await pager.getByText(position, { exact: true }).waitFor();
  return pager;
}

const pageOf = (page: number, pages: number) =>
  text('cashback.pageOf').replace('{{page}}', String(page)).replace('{{pages}}', String(pages));

/** Waits until the table shows `rows` (the page before can stay on screen while the next loads). */
async function expectRows(page: Page, rows: Expected[]) {
  let shown: Expected[] = [];
  for (let tries = 0; tries < 50; tries += 1) {
    shown = await tableRows(page);
    if (JSON.stringify(shown) === JSON.stringify(rows)) return;
    await page.waitForTimeout(100);
  }
  assert.deepEqual(shown, rows);
}

test('desktop: the records page walks forward and back by cursor, and a status filter starts over at page 1', async ({
  newPage,
}) => {
  const page = await newPage({ viewport: 'desktop' });
  // The page and `after` each records request carried, in order (the cursor walk the member cannot see).
  const requests: { page: number; after?: string; status?: string }[] = [];
  const answers: { page: number; next: string | null }[] = [];
  page.on('request', (request) => {
    if (!request.url().endsWith('/elex/user/seeRebateData')) return;
    const body = request.postDataJSON() as { page: number; after?: string; status?: string };
    const { after, status } = body;
    requests.push({
      page: body.page,
      ...(after === undefined ? {} : { after }),
      ...(status === undefined ? {} : { status }),
    });
  });
  page.on('response', async (response) => {
    if (!response.url().endsWith('/elex/user/seeRebateData')) return;
    const body = (await response.json()) as { content: { page: number; next: string | null } };
    answers.push({ page: body.content.page, next: body.content.next });
  });
  await openAs(base(), page, { token }, '/mypage/records');

  // Page 1: the 20 newest periods.
  const pager = await waitForPosition(page, pageOf(1, 3));
  await expectRows(page, expected.slice(0, 20));
  assert.equal(await pager.getByRole('button', { name: text('cashback.previous') }).isDisabled(), true);
  await expectNoSeriousA11yViolations(page, '/mypage/records page 1');
  const next = pager.getByRole('button', { name: text('cashback.next'), exact: true });
  const previous = pager.getByRole('button', { name: text('cashback.previous'), exact: true });

  // Next: the 20 after them, none of page 1's, asked for after page 1's `next`.
  await next.click();
  await waitForPosition(page, pageOf(2, 3));
  await expectRows(page, expected.slice(20, 40));
  const pageOneNext = answers.find((answer) => answer.page === 1)?.next;
  assert.ok(pageOneNext, 'page 1 names a cursor for the next');
  assert.deepEqual(requests.at(-1), { page: 2, after: pageOneNext });

  // Next again: the last 10; the last page has no Next.
  await next.click();
  await waitForPosition(page, pageOf(3, 3));
  await expectRows(page, expected.slice(40));
  assert.equal(await next.isDisabled(), true);

  // Previous: page 2 again, the same records (asked again, if at all, with the remembered cursor).
  const sent = requests.length;
  await previous.click();
  await waitForPosition(page, pageOf(2, 3));
  await expectRows(page, expected.slice(20, 40));
  for (const request of requests.slice(sent)) assert.deepEqual(request, { page: 2, after: pageOneNext });

  // Completed only: page 1 of 2, the 20 newest completed records.
  await page.getByLabel(text('cashback.status')).selectOption({
    label: text('cashback.statuses.completed'),
  });
  await waitForPosition(page, pageOf(1, 2));
  const completed = expected.filter((_, index) => !isFailed(index));
  await expectRows(page, completed.slice(0, 20));
  assert.deepEqual(
    requests.at(-1),
    { page: 1, status: 'completed' },
    'another filter starts without a cursor',
  );
  await next.click();
  await waitForPosition(page, pageOf(2, 2));
  await expectRows(page, completed.slice(20));
  await expectNoSeriousA11yViolations(page, '/mypage/records filtered, page 2');
});

test("desktop: the UID's own page walks its records 10 at a time, forward and back", async ({ newPage }) => {
  const page = await newPage({ viewport: 'desktop' });
  await openAs(base(), page, { token }, `/exchangeLinkDetail?platId=${BITGET.platId}&UID=${uid}`);
  const pager = await waitForPosition(page, pageOf(1, 5));
  await expectRows(page, expected.slice(0, 10));
  await pager.getByRole('button', { name: text('cashback.next'), exact: true }).click();
  await waitForPosition(page, pageOf(2, 5));
  await expectRows(page, expected.slice(10, 20));
  await pager.getByRole('button', { name: text('cashback.next'), exact: true }).click();
  await waitForPosition(page, pageOf(3, 5));
  await expectRows(page, expected.slice(20, 30));
  await pager.getByRole('button', { name: text('cashback.previous'), exact: true }).click();
  await waitForPosition(page, pageOf(2, 5));
  await expectRows(page, expected.slice(10, 20));
  await expectNoSeriousA11yViolations(page, '/exchangeLinkDetail page 2');
});

test('390 px: the records list pages forward and back on a phone, within the screen', async ({ newPage }) => {
  const page = await newPage({ viewport: 'mobile' });
  await openAs(base(), page, { token }, '/mypage/records');
  // A phone shows a list, not the table: each entry's period and fee.
  const list = page.getByRole('list', { name: text('pages.records.title'), exact: true });
  const entries = async () => {
    const items = await list.getByRole('listitem').allInnerTexts();
    return items.map((item) => item.split('\n').map((line) => line.trim()));
  };
  const expectEntries = async (rows: Expected[]) => {
    let shown: string[][] = [];
    const matches = () =>
      shown.length === rows.length &&
      shown.every(
        (lines, index) =>
          lines.includes(rows[index]?.day ?? '') &&
          lines.includes(`${text('cashback.fee')} ${rows[index]?.fee ?? ''}`),
      );
    for (let tries = 0; tries < 50 && !matches(); tries += 1) {
      if (tries > 0) await page.waitForTimeout(100);
      shown = await entries();
    }
    assert.ok(
      matches(),
      `the list shows ${JSON.stringify(rows.map((row) => row.fee))}: ${JSON.stringify(shown)}`,
    );
  };
  const pager = await waitForPosition(page, pageOf(1, 3));
  await expectEntries(expected.slice(0, 20));
  await pager.getByRole('button', { name: text('cashback.next'), exact: true }).click();
  await waitForPosition(page, pageOf(2, 3));
  await expectEntries(expected.slice(20, 40));
  await pager.getByRole('button', { name: text('cashback.previous'), exact: true }).click();
  await waitForPosition(page, pageOf(1, 3));
  await expectEntries(expected.slice(0, 20));
  await pager.getByRole('button', { name: text('cashback.next'), exact: true }).click();
  await waitForPosition(page, pageOf(2, 3));
  await expectEntries(expected.slice(20, 40));
  await page.getByLabel(text('cashback.status')).selectOption({
    label: text('cashback.statuses.failed'),
  });
  await waitForPosition(page, pageOf(1, 2));
  await expectEntries(expected.filter((_, index) => isFailed(index)).slice(0, 20));
  // The pager and the list stay within the phone's width.
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
  await expectNoSeriousA11yViolations(page, '/mypage/records on a phone');
});
