import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { selectRebateList } from '../../read-models/rebate-list.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { estimateSql } from './estimate-sql.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { loadPartners } from './partners.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from './test-support.js';

/**
 * seeRebateData's statements are rendered once per shape (issue 14): building drizzle's SQL and
 * rendering it to text was about a tenth of the app's CPU per call of the list, for a text that only
 * the status and the side a page is read from change. A call with other values (another page, period,
 * UID, cursor) renders nothing, and still answers its own records.
 */
let ctx: CashbackTestContext;
let userId: number;
const uid = nextUid('R');
const START = Date.parse('2026-03-01T00:00:00Z');

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date(START - 10 * DAY_MS));
  const email = nextEmail('rendered');
  const token = await signUp(ctx, email);
  await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(START - 100 * DAY_MS) }], {
    kind: 'api',
    label: 'test',
  });
  const bound = await call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: BITGET, uid, address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    { token },
  );
  expect((await bound.json()).state).toBe(0);
  ctx.clock.set(new Date(START + 12 * DAY_MS));
  const rows = Array.from({ length: 10 }, (_, n) =>
    figures(uid, new Date(START + n * DAY_MS), { fee: String(1 + n), commission: '100' }),
  );
  await ingestRebates(ctx.deps, BITGET, rows, { kind: 'api', label: 'test' });
  const found = rowsOf<{ id: number }>(
    await ctx.db.execute(sql`select id from users where email = ${email}`),
  );
  userId = Number(found[0]?.id);
});
afterAll(() => ctx.close());

/** The page's records (PostgreSQL writes them as the answer's JSON array). */
const rowsOfPage = (page: { recordsJson: string }) =>
  JSON.parse(page.recordsJson) as Array<{ id: string; periodEnd: string }>;

it('renders the list statements once, and answers each call with its own values', async () => {
  const estimate = estimateSql(await loadPartners(ctx.deps));
  const filter = (from: string | undefined) => ({
    userId,
    platId: BITGET,
    uid,
    status: undefined,
    endFrom: from ? new Date(from) : undefined,
    endBefore: undefined,
  });
  // The shapes once: page 1 (with the counts), a later page from the newest side, a deep page (oldest
  // side), a walk by cursor (with the counts).
  const first = await selectRebateList(ctx.db, filter(undefined), { offset: 0, limit: 4 }, estimate);
  await selectRebateList(ctx.db, filter(undefined), { offset: 4, limit: 4 }, estimate);
  await selectRebateList(ctx.db, filter(undefined), { offset: 8, limit: 4 }, estimate);
  if (first === 'cursorNotSeen') throw new Error('no cursor was given');
  await selectRebateList(
    ctx.db,
    filter(undefined),
    { after: Number(rowsOfPage(first)[3]?.id), limit: 4 },
    estimate,
  );

  const rendered = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
  try {
    const period = await selectRebateList(
      ctx.db,
      filter('2026-03-05T00:00:00Z'),
      { offset: 2, limit: 2 },
      estimateSql(await loadPartners(ctx.deps)),
    );
    const deep = await selectRebateList(ctx.db, filter(undefined), { offset: 7, limit: 4 }, estimate);
    const walked = await selectRebateList(
      ctx.db,
      filter(undefined),
      { after: Number(rowsOfPage(first)[1]?.id), limit: 3 },
      estimate,
    );
    expect(rendered).not.toHaveBeenCalled();
    // Periods end a day after they start: from 03-05 on, the periods of 03-04 to 03-10 (7 records).
    expect(period).toMatchObject({ total: 7 });
    if (period === 'cursorNotSeen' || deep === 'cursorNotSeen' || walked === 'cursorNotSeen')
      throw new Error('no cursor was refused');
    expect(rowsOfPage(period).map((row) => row.periodEnd)).toEqual([
      '2026-03-09T00:00:00.000Z',
      '2026-03-08T00:00:00.000Z',
    ]);
    expect(rowsOfPage(deep).map((row) => row.periodEnd)).toEqual([
      '2026-03-04T00:00:00.000Z',
      '2026-03-03T00:00:00.000Z',
      '2026-03-02T00:00:00.000Z',
    ]);
    expect(rowsOfPage(walked).map((row) => row.periodEnd)).toEqual([
      '2026-03-09T00:00:00.000Z',
      '2026-03-08T00:00:00.000Z',
      '2026-03-07T00:00:00.000Z',
    ]);
  } finally {
    rendered.mockRestore();
  }
});

it('reads page 1 and a page after a cursor in one statement each, the UIDs and their counts included', async () => {
  const estimate = estimateSql(await loadPartners(ctx.deps));
  const filter = {
    userId,
    platId: undefined,
    uid: undefined,
    status: undefined,
    endFrom: undefined,
    endBefore: undefined,
  };
  const client = (ctx.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const original = client.query;
  let statements = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    return original.apply(this, args);
  };
  const sent = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
    statements = 0;
    const result = await run();
    return [result, statements];
  };
  try {
    const [first, firstSent] = await sent(() =>
      selectRebateList(ctx.db, filter, { offset: 0, limit: 4 }, estimate),
    );
    if (first === 'cursorNotSeen') throw new Error('no cursor was given');
    // The statement reads a fifth record to tell that one follows (more), and answers four.
    expect([first.total, first.records, first.more, firstSent]).toEqual([10, 4, true, 1]);
    const after = Number(rowsOfPage(first)[3]?.id);
    const [next, nextSent] = await sent(() =>
      selectRebateList(ctx.db, filter, { after, limit: 4 }, estimate),
    );
    if (next === 'cursorNotSeen') throw new Error('the cursor was refused');
    expect([next.total, next.records, next.more, nextSent]).toEqual([10, 4, true, 1]);
    // The last two records after the eighth: the page that ends the list says so in the same statement.
    const [tail, tailSent] = await sent(() =>
      selectRebateList(ctx.db, filter, { after: Number(rowsOfPage(next).at(-1)?.id), limit: 2 }, estimate),
    );
    if (tail === 'cursorNotSeen') throw new Error('the cursor was refused');
    expect([tail.records, tail.more, tailSent]).toEqual([2, false, 1]);
    // The end of the walk: no record after the oldest, and the cursor is seen (not refused).
    const oldest =
      Number(rowsOfPage(next).at(-1)?.id) &&
      (await selectRebateList(ctx.db, filter, { offset: 9, limit: 1 }, estimate));
    if (oldest === 'cursorNotSeen' || !oldest) throw new Error('no oldest page');
    const last = Number(rowsOfPage(oldest)[0]?.id);
    const [end, endSent] = await sent(() =>
      selectRebateList(ctx.db, filter, { after: last, limit: 4 }, estimate),
    );
    expect([end, endSent]).toEqual([
      { recordsJson: '[]', records: 0, lastId: null, more: false, total: 10 },
      1,
    ]);
    // A record the member does not see is refused in that one statement too.
    const [refused, refusedSent] = await sent(() =>
      selectRebateList(ctx.db, { ...filter, userId: userId + 100_000 }, { after: last, limit: 4 }, estimate),
    );
    expect([refused, refusedSent]).toEqual(['cursorNotSeen', 1]);
  } finally {
    client.query = original;
  }
});
