import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endMemberHoldings } from '../auth/deletion.js';
import { liveBindingsOf, unbindUid } from '../bindings/bindings.service.js';
import {
  ADDRESS,
  createWithdrawalTestApp,
  creditCashback,
  fundedMember,
  memberCall,
  registerMember,
  type TestMember,
} from '../withdrawals/test-support.js';
import { checkAllInvariants } from './cashback.check.js';
import { tradingVolumeOf } from './cashback.service.js';
import { ingestRebates } from './ingest.service.js';
import { type CashbackTestContext, DAY_MS, figures } from './test-support.js';

/**
 * Issue 11: "the next holder of a UID sees the last one's history". A member sees the records, chart,
 * totals and exports of a UID only from where their history starts: after an earlier holder who
 * deleted their account (and forfeited its balance). An operator's unbind keeps the history with the
 * UID: the balance passes on too, to the owner who gets the UID back.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createWithdrawalTestApp();
});
afterAll(() => ctx.close());

const HOUR_MS = 60 * 60 * 1000;

async function views(member: Pick<TestMember, 'token'>, platId: number, uid: string) {
  const info = await memberCall(ctx, member, '/elex/user/myInfo');
  const records = await memberCall(ctx, member, '/elex/user/seeRebateData', { page: 1, pageSize: 100 });
  const detail = await memberCall(ctx, member, '/elex/user/seeRebateByExchangeId', { platId, uid });
  const tasks = await memberCall(ctx, member, '/elex/exchange/getExchangeTaskDetail');
  return {
    balance: info.content.exchangeBinds[0]?.balance,
    totalRebate: info.content.totalRebate,
    records: records.content.total,
    detailTotal: detail.content.totalRebate,
    days: detail.content.daily.length,
    lastDataAt: detail.content.lastDataAt,
    /** The trade tasks' progress. */
    volume: tasks.content.tradingVolume,
  };
}

async function bind(member: Pick<TestMember, 'token'>, platId: number, uid: string) {
  expect(
    await memberCall(ctx, member, '/elex/user/bindExchangeUid', { platId, uid, address: ADDRESS }),
  ).toMatchObject({ state: 0 });
}

describe('a UID bound again after its holder deleted the account', () => {
  it('shows the new holder none of the earlier records, chart, totals or volume, then its own', async () => {
    const first = await fundedMember(ctx, { cashback: '75' });
    // A recent day too, so the chart (the last 90 trading days) has something to hide.
    const dayBefore = new Date(ctx.clock.now().getTime() - 3 * DAY_MS);
    await ingestRebates(
      ctx.deps,
      first.platId,
      [figures(first.uid, dayBefore, { fee: '2', commission: '1' })],
      {
        kind: 'api',
        label: 'test',
      },
    );
    expect(await views(first, first.platId, first.uid)).toMatchObject({
      balance: '76.000000',
      totalRebate: '76.000000',
      records: 2,
      days: 1,
    });
    // The deletion's holdings step: the binding ends and the 76 USDT are forfeited (terms s.8).
    await ctx.db.transaction((tx) => endMemberHoldings(tx, first.userId, ctx.clock.now(), 76_000_000n));
    ctx.clock.advance(HOUR_MS);

    const next = { ...(await registerMember(ctx)), platId: first.platId, uid: first.uid };
    await bind(next, next.platId, next.uid);
    expect(await views(next, next.platId, next.uid)).toEqual({
      balance: '0.000000',
      totalRebate: '0.000000',
      records: 0,
      detailTotal: '0.000000',
      days: 0,
      lastDataAt: null,
      volume: '0.000000',
    });
    const [binding] = await liveBindingsOf(ctx.db, next.userId);
    expect(await tradingVolumeOf(ctx.db, binding ? [binding] : [])).toBe(0n);

    // What the UID earns from now on is the new holder's, and shows.
    await creditCashback(ctx, next.platId, next.uid, '10');
    expect(await views(next, next.platId, next.uid)).toMatchObject({
      balance: '10.000000',
      totalRebate: '10.000000',
      records: 1,
      detailTotal: '10.000000',
    });
    expect(await tradingVolumeOf(ctx.db, binding ? [binding] : [])).toBeGreaterThan(0n);
    expect((await views(next, next.platId, next.uid)).volume).toBe(
      (Number(await tradingVolumeOf(ctx.db, binding ? [binding] : [])) / 1e6).toFixed(6),
    );
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});

describe('a UID an operator unbound', () => {
  it("keeps its history and balance for the next holder (the owner who gets it back), not its trade tasks' volume", async () => {
    const squatter = await fundedMember(ctx, { cashback: '20' });
    await ctx.db.transaction((tx) =>
      unbindUid(tx, {
        platId: squatter.platId,
        uid: squatter.uid,
        reason: 'dispute',
        operatorId: null,
        at: ctx.clock.now(),
      }),
    );
    ctx.clock.advance(HOUR_MS);
    const owner = { ...(await registerMember(ctx)), platId: squatter.platId, uid: squatter.uid };
    await bind(owner, owner.platId, owner.uid);
    expect(await views(owner, owner.platId, owner.uid)).toMatchObject({
      balance: '20.000000',
      totalRebate: '20.000000',
      records: 1,
      detailTotal: '20.000000',
      // The trades imported while the squatter held it counted for the squatter's tiers (tasks.test.ts).
      volume: '0.000000',
    });
  });
});
