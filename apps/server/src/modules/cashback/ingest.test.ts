import { maskUid } from '@elex/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../auth/auth.tables.js';
import { bindExchangeUid } from '../bindings/bindings.service.js';
import { cashbackStatistics } from '../exchanges/cashback-statistics.js';
import { refreshStatistics, STATISTICS_TTL_MS } from '../exchanges/statistics-cache.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { rowsOf } from './cashback.repository.js';
import { eventRewards, rebates } from './cashback.tables.js';
import {
  IngestRejectedError,
  ingestRebates,
  ingestReferrals,
  resolvePlatId,
  settleRebates,
} from './ingest.service.js';
import {
  BINANCE,
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  createMember,
  DAY_MS,
  figures,
  nextUid,
  usdt,
} from './test-support.js';

let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const HOUR_MS = 60 * 60 * 1000;
const api = { kind: 'api', label: 'test' } as const;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A UID in the Bitget roster, registered long before the periods tested (basic rate 50 %). */
async function referredUid(
  platId = BITGET,
  registeredAt = new Date(ctx.clock.now().getTime() - 400 * DAY_MS),
) {
  const uid = nextUid();
  await ingestReferrals(ctx.deps, platId, [{ uid, registeredAt }], api);
  return uid;
}

const cashback = (uid: string, platId = BITGET) => balanceOf(ctx.db, accountCode.cashback(platId, uid));

async function recordsOf(uid: string) {
  return ctx.db.select().from(rebates).where(eq(rebates.uid, uid)).orderBy(rebates.periodStart);
}

async function rejection(run: () => Promise<unknown>): Promise<IngestRejectedError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IngestRejectedError);
  return error as IngestRejectedError;
}

describe('ingestRebates', () => {
  it('credits a period once however often it is imported', async () => {
    ctx.clock.set(new Date('2026-06-10T12:00:00Z'));
    const uid = await referredUid();
    const start = Date.parse('2026-06-01T00:00:00Z');
    const rows = [10, 20, 30].map((fee, day) =>
      figures(uid, new Date(start + day * DAY_MS), { fee: String(fee), commission: '100' }),
    );
    expect(await ingestRebates(ctx.deps, BITGET, rows, api)).toMatchObject({
      inserted: 3,
      duplicates: 0,
      settled: 3,
    });
    expect(await cashback(uid)).toBe(usdt('30'));
    expect(
      await ingestRebates(ctx.deps, BITGET, [...rows, rows[0], rows[1]] as typeof rows, api),
    ).toMatchObject({
      inserted: 0,
      duplicates: 5,
      settled: 0,
    });
    expect(await cashback(uid)).toBe(usdt('30'));
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it("books a UID's records of one settlement as one journal carrying their sum, each record floored alone", async () => {
    ctx.clock.set(new Date('2026-06-10T12:00:00Z'));
    const [uid, other] = [await referredUid(), await referredUid()];
    const start = Date.parse('2026-06-01T00:00:00Z');
    // Floored per record (4.999999 + 0.000001 + 10 = 15): 50 % of the fees' sum would be 15.000001.
    const fees = ['9.999999', '0.000003', '20'];
    const rows = fees.map((fee, day) =>
      figures(uid, new Date(start + day * DAY_MS), { fee, commission: '100' }),
    );
    rows.push(figures(other, new Date(start), { fee: '4', commission: '100' }));
    await ingestRebates(ctx.deps, BITGET, rows, api);

    const records = await recordsOf(uid);
    expect(records.map((record) => record.amountMicro)).toEqual([4_999_999n, 1n, 10_000_000n]);
    expect(await cashback(uid)).toBe(15_000_000n);
    expect(new Set(records.map((record) => record.journalId)).size).toBe(1);
    const journals = rowsOf<{ key: string; memo: string; uid: string; amount: string }>(
      await ctx.db.execute(sql`
        select j.idempotency_key as key, j.memo, a.uid, l.amount::text as amount
        from ledger_journals j join ledger_lines l on l.journal_id = j.id
        join ledger_accounts a on a.id = l.account_id
        where j.id in (select journal_id from rebates where uid in (${uid}, ${other})) and a.kind = 'cashback'
        order by a.uid`),
    );
    expect(journals).toEqual([
      { key: `rebate:${records[0]?.id}`, memo: '3 records', uid, amount: '15000000' },
      { key: expect.stringMatching(/^rebate:\d+$/), memo: '1 record', uid: other, amount: '2000000' },
    ]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('keeps the first figures of a period reported again with other figures', async () => {
    ctx.clock.set(new Date('2026-06-10T12:00:00Z'));
    const uid = await referredUid();
    const start = new Date('2026-06-02T00:00:00Z');
    await ingestRebates(ctx.deps, BITGET, [figures(uid, start, { fee: '10', commission: '100' })], api);
    const again = await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, start, { fee: '99', commission: '100' })],
      api,
    );
    expect(again).toMatchObject({ inserted: 0, duplicates: 1 });
    expect(await cashback(uid)).toBe(usdt('5'));
  });

  it('waits SETTLEMENT_DELAY_HOURS after the period ends, then settles with the clock', async () => {
    const end = Date.parse('2026-06-20T00:00:00Z');
    ctx.clock.set(new Date(end + 24 * HOUR_MS - 1));
    const uid = await referredUid();
    const result = await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, new Date(end - DAY_MS), { fee: '8', commission: '100' })],
      api,
    );
    expect(result).toMatchObject({ inserted: 1, settled: 0 });
    expect((await recordsOf(uid))[0]?.status).toBe('pending');

    ctx.clock.set(new Date(end + 24 * HOUR_MS));
    const settled = await settleRebates(ctx.deps, { platId: BITGET });
    expect(settled.completed).toBeGreaterThanOrEqual(1);
    const [record] = await recordsOf(uid);
    expect(record).toMatchObject({
      status: 'completed',
      amountMicro: usdt('4'),
      cashRateBps: 5000,
      isSpeedUp: false,
    });
    expect(record?.settledAt?.getTime()).toBe(end + 24 * HOUR_MS);
    expect(await cashback(uid)).toBe(usdt('4'));
  });

  it('leaves a UID outside the roster pending for 7 days, then fails it as not referred', async () => {
    const end = Date.parse('2026-07-01T00:00:00Z');
    ctx.clock.set(new Date(end + 2 * DAY_MS));
    const uid = nextUid();
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, new Date(end - DAY_MS), { fee: '8', commission: '9' })],
      api,
    );
    ctx.clock.set(new Date(end + 7 * DAY_MS - 1));
    await settleRebates(ctx.deps, { platId: BITGET });
    expect((await recordsOf(uid))[0]?.status).toBe('pending');
    ctx.clock.set(new Date(end + 7 * DAY_MS));
    await settleRebates(ctx.deps, { platId: BITGET });
    expect((await recordsOf(uid))[0]).toMatchObject({ status: 'failed', failureReason: 'uidNotReferred' });
    expect(await cashback(uid)).toBe(0n);
  });

  it('settles a waiting record as soon as its UID joins the roster', async () => {
    const end = Date.parse('2026-07-10T00:00:00Z');
    ctx.clock.set(new Date(end + 3 * DAY_MS));
    const uid = nextUid();
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, new Date(end - DAY_MS), { fee: '8', commission: '9' })],
      api,
    );
    const joined = await ingestReferrals(
      ctx.deps,
      BITGET,
      [{ uid, registeredAt: new Date(end - 300 * DAY_MS) }],
      api,
    );
    expect(joined).toMatchObject({ inserted: 1, alreadyKnown: 0 });
    expect(joined.settlement.completed).toBeGreaterThanOrEqual(1);
    expect(await cashback(uid)).toBe(usdt('4'));
    const again = await ingestReferrals(
      ctx.deps,
      BITGET,
      [{ uid, registeredAt: new Date(end - DAY_MS) }],
      api,
    );
    expect(again).toMatchObject({ inserted: 0, alreadyKnown: 1 });
  });

  it("fails a record the exchange paid no commission for ('noCommission')", async () => {
    ctx.clock.set(new Date('2026-07-20T00:00:00Z'));
    const uid = await referredUid();
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, new Date('2026-07-01T00:00:00Z'), { fee: '8', commission: '0' })],
      api,
    );
    expect((await recordsOf(uid))[0]).toMatchObject({ status: 'failed', failureReason: 'noCommission' });
    expect(await cashback(uid)).toBe(0n);
  });

  it('caps the cashback by the commission and floors it to the micro-USDT', async () => {
    ctx.clock.set(new Date('2026-07-20T00:00:00Z'));
    const uid = await referredUid(BINANCE);
    await ingestRebates(
      ctx.deps,
      BINANCE,
      [
        figures(uid, new Date('2026-07-01T00:00:00Z'), { fee: '10', commission: '2' }),
        figures(uid, new Date('2026-07-02T00:00:00Z'), { fee: '0.000007', commission: '1' }),
      ],
      api,
    );
    const records = await recordsOf(uid);
    // Binance basic rate 30 %: 10 x 30 % = 3, capped at 2; 0.000007 x 30 % = 0.0000021 -> 0.000002
    expect(records.map((record) => record.amountMicro)).toEqual([usdt('2'), 2n]);
    expect(await cashback(uid, BINANCE)).toBe(usdt('2') + 2n);
  });

  it('pays the speed-up rate for periods starting within 3 weeks of registration', async () => {
    ctx.clock.set(new Date('2026-09-01T00:00:00Z'));
    const registeredAt = new Date('2026-08-01T09:30:00Z');
    const uid = await referredUid(BITGET, registeredAt);
    const windowEnd = registeredAt.getTime() + 21 * DAY_MS;
    await ingestRebates(
      ctx.deps,
      BITGET,
      [
        figures(uid, new Date(windowEnd - HOUR_MS), { fee: '10', commission: '100' }, 1),
        figures(uid, new Date(windowEnd), { fee: '10', commission: '100' }, 1),
      ],
      api,
    );
    const records = await recordsOf(uid);
    expect(records.map((record) => [record.amountMicro, record.cashRateBps, record.isSpeedUp])).toEqual([
      [usdt('6'), 6000, true],
      [usdt('5'), 5000, false],
    ]);
  });

  it('refuses periods older than 5 years and imports nothing of the batch', async () => {
    const now = new Date('2026-09-01T00:00:00Z');
    ctx.clock.set(now);
    const uid = await referredUid();
    const fiveYears = new Date('2021-09-01T00:00:00Z');
    const error = await rejection(() =>
      ingestRebates(
        ctx.deps,
        BITGET,
        [
          figures(uid, fiveYears, { fee: '1', commission: '1' }),
          figures(uid, new Date(fiveYears.getTime() - 1), { fee: '1', commission: '1' }, 1),
        ],
        api,
      ),
    );
    expect(error.problems).toEqual([
      { index: 1, field: 'period_start', reason: 'more than 5 years ago: refused', key: 'importTooOld' },
    ]);
    expect(await recordsOf(uid)).toHaveLength(0);
    expect(
      await ingestRebates(ctx.deps, BITGET, [figures(uid, fiveYears, { fee: '1', commission: '1' })], api),
    ).toMatchObject({
      inserted: 1,
    });
  });

  it('lists every bad row of a batch and imports none of it', async () => {
    ctx.clock.set(new Date('2026-09-01T00:00:00Z'));
    const good = figures('GOOD0001', new Date('2026-08-01T00:00:00Z'), { fee: '1', commission: '1' });
    const error = await rejection(() =>
      ingestRebates(
        ctx.deps,
        BITGET,
        [
          good,
          { ...good, uid: 'x!' },
          { ...good, feeMicro: -1n },
          { ...good, periodEnd: good.periodStart },
          { ...good, periodEnd: new Date('2026-09-01T00:00:01Z') },
        ],
        api,
      ),
    );
    expect(error.problems.map((problem) => [problem.index, problem.field])).toEqual([
      [1, 'uid'],
      [2, 'fee'],
      [3, 'period_end'],
      [4, 'period_end'],
    ]);
    expect(await recordsOf('GOOD0001')).toHaveLength(0);
  });

  it('refuses a period overlapping another period of the same UID, in the batch or stored', async () => {
    ctx.clock.set(new Date('2026-09-01T00:00:00Z'));
    const uid = await referredUid();
    const day = new Date('2026-08-10T00:00:00Z');
    const shifted = new Date(day.getTime() + 12 * HOUR_MS);
    const inBatch = await rejection(() =>
      ingestRebates(
        ctx.deps,
        BITGET,
        [
          figures(uid, day, { fee: '1', commission: '1' }),
          figures(uid, shifted, { fee: '1', commission: '1' }),
        ],
        api,
      ),
    );
    expect(inBatch.problems).toMatchObject([{ index: 1, field: 'period_start' }]);
    await ingestRebates(ctx.deps, BITGET, [figures(uid, day, { fee: '1', commission: '1' })], api);
    const stored = await rejection(() =>
      ingestRebates(ctx.deps, BITGET, [figures(uid, shifted, { fee: '1', commission: '1' })], api),
    );
    expect(stored.problems[0]?.reason).toMatch(/overlaps the imported period/);
    expect(await recordsOf(uid)).toHaveLength(1);
  });
});

/** A friend of each inviter, each holding a referred UID of Bitget. */
async function friendsHoldingUids(inviterIds: readonly number[]) {
  const friends: Array<{ id: number }> = [];
  const uids: string[] = [];
  for (const inviterId of inviterIds) {
    const friend = await createMember(ctx, { inviterId });
    const uid = await referredUid();
    await bindExchangeUid(ctx.deps, friend.id, { platId: BITGET, uid, address: ADDRESS });
    friends.push(friend);
    uids.push(uid);
  }
  return { friends, uids };
}

describe('the invite bonus', () => {
  it('pays the inviter 10 % of the cashback of the UID their friend holds, once', async () => {
    ctx.clock.set(new Date('2026-10-01T00:00:00Z'));
    const inviter = await createMember(ctx);
    const friend = await createMember(ctx, { inviterId: inviter.id });
    const uid = await referredUid();
    await bindExchangeUid(ctx.deps, friend.id, { platId: BITGET, uid, address: ADDRESS });
    const rows = [figures(uid, new Date('2026-09-20T00:00:00Z'), { fee: '9.999999', commission: '100' })];
    await ingestRebates(ctx.deps, BITGET, rows, api);
    await ingestRebates(ctx.deps, BITGET, rows, api);
    await settleRebates(ctx.deps);
    // 9.999999 x 50 % = 4.9999995 -> 4.999999; bonus 10 % -> 0.4999999 -> 0.499999
    expect(await cashback(uid)).toBe(4_999_999n);
    expect(await balanceOf(ctx.db, accountCode.rewards(inviter.id))).toBe(499_999n);
    const rewards = await ctx.db.select().from(eventRewards).where(eq(eventRewards.userId, inviter.id));
    expect(rewards).toMatchObject([
      { kind: 'inviteBonus', amountMicro: 499_999n, sourceUserId: friend.id, bonusPercent: 10 },
    ]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it("pays an inviter one journal per settlement for their friends' records, each record's bonus floored", async () => {
    ctx.clock.set(new Date('2026-10-01T00:00:00Z'));
    const inviter = await createMember(ctx);
    const { friends, uids } = await friendsHoldingUids([inviter.id, inviter.id]);
    const start = Date.parse('2026-09-10T00:00:00Z');
    // Each record pays 4.999999; its bonus 0.4999999 floors to 0.499999. Four records: 1.999996, where
    // 10 % of their sum (19.999996) would be 1.9999996 -> 1.999999.
    const rows = uids.flatMap((uid) =>
      [0, 1].map((day) =>
        figures(uid, new Date(start + day * DAY_MS), { fee: '9.999999', commission: '100' }),
      ),
    );
    await ingestRebates(ctx.deps, BITGET, rows, api);

    expect(await balanceOf(ctx.db, accountCode.rewards(inviter.id))).toBe(1_999_996n);
    const rewards = await ctx.db
      .select()
      .from(eventRewards)
      .where(eq(eventRewards.userId, inviter.id))
      .orderBy(eventRewards.rebateId);
    expect(rewards.map((reward) => [reward.sourceUserId, reward.amountMicro])).toEqual([
      [friends[0]?.id, 499_999n],
      [friends[0]?.id, 499_999n],
      [friends[1]?.id, 499_999n],
      [friends[1]?.id, 499_999n],
    ]);
    expect(new Set(rewards.map((reward) => reward.journalKey))).toEqual(
      new Set([`inviteBonus:${rewards[0]?.rebateId}`]),
    );
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('pays nothing to an inviter whose account is gone, and still pays the others of the page', async () => {
    ctx.clock.set(new Date('2026-10-01T00:00:00Z'));
    const [gone, kept] = [await createMember(ctx), await createMember(ctx)];
    const { uids } = await friendsHoldingUids([gone.id, kept.id]);
    await ctx.db.update(users).set({ deletedAt: ctx.clock.now() }).where(eq(users.id, gone.id));
    const start = new Date('2026-09-12T00:00:00Z');
    await ingestRebates(
      ctx.deps,
      BITGET,
      uids.map((uid) => figures(uid, start, { fee: '10', commission: '100' })),
      api,
    );
    expect(await balanceOf(ctx.db, accountCode.rewards(gone.id))).toBe(0n);
    expect(await balanceOf(ctx.db, accountCode.rewards(kept.id))).toBe(500_000n);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('pays nothing for an unbound UID or a member nobody invited', async () => {
    ctx.clock.set(new Date('2026-10-01T00:00:00Z'));
    const loner = await createMember(ctx);
    const bound = await referredUid();
    await bindExchangeUid(ctx.deps, loner.id, { platId: BITGET, uid: bound, address: ADDRESS });
    const unbound = await referredUid();
    const start = new Date('2026-09-21T00:00:00Z');
    await ingestRebates(
      ctx.deps,
      BITGET,
      [
        figures(bound, start, { fee: '10', commission: '100' }),
        figures(unbound, start, { fee: '10', commission: '100' }),
      ],
      api,
    );
    const [row] = rowsOf<{ count: string }>(
      await ctx.db.execute(sql`select count(*) from event_rewards e join rebates r on r.id = e.rebate_id
        where r.uid in (${bound}, ${unbound})`),
    );
    expect(Number(row?.count)).toBe(0);
    expect(await cashback(unbound)).toBe(usdt('5'));
  });
});

describe('resolvePlatId', () => {
  it('finds an exchange by id, name or abbreviation in any letter case', async () => {
    expect(await resolvePlatId(ctx.deps, '4')).toBe(BITGET);
    expect(await resolvePlatId(ctx.deps, 'bitget')).toBe(BITGET);
    expect(await resolvePlatId(ctx.deps, ' BG ')).toBe(BITGET);
    expect(await resolvePlatId(ctx.deps, 'Binance')).toBe(BINANCE);
    expect(await resolvePlatId(ctx.deps, '99')).toBeUndefined();
    expect(await resolvePlatId(ctx.deps, 'nope')).toBeUndefined();
  });
});

describe('public statistics from the ledger', () => {
  it('ranks UIDs by their 30-day cashback and averages it per exchange; others show none', async () => {
    const now = new Date();
    ctx.clock.set(now);
    const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 5 * DAY_MS;
    const [big, small] = [await referredUid(BINANCE), await referredUid(BINANCE)];
    await ingestRebates(
      ctx.deps,
      BINANCE,
      [
        figures(big as string, new Date(start), { fee: '30000', commission: '100000' }),
        figures(small as string, new Date(start), { fee: '10', commission: '100' }),
      ],
      api,
    );
    const statistics = await cashbackStatistics(ctx.db, [BINANCE, BITGET, 9], now);
    const ranking = statistics.ranking.get(BINANCE) ?? [];
    expect(ranking.slice(0, 2)).toEqual([
      { uid: big, amountMicro: usdt('9000') },
      { uid: small, amountMicro: usdt('3') },
    ]);
    const total = ranking.reduce((sum, entry) => sum + entry.amountMicro, 0n);
    expect(statistics.personAvgMicro.get(BINANCE)).toBe(total / BigInt(ranking.length));
    expect(statistics.fames[0]).toEqual({ platId: BINANCE, amountMicro: usdt('9000') });
    // KuCoin (9) has no cashback in the window: no average, no ranking, nothing invented.
    expect(statistics.personAvgMicro.get(9)).toBe(0n);
    expect(statistics.ranking.get(9)).toEqual([]);
    expect(statistics.fames.every((fame) => fame.platId !== 9)).toBe(true);

    // The public pages serve the last figures and refresh them in the background: after the refresh
    // the detail page ranks the new cashback.
    await ctx.app.inject({ method: 'POST', url: '/elex/exchange/detail', payload: { platId: BINANCE } });
    await refreshStatistics(ctx.db, now);
    const detail = (
      await ctx.app.inject({ method: 'POST', url: '/elex/exchange/detail', payload: { platId: BINANCE } })
    ).json();
    expect(detail.content.ranking[0]).toEqual({
      rank: 1,
      uid: maskUid(big as string),
      amount: '9000.000000',
    });
  });
});

describe('public statistics served without waiting', () => {
  it('answers the last figures once they are old while one background refresh runs, then the new ones', async () => {
    const now = new Date();
    ctx.clock.set(now);
    const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 4 * DAY_MS;
    const detail = async () =>
      (
        await ctx.app.inject({ method: 'POST', url: '/elex/exchange/detail', payload: { platId: BINANCE } })
      ).json().content.ranking[0];
    await refreshStatistics(ctx.db, ctx.clock.now());
    const before = await detail();
    const top = (await referredUid(BINANCE)) as string;
    await ingestRebates(
      ctx.deps,
      BINANCE,
      [figures(top, new Date(start), { fee: '90000', commission: '100000' })],
      api,
    );
    ctx.clock.advance(STATISTICS_TTL_MS);
    // Older than the TTL: this request starts the refresh and is answered with the last figures.
    expect(await detail()).toEqual(before);
    await refreshStatistics(ctx.db, ctx.clock.now());
    expect(await detail()).toEqual({ rank: 1, uid: maskUid(top), amount: '27000.000000' });
  });
});
