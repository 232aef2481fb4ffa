import { type Address, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGasBalance, usdtBalance } from '../../test/chain/local-chain.js';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { mailsTo } from '../auth/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { createWithdrawalTestApp, usdt } from '../withdrawals/test-support.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';
import { payoutsList } from './payouts.commands.js';
import { sendWithdrawal } from './payouts.send.js';
import { type PayoutDeps, withdrawalPayouts } from './payouts.service.js';
import { trackPayouts } from './payouts.track.js';
import { walletHealth } from './payouts.wallet.js';
import {
  type PayoutTestChain,
  payoutConfig,
  payoutTestChain,
  pendingWithdrawal,
  settlePayouts,
} from './test-support.js';

/**
 * The fee ceiling (PAYOUT_MAX_FEE_GWEI, docs/withdrawals.md "Fee ceiling") against a real local EVM
 * whose base fee the test moves: a stuck payout is raised up to the ceiling and no further, waits
 * there with the operators alerted once a day, and lands when fees fall; a send in a spike is signed
 * at the ceiling. The database is PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const CEILING = parseGwei('20');

let setup: PayoutTestChain;
let ctx: CashbackTestContext;
let operator: Caller;

beforeAll(async () => {
  setup = await payoutTestChain();
  ctx = await createWithdrawalTestApp({ payouts: payoutConfig(setup, { maxFeePerGas: CEILING }) });
  operator = await newOperator(ctx);
  await baseFee('5');
});
afterAll(async () => {
  await setup.chain.test.setAutomine(true);
  await ctx.close();
});

const deps = (): PayoutDeps => ctx.deps;
const mine = (blocks: number) => setup.chain.test.mine({ blocks });
const walletNonce = () => setup.chain.public.getTransactionCount({ address: setup.account.address });
const receiverBalance = (to: Address) => usdtBalance(setup.chain, setup.token, to);
const stuckAlerts = async () =>
  (await mailsTo(ctx, operator.email)).filter((mail) => mail.template === 'alertPayoutStuck');

/** The next block's base fee, in gwei, then that block mined (empty while automine is off). */
async function baseFee(gwei: string) {
  await setup.chain.rpc('hardhat_setNextBlockBaseFeePerGas', [`0x${parseGwei(gwei).toString(16)}`]);
  await mine(1);
}

const settle = (passes?: number) => settlePayouts(deps(), setup.chain, passes);

describe('the fee ceiling', () => {
  it('raises a stuck payout up to the ceiling, then holds it there, alerts once, and pays it when fees fall', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '75');
    const nonceBefore = await walletNonce();
    await setup.chain.test.setAutomine(false);
    try {
      const { payout } = await sendWithdrawal(deps(), { id, operatorId: operator.userId, via: 'console' });
      const first = BigInt(payout.attempts[0]?.maxFeePerGas ?? 0);
      expect(first).toBeLessThan(CEILING);
      expect(payout.feeHeld).toBeNull();

      // A spike far above the ceiling: the first raise stops at the ceiling.
      await baseFee('100');
      ctx.clock.advance(61_000);
      expect(await trackPayouts(deps())).toMatchObject({ replaced: 1, held: 0 });
      let [view] = await withdrawalPayouts(deps(), Number(id));
      expect(view?.attempts.map((attempt) => BigInt(attempt.maxFeePerGas))).toEqual([first, CEILING]);
      expect(BigInt(view?.attempts[1]?.maxPriorityFeePerGas ?? 0)).toBeLessThanOrEqual(CEILING);
      expect(view?.feeHeld).toEqual({ askedGwei: expect.any(String), ceilingGwei: '20' });
      expect(Number(view?.feeHeld?.askedGwei)).toBeGreaterThan(100);
      expect(await stuckAlerts()).toEqual([]);

      // Still stuck: no raise a node would take fits under the ceiling. It waits; the operators hear once.
      ctx.clock.advance(61_000);
      expect(await trackPayouts(deps())).toMatchObject({ replaced: 0, held: 1 });
      ctx.clock.advance(61_000);
      expect(await trackPayouts(deps())).toMatchObject({ replaced: 0, held: 1 });
      [view] = await withdrawalPayouts(deps(), Number(id));
      expect(view?.attempts).toHaveLength(2);
      expect(view?.state).toBe('broadcast');
      const alerts = await stuckAlerts();
      expect(alerts).toHaveLength(1);
      expect(alerts[0]?.text).toContain(`withdrawal #${id}`);
      expect(alerts[0]?.text).toContain('offers 20 gwei');
      expect(alerts[0]?.text).toContain(view?.attempts[1]?.txHash);

      // The console's queue says why it waits.
      const queue = await adminCall(ctx, operator, 'withdrawalQueue', {
        status: 'pending',
        page: 1,
        pageSize: 50,
      });
      const row = (queue.content.rows as Array<{ id: string; payout: { feeHeld: unknown } | null }>).find(
        (item) => item.id === id,
      );
      expect(row?.payout?.feeHeld).toEqual({ askedGwei: view?.feeHeld?.askedGwei, ceilingGwei: '20' });
      // So does the command line.
      const out: string[] = [];
      const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line) };
      expect(await payoutsList.run(ctx.deps, ['--state', 'broadcast'], io)).toBe(0);
      expect(out.join('\n')).toContain(
        `held by the fee ceiling: the network asks ${view?.feeHeld?.askedGwei} gwei, PAYOUT_MAX_FEE_GWEI is 20`,
      );

      // Fees fall under what it offers: it lands, once, with the transaction signed at the ceiling.
      await baseFee('10');
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await settle();
    const [final] = await withdrawalPayouts(deps(), Number(id));
    expect(final).toMatchObject({ state: 'confirmed', nonce: nonceBefore, feeHeld: null });
    expect(final?.txHash).toBe(final?.attempts[1]?.txHash);
    expect(await receiverBalance(to)).toBe(usdt('75'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
    expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
  });

  it('signs a send made during a spike at the ceiling, and the wallet shows the ask beside the ceiling', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '60');
    await setup.chain.test.setAutomine(false);
    try {
      await baseFee('300');
      const health = await walletHealth(deps());
      expect(health).toMatchObject({ enabled: true, fees: { ceilingGwei: '20' } });
      if (!health.enabled) throw new Error('payouts are on');
      expect(Number(health.fees.askedGwei)).toBeGreaterThan(300);
      // Gas is counted at what a payout may offer, not at the spike's ask.
      expect(Number(health.needed.gas)).toBe(0.0024);

      const { payout } = await sendWithdrawal(deps(), { id, operatorId: operator.userId, via: 'console' });
      expect(payout.attempts.map((attempt) => BigInt(attempt.maxFeePerGas))).toEqual([CEILING]);
      expect(Number(payout.feeHeld?.askedGwei)).toBeGreaterThan(300);
      await baseFee('8');
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await settle();
    expect((await withdrawalPayouts(deps(), Number(id)))[0]).toMatchObject({
      state: 'confirmed',
      feeHeld: null,
    });
    expect(await receiverBalance(to)).toBe(usdt('60'));
  });

  it('tells the operators when no node takes a payout, with the node’s words, and sends it once the cause is gone', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '55');
    const wallet = setup.account.address;
    // The gas leaves the wallet between the record and the broadcast: the node refuses the transfer.
    const emptying: PayoutDeps = {
      ...deps(),
      payoutFaults: { 'send:beforeBroadcast': () => setGasBalance(setup.chain, wallet, 0n) },
    };
    const { payout } = await sendWithdrawal(emptying, { id, operatorId: operator.userId, via: 'console' });
    expect(payout.state).toBe('signed');
    expect(payout.lastError).toMatch(/fund|balance/i);
    const before = (await stuckAlerts()).length;

    // Within the stuck time the tracker only retries; past it, the operators hear it once.
    await trackPayouts(deps());
    expect(await stuckAlerts()).toHaveLength(before);
    ctx.clock.advance(61_000);
    await trackPayouts(deps());
    await trackPayouts(deps());
    const alerts = await stuckAlerts();
    expect(alerts).toHaveLength(before + 1);
    const refused = alerts.find((mail) => mail.subject === 'Payout of 55.000000 USDT refused by the node');
    expect(refused?.text).toContain(`withdrawal #${id}`);
    expect(refused?.text).toContain('No node accepts it; the node says:');
    expect(refused?.text).toMatch(/fund|balance/i);

    await setGasBalance(setup.chain, wallet, 10n ** 21n);
    await settle();
    expect((await withdrawalPayouts(deps(), Number(id)))[0]).toMatchObject({
      state: 'confirmed',
      lastError: null,
    });
    expect(await receiverBalance(to)).toBe(usdt('55'));
  });
});
