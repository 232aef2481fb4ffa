import { sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { mintUsdt, usdtBalance } from '../../test/chain/local-chain.js';
import { listAudit } from '../admin/audit.service.js';
import { grantOperator } from '../admin/operators.service.js';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { mailsTo } from '../auth/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import {
  applyDeposit,
  createWithdrawalTestApp,
  fundedMember,
  memberCall,
  OTHER_ADDRESS,
  ownCode,
  registerMember,
  type TestMember,
  usdt,
} from '../withdrawals/test-support.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';
import { getWithdrawal, rejectWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import type { FastLaneConfig } from './payouts.config.js';
import { FAST_LANE_ACTOR, fastLaneVerdicts, sendFastLane } from './payouts.fast-lane.js';
import { sendWithdrawal } from './payouts.send.js';
import { type PayoutDeps, withdrawalPayouts } from './payouts.service.js';
import { walletHealth } from './payouts.wallet.js';
import {
  type PayoutTestChain,
  payoutConfig,
  payoutTestChain,
  settlePayouts,
  takeFromWalletInNextBlock,
  whileTrackerRuns,
} from './test-support.js';

/**
 * The fast lane (docs/withdrawals.md "Fast lane") against a real local EVM: a small withdrawal of a
 * member in good standing is sent by the lane on its own and completes like any payout; everything
 * else waits for an operator; the limits per 24 hours hold for all members and for each, also for two
 * passes at once; off, it sends nothing. The database is PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const DAY_MS = 86_400_000;
const LANE: FastLaneConfig = {
  maxMicro: usdt('100'),
  dailyMicro: usdt('250'),
  memberDailyMicro: usdt('150'),
  minAccountAgeMs: 0,
};

let setup: PayoutTestChain;
let ctx: CashbackTestContext;
let operator: Caller;

beforeAll(async () => {
  setup = await payoutTestChain();
  ctx = await createWithdrawalTestApp({ payouts: payoutConfig(setup, { fastLane: LANE }) });
  operator = await newOperator(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const deps = (): PayoutDeps => ctx.deps;

/** The same server with other fast lane settings (null: off). */
function withLane(fastLane: FastLaneConfig | null): PayoutDeps {
  const payouts = ctx.deps.config.payouts as Extract<Config['payouts'], { enabled: true }>;
  return { ...ctx.deps, config: { ...ctx.deps.config, payouts: { ...payouts, fastLane } } };
}

const settle = (passes?: number) => settlePayouts(deps(), setup.chain, passes);

async function request(member: TestMember, amount: string, to: Address): Promise<string> {
  const answer = await applyDeposit(ctx, member, {
    amount,
    authCode: await ownCode(ctx, member),
    address: to,
  });
  expect(answer).toMatchObject({ state: 0 });
  return (answer.content as { id: string }).id;
}

/**
 * A member in good standing: an earlier withdrawal to `to` sent by an operator and completed. Holds
 * `cashback` USDT more for the withdrawals the test asks for.
 */
async function trustedMember(cashback: string): Promise<{ member: TestMember; to: Address }> {
  const member = await fundedMember(ctx, { cashback: String(Number(cashback) + 50) });
  const to = privateKeyToAccount(generatePrivateKey()).address;
  const first = await request(member, '50', to);
  await sendWithdrawal(deps(), { id: first, operatorId: operator.userId, via: 'console' });
  await settle();
  expect((await getWithdrawal(deps(), first)).status).toBe('completed');
  return { member, to };
}

const payoutsOf = async (id: string) => withdrawalPayouts(deps(), Number(id));

/** What the console's queue says the lane does with each withdrawal ('absent': not in the pending queue). */
async function laneVerdicts(ids: string[]): Promise<Array<string | null>> {
  const queue = await adminCall(ctx, operator, 'withdrawalQueue', {
    status: 'pending',
    page: 1,
    pageSize: 100,
  });
  const rows = queue.content.rows as Array<{ id: string; fastLane: string | null }>;
  return ids.map((id) => {
    const row = rows.find((item) => item.id === id);
    return row ? row.fastLane : 'absent';
  });
}

async function everyInvariantHolds() {
  expect(await checkAllInvariants(ctx.db)).toEqual([]);
  expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
}

describe('the fast lane', () => {
  it('sends a small withdrawal to an address the member was paid at before, without review, and completes it', async () => {
    const { member, to } = await trustedMember('60');
    const id = await request(member, '60', to);
    const before = await usdtBalance(setup.chain, setup.token, to);
    expect(await laneVerdicts([id])).toEqual(['sends']);

    expect(await sendFastLane(deps())).toEqual({ sent: 1, waiting: 0 });
    // On its way: the payout is what the console shows, not the lane's verdict.
    expect(await laneVerdicts([id])).toEqual([null]);
    const [payout] = await payoutsOf(id);
    expect(payout).toMatchObject({ sentVia: 'auto', sentBy: null, amount: '60.000000', to });
    const audit = await listAudit(ctx.db, {
      action: 'withdrawal.send',
      target: `withdrawal:${id}`,
      page: 1,
      pageSize: 5,
    });
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor: FAST_LANE_ACTOR.label });
    // A second pass finds nothing more to send: one payout per withdrawal.
    expect(await sendFastLane(deps())).toEqual({ sent: 0, waiting: 0 });

    const queue = await adminCall(ctx, operator, 'withdrawalQueue', {
      status: 'pending',
      page: 1,
      pageSize: 50,
    });
    const row = (
      queue.content.rows as Array<{ id: string; payout: { sentVia: string; sentBy: string | null } }>
    ).find((item) => item.id === id);
    expect(row?.payout).toMatchObject({ sentVia: 'auto', sentBy: null });

    await settle();
    const done = await getWithdrawal(deps(), id);
    expect(done.status).toBe('completed');
    const [decided] = await rowsOf<{ decided_via: string; decided_by: number | null }>(
      await ctx.db.execute(sql`select decided_via, decided_by from withdrawals where id = ${Number(id)}`),
    );
    expect(decided).toEqual({ decided_via: 'auto', decided_by: null });
    expect((await usdtBalance(setup.chain, setup.token, to)) - before).toBe(usdt('60'));
    expect((await mailsTo(ctx, member.email)).map((mail) => mail.template)).toContain('withdrawalCompleted');
    await everyInvariantHolds();
  });

  it('leaves to an operator what is larger, to a new address, an operator’s own, after a rejection, or from a new account', async () => {
    const large = await trustedMember('120');
    const largeId = await request(large.member, '100.000001', large.to);

    const newAddress = await trustedMember('60');
    const elsewhereId = await request(
      newAddress.member,
      '60',
      privateKeyToAccount(generatePrivateKey()).address,
    );

    const insider = await trustedMember('60');
    expect(
      await grantOperator(ctx.deps, insider.member.email, { userId: operator.userId, label: operator.email }),
    ).toBe(true);
    const insiderId = await request(insider.member, '60', insider.to);

    const rejected = await trustedMember('120');
    const refusedId = await request(rejected.member, '60', rejected.to);
    await rejectWithdrawal(deps(), { id: refusedId, reason: 'checking', operatorId: operator.userId });
    const afterRejectionId = await request(rejected.member, '60', rejected.to);

    const waiting = [largeId, elsewhereId, insiderId, afterRejectionId];
    // The console names why each one waits for an operator.
    expect(await laneVerdicts(waiting)).toEqual(['overMaximum', 'newAddress', 'operator', 'recentRejection']);
    expect(await sendFastLane(deps())).toEqual({ sent: 0, waiting: 0 });
    for (const id of waiting) {
      expect(await payoutsOf(id)).toEqual([]);
      expect((await getWithdrawal(deps(), id)).status).toBe('pending');
    }

    // An account younger than the lane's minimum waits too; the same member passes once it is old enough.
    const young = await trustedMember('60');
    const youngId = await request(young.member, '60', young.to);
    const strict = withLane({ ...LANE, minAccountAgeMs: 14 * DAY_MS });
    expect((await fastLaneVerdicts(strict, [Number(youngId)])).get(Number(youngId))).toBe('accountTooNew');
    expect(await fastLaneVerdicts(withLane(null), [Number(youngId)])).toEqual(new Map());
    expect(await sendFastLane(strict)).toEqual({
      sent: 0,
      waiting: 0,
    });
    expect(await payoutsOf(youngId)).toEqual([]);
    expect(await sendFastLane(deps())).toEqual({ sent: 1, waiting: 0 });
    expect(await payoutsOf(youngId)).toHaveLength(1);
    await settle();

    // The operator still decides the others as before.
    await sendWithdrawal(deps(), { id: largeId, operatorId: operator.userId, via: 'console' });
    await settle();
    expect((await getWithdrawal(deps(), largeId)).status).toBe('completed');
    for (const id of [elsewhereId, insiderId, afterRejectionId]) {
      await rejectWithdrawal(deps(), { id, reason: 'test over', operatorId: operator.userId });
    }
    await everyInvariantHolds();
  });

  it('keeps within its limits for any 24 hours, for each member and for all, also when two passes run at once', async () => {
    ctx.clock.advance(DAY_MS + 1000);
    const a = await trustedMember('160');
    const b = await trustedMember('180');
    const c = await trustedMember('90');
    const a1 = await request(a.member, '80', a.to);
    const a2 = await request(a.member, '80', a.to);
    const b1 = await request(b.member, '90', b.to);
    const b2 = await request(b.member, '90', b.to);
    const c1 = await request(c.member, '90', c.to);

    // a1 80; a2 would make a's day 160 > 150; b1 makes 170 in all; b2 is over b's 150; c1 over 250 in all.
    expect(await sendFastLane(deps())).toEqual({ sent: 2, waiting: 3 });
    // After the pass: a2 is over a's own limit, b2 and c1 over what is left of 250 for all (checked first).
    expect(await laneVerdicts([a2, b2, c1])).toEqual(['memberDailyLimit', 'dailyLimit', 'dailyLimit']);
    expect((await payoutsOf(a1)).length + (await payoutsOf(b1)).length).toBe(2);
    for (const id of [a2, b2, c1]) expect(await payoutsOf(id)).toEqual([]);
    const health = await walletHealth(deps());
    expect(health).toMatchObject({
      enabled: true,
      fastLane: {
        max: '100.000000',
        daily: '250.000000',
        memberDaily: '150.000000',
        sentLast24h: '170.000000',
      },
    });
    await settle();

    // A day later the first sends no longer count. Two passes at once still fit within 250.
    ctx.clock.advance(DAY_MS + 1000);
    const results = await Promise.all([sendFastLane(deps()), sendFastLane(deps())]);
    expect(results[0].sent + results[1].sent).toBe(2);
    expect((await payoutsOf(a2)).length + (await payoutsOf(b2)).length).toBe(2);
    expect(await payoutsOf(c1)).toEqual([]);
    const [sent] = await rowsOf<{ total: string }>(
      await ctx.db.execute(
        sql`select sum(amount_micro)::text as total from payouts where sent_via = 'auto' and created_at >= ${new Date(ctx.clock.now().getTime() - DAY_MS).toISOString()}`,
      ),
    );
    expect(BigInt(sent?.total ?? 0)).toBe(usdt('170'));
    await settle();
    await rejectWithdrawal(deps(), { id: c1, reason: 'test over', operatorId: operator.userId });

    // Two instances that each find a different withdrawal to fit the last of the allowance (their
    // settings differ here so that they do): the check under the wallet's lock lets only one through.
    ctx.clock.advance(DAY_MS + 1000);
    const d = await trustedMember('90');
    const e = await trustedMember('80');
    const d1 = await request(d.member, '90', d.to);
    const e1 = await request(e.member, '80', e.to);
    const tight = { ...LANE, dailyMicro: usdt('100'), maxMicro: usdt('100') };
    const [both, smallOnly] = await Promise.all([
      sendFastLane(withLane(tight)),
      sendFastLane(withLane({ ...tight, maxMicro: usdt('85') })),
    ]);
    expect(both.sent + smallOnly.sent).toBe(1);
    expect((await payoutsOf(d1)).length + (await payoutsOf(e1)).length).toBe(1);
    await settle();
    for (const id of [d1, e1]) {
      if ((await getWithdrawal(deps(), id)).status === 'pending') {
        await rejectWithdrawal(deps(), { id, reason: 'test over', operatorId: operator.userId });
      }
    }
    await everyInvariantHolds();
  });

  it('waits while a payout of the wallet is held by the fee ceiling: a new send would only queue behind it', async () => {
    ctx.clock.advance(DAY_MS + 1000);
    const { member, to } = await trustedMember('60');
    const id = await request(member, '60', to);
    const sender = await trustedMember('60');
    const other = await request(sender.member, '60', sender.to);
    await setup.chain.test.setAutomine(false);
    try {
      // An operator sends one first; the node leaves it unmined and the ceiling holds it.
      const { payout } = await sendWithdrawal(deps(), {
        id: other,
        operatorId: operator.userId,
        via: 'console',
      });
      await ctx.db.execute(sql`update payouts set held_fee_asked = 2000000000000 where id = ${payout.id}`);
      expect(await laneVerdicts([id])).toEqual(['feeCeiling']);
      expect(await sendFastLane(deps())).toEqual({ sent: 0, waiting: 0 });
      expect(await payoutsOf(id)).toEqual([]);
      await ctx.db.execute(sql`update payouts set held_fee_asked = null where id = ${payout.id}`);
      expect(await sendFastLane(deps())).toEqual({ sent: 1, waiting: 0 });
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await settle();
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
  });

  it('names in the console a suspended member and a UID under dispute, and leaves both to an operator', async () => {
    ctx.clock.advance(DAY_MS + 1000);
    const suspended = await trustedMember('60');
    const suspendedId = await request(suspended.member, '60', suspended.to);
    expect(
      await adminCall(ctx, operator, 'suspendMember', { userId: suspended.member.userId, reason: 'checks' }),
    ).toMatchObject({ state: 0 });
    const disputed = await trustedMember('60');
    const disputedId = await request(disputed.member, '60', disputed.to);
    const claimant = await registerMember(ctx);
    expect(
      await memberCall(ctx, claimant, '/elex/support/create', {
        kind: 'uidBoundByOther',
        platId: disputed.member.platId,
        uid: disputed.member.uid,
        address: OTHER_ADDRESS,
        text: 'This UID is mine.',
      }),
    ).toMatchObject({ state: 0 });

    expect(await laneVerdicts([suspendedId, disputedId])).toEqual(['suspended', 'uidFrozen']);
    // The suspended member's is no candidate; the disputed UID's is looked at and left waiting.
    expect(await sendFastLane(deps())).toEqual({ sent: 0, waiting: 1 });
    for (const id of [suspendedId, disputedId]) expect(await payoutsOf(id)).toEqual([]);
    // Decided, it leaves the pending queue and the lane has nothing to say about it.
    await rejectWithdrawal(deps(), { id: suspendedId, reason: 'test over', operatorId: operator.userId });
    expect(await laneVerdicts([suspendedId])).toEqual(['absent']);
  });

  it('leaves to an operator a withdrawal whose payout reverted: the lane never sends it again, an operator does', async () => {
    ctx.clock.advance(DAY_MS + 1000);
    const { member, to } = await trustedMember('60');
    const id = await request(member, '60', to);
    expect(await laneVerdicts([id])).toEqual(['sends']);

    // The lane sends it; an approved spender empties the wallet in the same block, ahead of it.
    const float = await usdtBalance(setup.chain, setup.token, setup.account.address);
    try {
      await takeFromWalletInNextBlock(setup, float);
      // (The disputed UID's withdrawal of the test before still waits.)
      expect(await sendFastLane(deps())).toMatchObject({ sent: 1 });
      await setup.chain.test.mine({ blocks: 1 });
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await settle();
    expect((await payoutsOf(id)).map((payout) => [payout.sentVia, payout.state])).toEqual([
      ['auto', 'reverted'],
    ]);
    expect(await getWithdrawal(deps(), id)).toMatchObject({ status: 'pending', txHash: null });
    expect(await usdtBalance(setup.chain, setup.token, to)).toBe(usdt('50'));

    // Funded again, the lane still leaves it alone and the console says why.
    await mintUsdt(setup.chain, setup.token, setup.account.address, float);
    expect(await laneVerdicts([id])).toEqual(['sentBefore']);
    expect(await sendFastLane(deps())).toMatchObject({ sent: 0 });
    expect(await payoutsOf(id)).toHaveLength(1);

    // An operator looks at it and sends it again: paid once.
    await sendWithdrawal(deps(), { id, operatorId: operator.userId, via: 'console' });
    await settle();
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
    expect((await payoutsOf(id)).map((payout) => [payout.sentVia, payout.state])).toEqual([
      ['console', 'confirmed'],
      ['auto', 'reverted'],
    ]);
    expect(await usdtBalance(setup.chain, setup.token, to)).toBe(usdt('110'));
    await everyInvariantHolds();
  });

  it('runs in the server’s tracker loop and sends nothing when off', async () => {
    const { member, to } = await trustedMember('120');
    const id = await request(member, '60', to);
    expect(await sendFastLane(withLane(null))).toEqual({ sent: 0, waiting: 0 });
    expect(await payoutsOf(id)).toEqual([]);
    expect(await walletHealth(withLane(null))).toMatchObject({ fastLane: null });

    ctx.clock.advance(DAY_MS + 1000);
    await whileTrackerRuns(
      ctx,
      setup.chain,
      async () => (await getWithdrawal(deps(), id)).status !== 'pending',
    );
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
    expect((await payoutsOf(id))[0]).toMatchObject({ sentVia: 'auto', state: 'confirmed' });
  });
});
