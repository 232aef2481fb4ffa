import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { searchMemberRows } from '../../read-models/console-reports.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  createMember,
  DAY_MS,
} from '../cashback/test-support.js';

/**
 * The console's member search (read-models/console-reports.ts): each way of matching (part of the
 * e-mail, a user or invite code, a UID ever bound) finds the member once, newest first, counted as
 * listed, with or without the suspended filter.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const search = (text: string, options: { suspendedOnly?: boolean; page?: number; pageSize?: number } = {}) =>
  searchMemberRows(ctx.db, {
    text,
    suspendedOnly: options.suspendedOnly ?? false,
    page: options.page ?? 1,
    pageSize: options.pageSize ?? 20,
  });
const emails = (found: Awaited<ReturnType<typeof search>>) => found.rows.map((row) => row.user.email);

async function memberOn(day: number, email: string) {
  ctx.clock.set(new Date(Date.parse('2026-05-01T00:00:00Z') + day * DAY_MS));
  const member = await createMember(ctx, { email });
  const [row] = rowsOf<{ user_code: string; invite_code: string }>(
    await ctx.db.execute(sql`select user_code, invite_code from users where id = ${member.id}`),
  );
  return { ...member, userCode: row?.user_code ?? '', inviteCode: row?.invite_code ?? '' };
}

async function bind(userId: number, uid: string, unboundAt: Date | null = null) {
  await ctx.db.execute(sql`
    insert into exchange_bindings (user_id, plat_id, uid, address, bound_at, unbound_at)
    values (${userId}, ${BITGET}, ${uid}, ${ADDRESS}, ${ctx.clock.now()}, ${unboundAt})`);
}

describe('member search', () => {
  it('finds members by any part of the e-mail, whatever its case, newest first and counted', async () => {
    const first = await memberOn(1, 'alpha.whale-7@search.test');
    const second = await memberOn(2, 'beta.whale-7@search.test');
    const third = await memberOn(3, 'gamma.shrimp@search.test');

    const whales = await search('WHALE-7@SEARCH');
    expect(emails(whales)).toEqual([second.email, first.email]);
    expect(whales.total).toBe(2);
    // The middle of a name and the end of the domain.
    expect(emails(await search('ta.wha'))).toEqual([second.email]);
    expect(emails(await search('search.test'))).toEqual([third.email, second.email, first.email]);
    // Paging keeps the order and the count.
    const pageTwo = await search('search.test', { page: 2, pageSize: 2 });
    expect(emails(pageTwo)).toEqual([first.email]);
    expect(pageTwo.total).toBe(3);
    // LIKE's wildcards match themselves.
    expect((await search('alpha%whale')).total).toBe(0);
    expect((await search('alpha_whale')).total).toBe(0);
  });

  it('finds a member by user code, invite code or a UID they ever bound, once each', async () => {
    const holder = await memberOn(4, 'delta.codes@search.test');
    const earlier = await memberOn(5, 'epsilon.codes@search.test');
    expect(emails(await search(holder.userCode.toLowerCase()))).toEqual([holder.email]);
    expect(emails(await search(holder.inviteCode))).toEqual([holder.email]);

    // The UID passed from one member to the other: both ever bound it.
    await bind(earlier.id, 'SEARCHUID01', ctx.clock.now());
    await bind(holder.id, 'SEARCHUID01');
    const byUid = await search('SEARCHUID01');
    expect(emails(byUid)).toEqual([earlier.email, holder.email]);
    expect(byUid.rows.map((row) => row.liveBindings)).toEqual([0, 1]);

    // A text matching the same member two ways lists the member once.
    const both = await memberOn(6, 'searchuid02@search.test');
    await bind(both.id, 'SEARCHUID02');
    const twice = await search('SEARCHUID02');
    expect(emails(twice)).toEqual([both.email]);
    expect(twice.total).toBe(1);
  });

  it('narrows to the suspended members, with and without text', async () => {
    const quiet = await memberOn(7, 'zeta.suspended@search.test');
    await memberOn(8, 'eta.active@search.test');
    await ctx.db.execute(sql`
      update users set suspended_at = ${ctx.clock.now()}, suspension_reason = 'test' where id = ${quiet.id}`);

    expect(emails(await search('suspended', { suspendedOnly: true }))).toEqual([quiet.email]);
    expect(emails(await search('active', { suspendedOnly: true }))).toEqual([]);
    const everySuspended = await search('', { suspendedOnly: true });
    expect(emails(everySuspended)).toEqual([quiet.email]);
    expect(everySuspended.total).toBe(1);
    // No text: every member, newest first.
    expect((await search('')).rows[0]?.user.email).toBe('eta.active@search.test');
  });
});
