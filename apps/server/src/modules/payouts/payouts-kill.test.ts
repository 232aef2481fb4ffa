import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type DatabaseTarget, openDatabase } from '../../db/client.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import { ManualClock } from '../../lib/clock.js';
import { usdtBalance } from '../../test/chain/local-chain.js';
import { runCliProcess } from '../../test/cli-process.js';
import { seedOperator } from '../../test/ops-command.js';
import { createScratchDatabase } from '../../test/scratch-database.js';
import { testConfig } from '../../test/test-app.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { usdt } from '../withdrawals/test-support.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';
import { getWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import { listPayouts, withdrawalPayouts } from './payouts.service.js';
import { trackPayouts } from './payouts.track.js';
import { type PayoutTestChain, payoutConfig, payoutTestChain, pendingWithdrawal } from './test-support.js';

/**
 * `payouts:send` as a child process killed with SIGKILL at the two moments that matter: after the
 * signed transaction is committed and before any node has it, and after the node has it and before
 * the command could record that (the transaction then waits in the mempool, unconfirmed). The child
 * reaches the chain through a JSON-RPC relay that holds `eth_sendRawTransaction` (not passing it on,
 * or passing it on and never answering), so each kill lands exactly there. A restart (the tracker on
 * a fresh connection) completes the withdrawal, and the receiver is paid exactly once.
 */
const OPERATOR = 'payout-kill-operator@example.com';
// Each test starts the CLI as a child process (tsx and a database open: seconds on a loaded machine).

let setup: PayoutTestChain;
let dir: string;
let target: DatabaseTarget;
let env: NodeJS.ProcessEnv;
let dropDatabase = async () => {};
let relay: Relay;

type RelayMode = 'swallow' | 'forwardThenHang';
interface Relay {
  url: string;
  /** Arms the relay for the next eth_sendRawTransaction; settles once it reached the point. */
  arm(mode: RelayMode): Promise<void>;
  close(): Promise<void>;
}

/** A JSON-RPC relay to the chain that holds the next raw transaction as armed. */
async function startRelay(upstream: string): Promise<Relay> {
  let armed: { mode: RelayMode; reached: () => void } | undefined;
  const forward = async (body: string) => {
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return answer.text();
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      void (async () => {
        const method = (JSON.parse(body) as { method?: string }).method;
        if (method === 'eth_sendRawTransaction' && armed) {
          const { mode, reached } = armed;
          armed = undefined;
          if (mode === 'forwardThenHang') await forward(body);
          reached();
          return; // never answered: the child dies waiting
        }
        const text = await forward(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end(text);
      })().catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arm: (mode) =>
      new Promise<void>((resolve) => {
        armed = { mode, reached: resolve };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The app on the shared database (the child has it between our uses), with a hand clock. */
async function openContext(): Promise<CashbackTestContext> {
  const database = await openDatabase(target);
  const clock = new ManualClock();
  const config = testConfig({ payouts: payoutConfig(setup, { confirmations: 2 }) });
  const app = await buildApp({ config, database, clock, logger: false });
  return {
    app,
    clock,
    config,
    db: database.db,
    deps: app.deps,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

async function withContext<T>(use: (ctx: CashbackTestContext) => Promise<T>): Promise<T> {
  const ctx = await openContext();
  try {
    return await use(ctx);
  } finally {
    await ctx.close();
  }
}

const walletNonce = () => setup.chain.public.getTransactionCount({ address: setup.account.address });

beforeAll(async () => {
  setup = await payoutTestChain();
  relay = await startRelay(setup.chain.url);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-payout-kill-'));
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ELEX_OPERATOR: OPERATOR,
    PAYOUT_PRIVATE_KEY: setup.key,
    PAYOUT_RPC_URLS: relay.url,
    PAYOUT_TOKEN_ADDRESS: setup.token,
    PAYOUT_CONFIRMATIONS: '2',
  };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'elex_payout_kill');
    target = { kind: 'postgres', url: scratch.url, poolSize: 3 };
    env = { ...base, DATABASE_URL: scratch.url };
    dropDatabase = scratch.drop;
  } else {
    target = { kind: 'pglite', dataDir: path.join(dir, 'data') };
    env = { ...base, DATA_DIR: path.join(dir, 'data') };
  }
  await withContext(async (ctx) => {
    await seedPartnerCatalog(ctx.db);
    await seedOperator(ctx.deps, OPERATOR);
  });
}, 120_000);

afterAll(async () => {
  await setup.chain.test.setAutomine(true);
  await relay.close();
  await dropDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function settle(ctx: CashbackTestContext) {
  for (let pass = 0; pass < 10; pass += 1) {
    await trackPayouts(ctx.deps);
    const views = await listPayouts(ctx.deps, { limit: 100 });
    if (!views.some((view) => ['signed', 'broadcast', 'mined'].includes(view.state))) return;
    await setup.chain.test.mine({ blocks: 1 });
  }
}

async function invariantsHold(ctx: CashbackTestContext) {
  expect(await checkAllInvariants(ctx.db)).toEqual([]);
  expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
}

describe('payouts:send killed with SIGKILL', () => {
  it('after signing, before broadcast: nothing reached the chain; after restart it is sent and completes once', {
    timeout: 180_000,
  }, async () => {
    const { id, to } = await withContext((ctx) => pendingWithdrawal(ctx, '61'));
    const nonceBefore = await walletNonce();

    const run = await runCliProcess(['payouts:send', id], { env, killWhen: relay.arm('swallow') });
    expect(run.signal).toBe('SIGKILL');

    await withContext(async (ctx) => {
      const [payout] = await withdrawalPayouts(ctx.deps, Number(id));
      // The signed transaction and its nonce were committed before the node was asked.
      expect(payout).toMatchObject({ state: 'signed', nonce: nonceBefore, broadcastAt: null });
      expect(payout?.attempts).toHaveLength(1);
      expect(await walletNonce()).toBe(nonceBefore);
      expect(await usdtBalance(setup.chain, setup.token, to)).toBe(0n);

      // Restart: the tracker broadcasts the recorded bytes (same hash) and follows them to the end.
      await settle(ctx);
      const [final] = await withdrawalPayouts(ctx.deps, Number(id));
      expect(final).toMatchObject({ state: 'confirmed', txHash: payout?.txHash });
      expect(await getWithdrawal(ctx.deps, id)).toMatchObject({
        status: 'completed',
        txHash: payout?.txHash,
      });
      await invariantsHold(ctx);
    });
    expect(await usdtBalance(setup.chain, setup.token, to)).toBe(usdt('61'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
  });

  it('after broadcast, before confirmation: after restart it completes once, and a second send pays nothing more', {
    timeout: 180_000,
  }, async () => {
    const { id, to } = await withContext((ctx) => pendingWithdrawal(ctx, '62'));
    const nonceBefore = await walletNonce();
    await setup.chain.test.setAutomine(false);
    try {
      const run = await runCliProcess(['payouts:send', id], { env, killWhen: relay.arm('forwardThenHang') });
      expect(run.signal).toBe('SIGKILL');

      await withContext(async (ctx) => {
        const [payout] = await withdrawalPayouts(ctx.deps, Number(id));
        // The node has it (waiting in the mempool); the record never heard back.
        expect(payout?.state).toBe('signed');
        expect(
          await setup.chain.public.getTransaction({ hash: payout?.txHash as Hash }).then(() => true),
        ).toBe(true);
        await trackPayouts(ctx.deps);
        expect((await withdrawalPayouts(ctx.deps, Number(id)))[0]?.state).toBe('broadcast');
      });
    } finally {
      await setup.chain.test.setAutomine(true);
    }

    // The operator, unsure, sends it again: the payout on its way is answered, nothing new is signed.
    const again = await runCliProcess(['payouts:send', id], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Withdrawal ${id} already has a payout`);

    await withContext(async (ctx) => {
      await settle(ctx);
      const payouts = await withdrawalPayouts(ctx.deps, Number(id));
      expect(payouts).toHaveLength(1);
      expect(payouts[0]).toMatchObject({ state: 'confirmed' });
      expect(payouts[0]?.attempts).toHaveLength(1);
      expect((await getWithdrawal(ctx.deps, id)).status).toBe('completed');
      await invariantsHold(ctx);
    });
    expect(await usdtBalance(setup.chain, setup.token, to)).toBe(usdt('62'));
    expect(await walletNonce()).toBe(nonceBefore + 1);
  });
});
