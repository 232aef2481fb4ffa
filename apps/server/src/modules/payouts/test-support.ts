import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Address, createWalletClient, type Hash, type Hex, http, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { expect } from 'vitest';
import type { Config } from '../../config.js';
import { startPayoutTracker } from '../../jobs/payout-tracker.js';
import {
  deployTestUsdt,
  funderClient,
  type LocalChain,
  mintUsdt,
  setGasBalance,
  startLocalChain,
  testUsdtAbi,
} from '../../test/chain/local-chain.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { applyDeposit, fundedMember, ownCode, type TestMember } from '../withdrawals/test-support.js';
import type { PayoutConfig } from './payouts.config.js';
import { listPayouts, type PayoutDeps } from './payouts.service.js';
import { PAYOUT_IN_FLIGHT } from './payouts.tables.js';
import { trackPayouts } from './payouts.track.js';

/**
 * Test helpers for on-chain payouts: the local chain with a fresh test USDT, a funded payout wallet
 * (a fresh key per test file, so files never share nonces), its configuration, and members with a
 * pending withdrawal made through the real request flow.
 */

export interface PayoutTestChain {
  chain: LocalChain;
  token: Address;
  key: Hex;
  account: LocalAccount;
}

/** Starts (or reuses) this process's chain, deploys a test USDT and funds a new wallet with gas and USDT. */
export async function payoutTestChain(options: { usdt?: bigint } = {}): Promise<PayoutTestChain> {
  const chain = await startLocalChain();
  const token = await deployTestUsdt(chain);
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  await setGasBalance(chain, account.address, 10n ** 21n);
  await mintUsdt(chain, token, account.address, options.usdt ?? 100_000_000_000n);
  return { chain, token, key, account };
}

/**
 * A JSON-RPC endpoint in front of `target` that answers every receipt as not found while told to: a
 * backend whose receipts lag behind its blocks, as behind a load balancer or a fallback URL.
 */
export async function receiptHidingProxy(target: string) {
  let hiding = false;
  const answer = async (call: { id?: unknown; method?: string }) =>
    hiding && call.method === 'eth_getTransactionReceipt'
      ? { jsonrpc: '2.0', id: call.id, result: null }
      : undefined;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as
      | { id?: unknown; method?: string }
      | Array<{ id?: unknown; method?: string }>;
    const hidden = Array.isArray(parsed) ? undefined : await answer(parsed);
    const text = hidden
      ? JSON.stringify(hidden)
      : await (
          await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        ).text();
    response.writeHead(200, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hideReceipts(on: boolean) {
      hiding = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * USDT leaving the wallet ahead of our next payout: another account the wallet approved takes `micro`
 * with a transfer left in the mempool (automine is switched off here), so a payout sent next sees the
 * balance still there and is mined behind it in the same block. The caller mines, then switches
 * automine back on. Answers the taking transfer's hash.
 */
export async function takeFromWalletInNextBlock(setup: PayoutTestChain, micro: bigint): Promise<Hash> {
  const wallet = createWalletClient({
    account: setup.account,
    chain: polygon,
    transport: http(setup.chain.url),
  });
  const spender = funderClient(setup.chain);
  const approval = await wallet.writeContract({
    address: setup.token,
    abi: testUsdtAbi,
    functionName: 'approve',
    args: [spender.account.address, micro],
  });
  await setup.chain.public.waitForTransactionReceipt({ hash: approval });
  await setup.chain.test.setAutomine(false);
  return spender.writeContract({
    address: setup.token,
    abi: testUsdtAbi,
    functionName: 'transferFrom',
    args: [setup.account.address, '0x000000000000000000000000000000000000dEaD', micro],
    gas: 100_000n,
  });
}

export function payoutConfig(
  setup: PayoutTestChain,
  overrides: Partial<Extract<PayoutConfig, { enabled: true }>> = {},
): PayoutConfig {
  return {
    enabled: true,
    account: async () => setup.account,
    rpcUrls: [setup.chain.url],
    chainId: 137,
    tokenAddress: setup.token,
    confirmations: 3,
    feeBumpPercent: 20,
    maxFeePerGas: 10n ** 12n,
    stuckAfterMs: 60_000,
    pollMs: 50,
    scanFromBlock: null,
    fastLane: null,
    ...overrides,
  };
}

export const payoutOverrides = (setup: PayoutTestChain): Partial<Config> => ({
  payouts: payoutConfig(setup),
});

/** A member (English unless said) with a pending withdrawal of `amount` USDT to a fresh address of theirs. */
export async function pendingWithdrawal(
  ctx: CashbackTestContext,
  amount: string,
  options: { lang?: 'en' | 'zh' | 'ko' } = {},
): Promise<{ member: TestMember; id: string; to: Address }> {
  const member = await fundedMember(ctx, {
    cashback: amount,
    ...(options.lang ? { lang: options.lang } : {}),
  });
  const to = privateKeyToAccount(generatePrivateKey()).address;
  const authCode = await ownCode(ctx, member);
  const answer = await applyDeposit(ctx, member, { amount, authCode, address: to });
  expect(answer).toMatchObject({ state: 0 });
  return { member, id: (answer.content as { id: string }).id, to };
}

/**
 * Tracker passes (the server runs them every few seconds), mining a block between them, until no
 * payout is in flight or `passes` ran.
 */
export async function settlePayouts(deps: PayoutDeps, chain: LocalChain, passes = 10) {
  for (let pass = 0; pass < passes; pass += 1) {
    await trackPayouts(deps);
    const views = await listPayouts(deps, { limit: 1000 });
    if (!views.some((view) => PAYOUT_IN_FLIGHT.includes(view.state))) return;
    await chain.test.mine({ blocks: 1 });
  }
}

/**
 * Runs the server's tracker loop (every 20 ms), mining a block every 25 ms, until `done` answers true
 * or 200 rounds passed; then stops the loop.
 */
export async function whileTrackerRuns(
  ctx: CashbackTestContext,
  chain: LocalChain,
  done: () => Promise<boolean>,
) {
  const tracker = startPayoutTracker(ctx.deps, { log: ctx.app.log, intervalMs: 20 });
  try {
    for (let round = 0; round < 200 && !(await done()); round += 1) {
      await chain.test.mine({ blocks: 1 });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await tracker.stop();
  }
}
