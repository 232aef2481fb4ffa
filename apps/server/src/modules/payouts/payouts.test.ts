import { State, translate } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { type Address, createWalletClient, http } from 'viem';
import { polygon } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.js';
import { mintUsdt, testUsdtAbi, usdtBalance } from '../../test/chain/local-chain.js';
import { listAudit } from '../admin/audit.service.js';
import { grantOperator } from '../admin/operators.service.js';
import { call, mailsTo } from '../auth/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import { type CashbackTestContext, createMember } from '../cashback/test-support.js';
import { accountCode, balancesOf } from '../ledger/ledger.service.js';
import { createWithdrawalTestApp, memberCall, moneyOf, usdt } from '../withdrawals/test-support.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';
import { approveWithdrawal, getWithdrawal, rejectWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import { checkPayoutInvariants } from './payouts.check.js';
import { payoutsList, payoutsSend, payoutsWallet } from './payouts.commands.js';
import { explainTransfer, payoutReconciliation } from './payouts.reconciliation.js';
import { sendWithdrawal, sendWithdrawals } from './payouts.send.js';
import { type PayoutDeps, withdrawalPayouts } from './payouts.service.js';
import { DROPPED_AFTER_MS, NONCE_TAKEN_AFTER_MS, trackPayouts } from './payouts.track.js';
import { walletStatus } from './payouts.wallet.js';
import {
  type PayoutTestChain,
  payoutOverrides,
  payoutTestChain,
  pendingWithdrawal,
  receiptHidingProxy,
  settlePayouts,
  takeFromWalletInNextBlock,
  whileTrackerRuns,
} from './test-support.js';

/**
 * On-chain payouts against a real local EVM (Hardhat's network, src/test/chain) and a 6-decimal test
 * USDT: send, confirmations, completion with the ledger and the mail; twenty racing sends of one
 * withdrawal; the manual decisions refused while a payout is in flight; a stuck transaction (base fee
 * above its cap) and a dropped one replaced with the same nonce; a revert back to the queue and a
 * re-send; the manual flow without a key. The database is PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
let setup: PayoutTestChain;
let ctx: CashbackTestContext;
let operatorId: number;
let operatorEmail: string;

beforeAll(async () => {
  setup = await payoutTestChain();
  ctx = await createWithdrawalTestApp(payoutOverrides(setup));
  const operator = await createMember(ctx);
  // An operator holds the role: a send asks for it again in its transaction.
  await grantOperator(ctx.deps, operator.email, { userId: null, label: 'cli:test' });
  operatorId = operator.id;
  operatorEmail = operator.email;
});
afterAll(async () => {
  await setup.chain.test.setAutomine(true);
  await ctx.close();
});

const deps = (): PayoutDeps => ctx.deps;
const send = (id: string) => sendWithdrawal(deps(), { id, operatorId, via: 'console' });
const receiverBalance = (to: Address) => usdtBalance(setup.chain, setup.token, to);
const walletNonce = () => setup.chain.public.getTransactionCount({ address: setup.account.address });
const mine = (blocks: number) => setup.chain.test.mine({ blocks });

async function everyInvariantHolds() {
  expect(await checkAllInvariants(ctx.db)).toEqual([]);
  expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
}

/** Tracker passes (the server runs them every few seconds) until nothing is in flight or `passes` ran. */
const trackUntilSettled = (passes?: number) => settlePayouts(deps(), setup.chain, passes);

describe('a payout sent on chain', () => {
  it('is broadcast at once, counts confirmations, then completes the withdrawal with the ledger and the mail', async () => {
    const { member, id, to } = await pendingWithdrawal(ctx, '60.5', { lang: 'ko' });
    const nonceBefore = await walletNonce();

    const { payout, created } = await send(id);
    expect(created).toBe(true);
    // Automine: the node took it and put it in a block at once; confirmations count from there.
    expect(payout).toMatchObject({ state: 'broadcast', to, amount: '60.500000', nonce: nonceBefore });
    expect(await receiverBalance(to)).toBe(usdt('60.5'));

    await trackPayouts(deps());
    let [tracked] = await withdrawalPayouts(deps(), Number(id));
    expect(tracked).toMatchObject({ state: 'mined', confirmations: 1, confirmationsNeeded: 3 });
    // Not final yet: the withdrawal is still pending, its amount held, no mail.
    expect((await getWithdrawal(deps(), id)).status).toBe('pending');
    expect(await moneyOf(ctx, member, id)).toMatchObject({ hold: usdt('60.5') });
    expect((await mailsTo(ctx, member.email)).map((mail) => mail.template)).not.toContain(
      'withdrawalCompleted',
    );

    await mine(2);
    await trackPayouts(deps());
    [tracked] = await withdrawalPayouts(deps(), Number(id));
    expect(tracked).toMatchObject({ state: 'confirmed', confirmations: 3, txHash: payout.txHash });
    expect(await getWithdrawal(deps(), id)).toMatchObject({
      status: 'completed',
      txHash: payout.txHash,
      decidedBy: operatorId,
      decidedVia: 'console',
    });
    expect(await moneyOf(ctx, member, id)).toMatchObject({ hold: 0n });
    const completed = (await mailsTo(ctx, member.email)).filter(
      (mail) => mail.template === 'withdrawalCompleted',
    );
    expect(completed).toHaveLength(1);
    expect(completed[0]?.text).toContain(`https://polygonscan.com/tx/${payout.txHash}`);
    expect(await receiverBalance(to)).toBe(usdt('60.5'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
    await everyInvariantHolds();

    // A later click on the paid withdrawal answers its payout; nothing new is signed.
    const again = await send(id);
    expect(again).toMatchObject({ created: false, payout: { id: payout.id, state: 'confirmed' } });
    expect(await walletNonce()).toBe(nonceBefore + 1);
  });

  it('twenty concurrent sends of one withdrawal make one payout and one transfer', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '75');
    const nonceBefore = await walletNonce();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => send(id)));
    expect(outcomes.filter((outcome) => outcome.created)).toHaveLength(1);
    expect(new Set(outcomes.map((outcome) => outcome.payout.id)).size).toBe(1);
    expect(new Set(outcomes.map((outcome) => outcome.payout.txHash)).size).toBe(1);
    await trackUntilSettled();
    expect(await receiverBalance(to)).toBe(usdt('75'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
    expect(await withdrawalPayouts(deps(), Number(id))).toHaveLength(1);
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
    await everyInvariantHolds();
  });

  it('a batch sends each withdrawal at the next nonce, and says which were refused', async () => {
    const first = await pendingWithdrawal(ctx, '51');
    const second = await pendingWithdrawal(ctx, '52');
    const nonceBefore = await walletNonce();
    const results = await sendWithdrawals(deps(), {
      ids: [first.id, '999999', second.id],
      operatorId,
      via: 'console',
    });
    expect(
      results.map((result) => ('refused' in result.outcome ? 'refused' : result.outcome.payout.nonce)),
    ).toEqual([nonceBefore, 'refused', nonceBefore + 1]);
    await trackUntilSettled();
    expect(await receiverBalance(first.to)).toBe(usdt('51'));
    expect(await receiverBalance(second.to)).toBe(usdt('52'));
    await everyInvariantHolds();
  });
});

describe('while a payout is in flight', () => {
  it('the member cannot cancel it and no operator can reject or pay it by hand, in their language', async () => {
    await setup.chain.test.setAutomine(false);
    try {
      const { member, id } = await pendingWithdrawal(ctx, '55');
      const { payout } = await send(id);
      expect(payout.state).toBe('broadcast');

      const cancel = await call(ctx, '/elex/user/cancelDeposit', { id }, { token: member.token, lang: 'zh' });
      expect(cancel.json()).toMatchObject({
        state: State.Refused,
        message: translate('zh', 'withdrawalBeingPaid'),
      });
      const refusedWith = async (decision: Promise<unknown>) => {
        const error = await decision.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AppError);
        return (error as AppError).messageKey;
      };
      expect(await refusedWith(rejectWithdrawal(deps(), { id, reason: 'no', operatorId }))).toBe(
        'withdrawalPayoutInFlight',
      );
      expect(
        await refusedWith(approveWithdrawal(deps(), { id, txHash: `0x${'ab'.repeat(32)}`, operatorId })),
      ).toBe('withdrawalPayoutInFlight');
      expect(translate('ko', 'withdrawalPayoutInFlight', { payout: payout.id })).toContain(String(payout.id));
      expect((await getWithdrawal(deps(), id)).status).toBe('pending');
      expect(await moneyOf(ctx, member, id)).toMatchObject({ hold: usdt('55') });
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await trackUntilSettled();
    await everyInvariantHolds();
  });

  it("no withdrawal is recorded as paid by hand with the hash of another one's payout", async () => {
    await setup.chain.test.setAutomine(false);
    let sent: Awaited<ReturnType<typeof pendingWithdrawal>>;
    let other: Awaited<ReturnType<typeof pendingWithdrawal>>;
    let payoutHash: string;
    try {
      sent = await pendingWithdrawal(ctx, '56');
      other = await pendingWithdrawal(ctx, '57');
      const { payout } = await send(sent.id);
      payoutHash = payout.txHash;
      // The operator pays the other one by hand and pastes the hash the queue shows beside the first.
      const error = await approveWithdrawal(deps(), {
        id: other.id,
        txHash: payoutHash,
        operatorId,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ messageKey: 'txHashIsPayout', values: { withdrawal: sent.id } });
      expect(translate('ko', 'txHashIsPayout', { withdrawal: sent.id })).toContain(sent.id);
      expect((await getWithdrawal(deps(), other.id)).status).toBe('pending');
      expect(await moneyOf(ctx, other.member, other.id)).toMatchObject({ hold: usdt('57') });
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    // The payout lands and completes its own withdrawal, which the wrong record would have blocked.
    await trackUntilSettled();
    expect(await getWithdrawal(deps(), sent.id)).toMatchObject({ status: 'completed', txHash: payoutHash });
    expect(await receiverBalance(sent.to)).toBe(usdt('56'));
    expect((await getWithdrawal(deps(), other.id)).status).toBe('pending');
    await rejectWithdrawal(deps(), { id: other.id, reason: 'test', operatorId });
    await everyInvariantHolds();
  });

  it('the operator may not send their own withdrawal', async () => {
    const { member, id } = await pendingWithdrawal(ctx, '50');
    const error = await sendWithdrawal(deps(), { id, operatorId: member.userId, via: 'console' }).catch(
      (caught: unknown) => caught,
    );
    expect((error as AppError).messageKey).toBe('withdrawalOwnDecision');
    expect(await withdrawalPayouts(deps(), Number(id))).toEqual([]);
  });
});

describe('a transaction that does not land', () => {
  it('stuck under a base fee above its cap: replaced with the same nonce and higher fees, and paid once', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '57');
    const nonceBefore = await walletNonce();
    await setup.chain.test.setAutomine(false);
    try {
      const { payout } = await send(id);
      const cap = BigInt(payout.attempts[0]?.maxFeePerGas ?? '0');
      await setup.chain.rpc('hardhat_setNextBlockBaseFeePerGas', [`0x${(cap * 3n).toString(16)}`]);
      await mine(1);
      await trackPayouts(deps());
      // Not stuck yet: still the first attempt, waiting.
      expect((await withdrawalPayouts(deps(), Number(id)))[0]?.attempts).toHaveLength(1);

      ctx.clock.advance(61_000);
      await trackPayouts(deps());
      const [replaced] = await withdrawalPayouts(deps(), Number(id));
      expect(replaced?.attempts).toHaveLength(2);
      const [firstAttempt, secondAttempt] = replaced?.attempts ?? [];
      expect(BigInt(secondAttempt?.maxFeePerGas ?? 0)).toBeGreaterThanOrEqual((cap * 120n) / 100n);
      expect(BigInt(secondAttempt?.maxPriorityFeePerGas ?? 0)).toBeGreaterThanOrEqual(
        (BigInt(firstAttempt?.maxPriorityFeePerGas ?? 0) * 120n) / 100n,
      );
      await mine(1);
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await trackUntilSettled();
    const [final] = await withdrawalPayouts(deps(), Number(id));
    expect(final).toMatchObject({
      state: 'confirmed',
      txHash: final?.attempts[1]?.txHash,
      nonce: nonceBefore,
    });
    expect((await getWithdrawal(deps(), id)).txHash).toBe(final?.attempts[1]?.txHash);
    expect(await receiverBalance(to)).toBe(usdt('57'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
    await everyInvariantHolds();
  });

  it('dropped from the mempool: sent again with the same nonce and paid once', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '58');
    const nonceBefore = await walletNonce();
    await setup.chain.test.setAutomine(false);
    try {
      const { payout } = await send(id);
      expect(await setup.chain.rpc('hardhat_dropTransaction', [payout.txHash])).toBe(true);
      // Unknown to the node for a moment is not yet dropped (another backend may have it).
      await trackPayouts(deps());
      expect((await withdrawalPayouts(deps(), Number(id)))[0]?.attempts).toHaveLength(1);
      ctx.clock.advance(DROPPED_AFTER_MS);
      await trackPayouts(deps());
      const [again] = await withdrawalPayouts(deps(), Number(id));
      expect(again?.attempts).toHaveLength(2);
      await mine(1);
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await trackUntilSettled();
    const [final] = await withdrawalPayouts(deps(), Number(id));
    expect(final?.state).toBe('confirmed');
    expect(await receiverBalance(to)).toBe(usdt('58'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
    await everyInvariantHolds();
  });

  it('a node behind on receipts does not drop a payout that landed: no second send can pay it twice', async () => {
    const proxy = await receiptHidingProxy(setup.chain.url);
    try {
      const payouts = ctx.deps.config.payouts as Extract<PayoutDeps['config']['payouts'], { enabled: true }>;
      // The same server, reading the chain through a backend whose receipts lag behind its blocks.
      const lagging: PayoutDeps = {
        ...ctx.deps,
        config: { ...ctx.deps.config, payouts: { ...payouts, rpcUrls: [proxy.url] } },
      };
      const { id, to } = await pendingWithdrawal(ctx, '57');
      const nonceBefore = await walletNonce();
      await sendWithdrawal(lagging, { id, operatorId, via: 'console' });
      await mine(3);
      proxy.hideReceipts(true);
      // Its nonce is final on chain and no receipt answers: once, and again past the mempool's timeout.
      await trackPayouts(lagging);
      ctx.clock.advance(DROPPED_AFTER_MS * 2);
      await trackPayouts(lagging);
      const [waiting] = await withdrawalPayouts(deps(), Number(id));
      expect(waiting?.state).not.toBe('dropped');
      expect((await getWithdrawal(deps(), id)).status).toBe('pending');
      // A send now answers the payout on its way instead of making a second one.
      expect(await send(id)).toMatchObject({ created: false });

      proxy.hideReceipts(false);
      await settlePayouts(lagging, setup.chain);
      expect((await withdrawalPayouts(deps(), Number(id))).map((view) => view.state)).toEqual(['confirmed']);
      expect((await getWithdrawal(deps(), id)).status).toBe('completed');
      expect(await receiverBalance(to)).toBe(usdt('57'));
      expect(await walletNonce()).toBe(nonceBefore + 1);
    } finally {
      await proxy.close();
    }
    await everyInvariantHolds();
  });

  it('a payout whose nonce the wallet spent on something else is dropped after a second look, then sent again and paid once', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '56');
    await setup.chain.test.setAutomine(false);
    try {
      const { payout } = await send(id);
      // The same key pays something else with that nonce, at a fee that replaces ours in the mempool.
      const wallet = createWalletClient({
        account: setup.account,
        chain: polygon,
        transport: http(setup.chain.url),
      });
      await wallet.sendTransaction({
        to: setup.account.address,
        value: 0n,
        nonce: payout.nonce,
        maxFeePerGas: 900_000_000_000n,
        maxPriorityFeePerGas: 900_000_000_000n,
      });
      await mine(1);
    } finally {
      await setup.chain.test.setAutomine(true);
    }
    await mine(3);
    await trackPayouts(deps());
    expect((await withdrawalPayouts(deps(), Number(id)))[0]?.state).not.toBe('dropped');
    ctx.clock.advance(NONCE_TAKEN_AFTER_MS);
    await trackPayouts(deps());
    const [dropped] = await withdrawalPayouts(deps(), Number(id));
    expect(dropped?.state).toBe('dropped');
    expect(dropped?.failureReason).toContain('was used by another transaction');
    expect((await getWithdrawal(deps(), id)).status).toBe('pending');
    expect(await receiverBalance(to)).toBe(0n);

    // Back in the queue: the operator sends it again, at the wallet's next nonce.
    const resent = await send(id);
    expect(resent.created).toBe(true);
    await trackUntilSettled();
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
    expect(await receiverBalance(to)).toBe(usdt('56'));
    await everyInvariantHolds();
  });

  it('short of USDT: refused before signing; reverted when it leaves meanwhile, then back in the queue and paid by a new send', async () => {
    const { member, id, to } = await pendingWithdrawal(ctx, '90');
    // The wallet is emptied by a transaction of its own made elsewhere (the nonce moves outside our records).
    const balance = await usdtBalance(setup.chain, setup.token, setup.account.address);
    const wallet = createWalletClient({
      account: setup.account,
      chain: polygon,
      transport: http(setup.chain.url),
    });
    const drain = await wallet.writeContract({
      address: setup.token,
      abi: testUsdtAbi,
      functionName: 'transfer',
      args: ['0x000000000000000000000000000000000000dEaD', balance - usdt('10')],
    });
    await setup.chain.public.waitForTransactionReceipt({ hash: drain });
    // The reconciliation sees it leave as no payout of ours, until an operator explains it.
    await mine(3);
    expect((await payoutReconciliation(deps())) as object).toMatchObject({
      mismatches: [{ kind: 'unknownTransfer', txHash: drain }],
    });
    await explainTransfer(deps(), {
      txHash: drain,
      reason: 'Test: the float moved out by hand',
      actor: { userId: operatorId, label: operatorEmail },
      requestId: null,
    });
    expect((await payoutReconciliation(deps())) as object).toMatchObject({
      mismatches: [],
      explained: { count: 1 },
    });
    const ledgerBefore = await moneyOf(ctx, member, id);

    // 10 USDT left for 90: the send is refused with the figures, nothing signed, no nonce taken.
    const nonceBefore = await walletNonce();
    await expect(send(id)).rejects.toMatchObject({
      messageKey: 'payoutWalletShortUsdt',
      values: { held: '10.000000', needed: '90.000000' },
    });
    expect(await withdrawalPayouts(deps(), Number(id))).toEqual([]);
    expect(await walletNonce()).toBe(nonceBefore);

    // Covered when checked, gone before its block: the wallet let another account spend its USDT, and
    // that account's transfer, sent just before ours, is mined ahead of it in the same block.
    await mintUsdt(setup.chain, setup.token, setup.account.address, usdt('100'));
    const taken = await takeFromWalletInNextBlock(setup, usdt('100'));
    // Still in the mempool: the balance the send reads covers it.
    const { payout } = await send(id);
    await mine(1);
    await setup.chain.test.setAutomine(true);
    await trackUntilSettled();
    // That transfer left the wallet too: explained, as an operator would.
    await mine(3);
    await payoutReconciliation(deps());
    await explainTransfer(deps(), {
      txHash: taken,
      reason: 'Test: taken by an approved spender',
      actor: { userId: operatorId, label: operatorEmail },
      requestId: null,
    });
    const [reverted] = await withdrawalPayouts(deps(), Number(id));
    expect(reverted).toMatchObject({ id: payout.id, state: 'reverted' });
    expect(reverted?.failureReason).toContain('USDT: transfer amount exceeds balance');
    expect(await getWithdrawal(deps(), id)).toMatchObject({ status: 'pending', txHash: null });
    expect(await moneyOf(ctx, member, id)).toEqual(ledgerBefore);
    // Its hash paid nothing: an operator who takes it from the queue for a payment by hand is refused.
    await expect(
      approveWithdrawal(deps(), { id, txHash: reverted?.txHash ?? '', operatorId }),
    ).rejects.toMatchObject({ messageKey: 'txHashIsPayout', values: { withdrawal: id } });
    expect(await receiverBalance(to)).toBe(0n);
    await everyInvariantHolds();

    // Funded again, the operator sends again: a new payout at a new nonce pays it.
    await mintUsdt(setup.chain, setup.token, setup.account.address, usdt('1000'));
    const resent = await send(id);
    expect(resent.created).toBe(true);
    expect(resent.payout.id).not.toBe(payout.id);
    expect(resent.payout.nonce).toBe(payout.nonce + 1);
    await trackUntilSettled();
    expect((await withdrawalPayouts(deps(), Number(id))).map((view) => view.state)).toEqual([
      'confirmed',
      'reverted',
    ]);
    expect(await receiverBalance(to)).toBe(usdt('90'));
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
    await everyInvariantHolds();
  });
});

describe('operator commands', () => {
  it('payouts:send sends and audits under its operator; payouts:list and payouts:wallet show the state', async () => {
    const { id, to } = await pendingWithdrawal(ctx, '53');
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
    const actor = { userId: operatorId, label: operatorEmail };
    expect(await payoutsSend.run(ctx.deps, [id, '999999'], io, actor)).toBe(1);
    expect(out.join('\n')).toMatch(new RegExp(`Withdrawal ${id} sent: payout \\d+, 53.000000 USDT to ${to}`));
    expect(err.join('\n')).toContain('Withdrawal 999999 refused');
    const audit = await listAudit(ctx.db, { page: 1, pageSize: 5 });
    expect(audit.rows[0]).toMatchObject({
      action: 'withdrawal.send',
      target: `withdrawal:${id}`,
      actor: operatorEmail,
    });

    await trackUntilSettled();
    out.length = 0;
    expect(await payoutsList.run(ctx.deps, ['--state', 'confirmed', '--limit', '1'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/confirmed .*53\.000000 USDT/);
    out.length = 0;
    expect(await payoutsWallet.run(ctx.deps, [], io)).toBe(0);
    const status = await walletStatus(deps());
    expect(out.join('\n')).toContain(`Wallet ${setup.account.address}`);
    expect(out.join('\n')).toContain(`USDT ${status.tokenBalance}`);
    expect(status.inFlight).toEqual({ count: 0, amount: '0.000000' });
  });
});

describe('the tracker loop the server runs', () => {
  it('follows a payout to completion on its own, and stops', async () => {
    const { id } = await pendingWithdrawal(ctx, '56');
    await send(id);
    await whileTrackerRuns(
      ctx,
      setup.chain,
      async () => (await getWithdrawal(deps(), id)).status !== 'pending',
    );
    expect((await getWithdrawal(deps(), id)).status).toBe('completed');
    await everyInvariantHolds();
  });
});

describe('ledger:check', () => {
  it('notices a confirmed payout that disagrees with the withdrawal it completed', async () => {
    const { id } = await pendingWithdrawal(ctx, '54');
    const { payout } = await send(id);
    await trackUntilSettled();
    await everyInvariantHolds();
    const other = `0x${'ef'.repeat(32)}`;
    await ctx.db.execute(sql`update payouts set mined_hash = ${other} where id = ${payout.id}`);
    expect((await checkPayoutInvariants(ctx.db)).map((problem) => problem.invariant)).toEqual([
      'a confirmed payout completes its withdrawal with its hash, amount and address',
    ]);
    await ctx.db.execute(sql`update payouts set mined_hash = ${payout.txHash} where id = ${payout.id}`);
    await everyInvariantHolds();
  });
});

describe('without a payout key', () => {
  it('sending is refused and the manual flow is unchanged', async () => {
    const { member, id } = await pendingWithdrawal(ctx, '50');
    const manual = { ...ctx.deps, config: { ...ctx.deps.config, payouts: { enabled: false as const } } };
    const error = await sendWithdrawal(manual, { id, operatorId, via: 'console' }).catch(
      (caught: unknown) => caught,
    );
    expect((error as AppError).messageKey).toBe('payoutsOff');
    const hash = `0x${'cd'.repeat(32)}`;
    const { after } = await approveWithdrawal(manual, { id, txHash: hash, operatorId });
    expect(after).toMatchObject({ status: 'completed', txHash: hash });
    expect(await moneyOf(ctx, member, id)).toMatchObject({ hold: 0n });
    const balances = await balancesOf(ctx.db, [accountCode.payout]);
    expect(balances.get(accountCode.payout)).toBeGreaterThan(0n);
    const out: string[] = [];
    expect(await payoutsWallet.run(manual, [], { out: (line) => out.push(line), err: () => {} })).toBe(0);
    expect(out.join('')).toContain('not configured');
    expect(
      await memberCall(ctx, member, '/elex/exchange/depositRecord', { page: 1, pageSize: 5 }),
    ).toMatchObject({
      content: { records: [{ id, status: 'completed', txHash: hash }] },
    });
    await everyInvariantHolds();
  });
});
