import { sql } from 'drizzle-orm';
import { createWalletClient, http } from 'viem';
import { polygon } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testUsdtAbi } from '../../test/chain/local-chain.js';
import { operatorActor } from '../admin/audit.service.js';
import { revokeOperator } from '../admin/operators.service.js';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { createWithdrawalTestApp, usdt } from '../withdrawals/test-support.js';
import { checkPayoutInvariants } from './payouts.check.js';
import { payoutsReconcile } from './payouts.commands.js';
import {
  explainTransfer,
  payoutReconciliation,
  SCAN_CHUNK_BLOCKS,
  scanWalletTransfers,
} from './payouts.reconciliation.js';
import { sendWithdrawal } from './payouts.send.js';
import { trackPayouts } from './payouts.track.js';
import { type PayoutTestChain, payoutOverrides, payoutTestChain, pendingWithdrawal } from './test-support.js';

/**
 * Reconciliation of the payout wallet against a real local chain (issue 17): the token's Transfer logs
 * out of the wallet, read in final blocks only, each matched to exactly one payout; a transfer made
 * with the wallet's key outside the product, and records made to lie, are listed in the console's
 * call, by the command (exit 1) and by the ledger check.
 */
let setup: PayoutTestChain;
let ctx: CashbackTestContext;
let operator: Caller;
const CONFIRMATIONS = 3;

beforeAll(async () => {
  setup = await payoutTestChain();
  ctx = await createWithdrawalTestApp(payoutOverrides(setup));
  operator = await newOperator(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const mine = (blocks: number) => setup.chain.test.mine({ blocks });

/** A withdrawal sent on chain and followed until confirmed; answers the landed hash. */
async function paidWithdrawal(amount: string): Promise<{ id: string; txHash: string }> {
  const { id } = await pendingWithdrawal(ctx, amount);
  const { payout } = await sendWithdrawal(ctx.deps, { id, operatorId: operator.userId, via: 'console' });
  for (let pass = 0; pass < 10; pass += 1) {
    await trackPayouts(ctx.deps);
    const [row] = rowsOf<{ state: string }>(
      await ctx.db.execute(sql`select state from payouts where id = ${payout.id}`),
    );
    if (row?.state === 'confirmed') return { id, txHash: payout.txHash };
    await mine(1);
  }
  throw new Error('the payout did not confirm');
}

function report() {
  return payoutReconciliation(ctx.deps) as Promise<
    Extract<Awaited<ReturnType<typeof payoutReconciliation>>, { enabled: true }>
  >;
}

async function reconcileCommand() {
  const out: string[] = [];
  const err: string[] = [];
  const code = await payoutsReconcile.run(ctx.deps, [], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('reconciling the payout wallet with the chain', () => {
  it('finds every payout on chain, once, and reads only final blocks', async () => {
    const first = await paidWithdrawal('61');
    const second = await paidWithdrawal('62.5');
    await mine(CONFIRMATIONS);
    const clean = await report();
    expect(clean).toMatchObject({
      enabled: true,
      address: setup.account.address,
      unreachable: null,
      behind: 0,
    });
    expect(clean.transfers).toEqual({ count: 2, amount: '123.500000' });
    expect(clean.mismatches).toEqual([]);
    const seen = rowsOf<{ tx_hash: string }>(await ctx.db.execute(sql`select tx_hash from payout_transfers`));
    expect(seen.map((row) => row.tx_hash).sort()).toEqual([first.txHash, second.txHash].sort());
    expect(await checkPayoutInvariants(ctx.db)).toEqual([]);
    expect(await reconcileCommand()).toMatchObject({
      code: 0,
      out: expect.stringContaining('Every transfer is exactly one payout'),
    });
    // Read again: nothing doubles.
    await scanWalletTransfers(ctx.deps);
    expect((await report()).transfers.count).toBe(2);
  });

  it('lists a transfer made with the wallet key outside the product, everywhere an operator looks', async () => {
    const wallet = createWalletClient({
      account: setup.account,
      chain: polygon,
      transport: http(setup.chain.url),
    });
    const stranger = '0x000000000000000000000000000000000000bEEF';
    const hash = await wallet.writeContract({
      address: setup.token,
      abi: testUsdtAbi,
      functionName: 'transfer',
      args: [stranger, usdt('7')],
    });
    await setup.chain.public.waitForTransactionReceipt({ hash });
    await mine(CONFIRMATIONS);

    const answer = await adminCall(ctx, operator, 'payoutReconciliation');
    expect(answer.state).toBe(0);
    expect(answer.content.mismatches).toEqual([
      expect.objectContaining({
        kind: 'unknownTransfer',
        txHash: hash,
        explorerUrl: `https://polygonscan.com/tx/${hash}`,
        to: stranger,
        amount: '7.000000',
        payoutId: null,
      }),
    ]);
    const command = await reconcileCommand();
    expect(command.code).toBe(1);
    expect(command.out).toContain(`MISMATCH unknownTransfer: tx ${hash}`);
    const problems = await checkPayoutInvariants(ctx.db);
    expect(problems.map((problem) => problem.invariant)).toEqual([
      `every transfer out of the payout wallet ${setup.account.address} is exactly one payout (the chain agrees)`,
    ]);
    expect(problems[0]?.detail).toContain(hash);
    // An operator explains it (float moved to cold storage): no longer a mismatch, on record, audited.
    const ours = rowsOf<{ tx_hash: string }>(
      await ctx.db.execute(sql`select tx_hash from payout_attempts limit 1`),
    );
    expect(
      await adminCall(
        ctx,
        operator,
        'explainTransfer',
        { txHash: ours[0]?.tx_hash, reason: 'Hide it' },
        'en',
      ),
    ).toMatchObject({
      state: 1002,
      message: expect.stringContaining('No transfer out of the payout wallet'),
    });
    expect(await adminCall(ctx, operator, 'explainTransfer', { txHash: hash, reason: '  ' })).toMatchObject({
      state: 1001,
    });
    // An operator who lost the role after the console's (or the command's) check explains nothing:
    // the role is asked again in the explanation's transaction.
    const leaving = await newOperator(ctx);
    expect(
      await revokeOperator(
        ctx.deps,
        leaving.email,
        operatorActor({ userId: operator.userId, email: operator.email }),
      ),
    ).toBe(true);
    await expect(
      explainTransfer(ctx.deps, {
        txHash: hash,
        reason: 'Hide it',
        actor: { userId: leaving.userId, label: leaving.email },
        requestId: null,
      }),
    ).rejects.toMatchObject({ messageKey: 'forbidden' });
    expect((await report()).mismatches).toEqual([expect.objectContaining({ txHash: hash })]);
    expect(
      await adminCall(ctx, operator, 'explainTransfer', {
        txHash: hash.toUpperCase().replace('0X', '0x'),
        reason: 'Float to cold storage',
      }),
    ).toMatchObject({ state: 0, message: 'Transfer explained: it is no longer listed as a mismatch' });
    const after = await report();
    expect(after.mismatches).toEqual([]);
    expect(after.explained).toEqual({ count: 1, amount: '7.000000' });
    // The console lists it with the reason, who gave it and when.
    expect(after.explainedTransfers).toEqual([
      {
        txHash: hash,
        explorerUrl: `https://polygonscan.com/tx/${hash}`,
        to: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        amount: '7.000000',
        block: expect.any(Number),
        reason: 'Float to cold storage',
        by: operator.email,
        at: ctx.clock.now().toISOString(),
      },
    ]);
    expect(await checkPayoutInvariants(ctx.db)).toEqual([]);
    expect((await reconcileCommand()).code).toBe(0);
    const audit = await adminCall(ctx, operator, 'auditLog', {
      action: 'payout.explainTransfer',
      page: 1,
      pageSize: 5,
    });
    expect(audit.content.rows[0]).toMatchObject({
      actor: operator.email,
      target: `transfer:${hash}`,
      after: { explanation: 'Float to cold storage', amount: '7.000000' },
    });
  });

  it('catches records that lie: a different amount, a landed payout marked reverted, a confirmed one not on chain', async () => {
    const { txHash } = await paidWithdrawal('63');
    await mine(CONFIRMATIONS);
    expect((await report()).mismatches).toEqual([]);
    const [payout] = rowsOf<{ id: string; amount_micro: string }>(
      await ctx.db.execute(sql`select p.id, p.amount_micro from payouts p where p.mined_hash = ${txHash}`),
    );
    const payoutId = Number(payout?.id);
    const kinds = async () => (await report()).mismatches.map((mismatch) => mismatch.kind).sort();

    await ctx.db.execute(sql`update payouts set amount_micro = amount_micro + 1 where id = ${payoutId}`);
    expect(await kinds()).toEqual(['transferDiffers']);
    await ctx.db.execute(sql`update payouts set amount_micro = amount_micro - 1 where id = ${payoutId}`);

    await ctx.db.execute(
      sql`update payouts set state = 'reverted', failure_reason = 'tampered' where id = ${payoutId}`,
    );
    expect(await kinds()).toEqual(['paidButNotConfirmed']);
    await ctx.db.execute(
      sql`update payouts set state = 'confirmed', failure_reason = null where id = ${payoutId}`,
    );

    const [kept] = rowsOf<Record<string, unknown>>(
      await ctx.db.execute(sql`select * from payout_transfers where tx_hash = ${txHash}`),
    );
    await ctx.db.execute(sql`delete from payout_transfers where tx_hash = ${txHash}`);
    // The scan does not read those blocks again (they are behind its mark): the record is missing.
    expect(await kinds()).toEqual(['confirmedWithoutTransfer']);
    await ctx.db.execute(sql`
      insert into payout_transfers (chain_id, tx_hash, log_index, from_address, to_address, token_address,
        amount_micro, block_number, seen_at)
      values (${kept?.chain_id}, ${kept?.tx_hash}, ${kept?.log_index}, ${kept?.from_address}, ${kept?.to_address},
        ${kept?.token_address}, ${kept?.amount_micro}, ${kept?.block_number}, now())`);
    expect(await kinds()).toEqual([]);
  });

  it('reads a long stretch of blocks in bounded steps, and two readers at once neither skip nor double', async () => {
    await mine(SCAN_CHUNK_BLOCKS * 2 + 10);
    const first = await scanWalletTransfers(ctx.deps, { maxChunks: 1 });
    expect(first.behind).toBeGreaterThan(SCAN_CHUNK_BLOCKS);
    const [a, b] = await Promise.all([scanWalletTransfers(ctx.deps), scanWalletTransfers(ctx.deps)]);
    expect([a.behind, b.behind]).toEqual([0, 0]);
    const head = Number(await setup.chain.public.getBlockNumber());
    const [wallet] = rowsOf<{ scanned_to_block: string }>(
      await ctx.db.execute(sql`select scanned_to_block from payout_wallets`),
    );
    expect(Number(wallet?.scanned_to_block)).toBe(head - CONFIRMATIONS + 1);
    expect((await report()).mismatches).toEqual([]);
    expect((await report()).transfers.count).toBe(4);
  });
});

describe('reconciling without a payout key', () => {
  it('says payouts are off', async () => {
    const manual = await createWithdrawalTestApp();
    try {
      expect(await payoutReconciliation(manual.deps)).toEqual({ enabled: false });
    } finally {
      await manual.close();
    }
  });
});
