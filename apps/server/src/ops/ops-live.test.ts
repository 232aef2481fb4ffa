import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/client.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import { auditLog, operators, referrals, withdrawals } from '../db/schema.js';
import { seedPartnerCatalog } from '../db/seed/seed-catalog.js';
import { ManualClock } from '../lib/clock.js';
import { checkAllInvariants } from '../modules/cashback/cashback.check.js';
import { BITGET, type CashbackTestContext, createMember } from '../modules/cashback/test-support.js';
import { applyDeposit, fundedMember, ownCode, type TestMember } from '../modules/withdrawals/test-support.js';
import { runCliProcess, serverRoot } from '../test/cli-process.js';
import { testConfig } from '../test/test-app.js';
import { OPS_SOCKET_NAME } from './ops-socket.js';

/**
 * Issue 12: operator commands beside the running server on embedded PGlite. The real entry point
 * (src/main.ts) serves a temporary DATA_DIR while a member's calls and /healthz run in a loop; the
 * real CLI (src/cli.ts, child processes) grants, imports, pays a withdrawal and checks the ledger
 * meanwhile. Every request must succeed, every command must take effect, and the directory must
 * open clean afterwards. Always on PGlite, whatever TEST_DATABASE_URL says: that is the engine where
 * a second process must never open the directory.
 */
const HASH = `0x${'7c'.repeat(32)}`;
const TIMEOUT = 600_000;

let dir: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let member: TestMember;
let withdrawalId: string;
let opsUser: { id: number; email: string };
let reviewer: { id: number; email: string };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject()));
    });
  });
}

/** Opens the directory in this process (holding its lock) with the app's helpers around it. */
async function withDirectory<T>(use: (ctx: CashbackTestContext) => Promise<T>): Promise<T> {
  const unlock = lockDataDir(dataDir);
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const clock = new ManualClock(new Date());
  const config = testConfig();
  const app = await buildApp({ config, database, clock, logger: false });
  const ctx = { app, clock, config, db: database.db, deps: app.deps, close: async () => {} };
  try {
    return await use(ctx);
  } finally {
    await app.close();
    await database.close();
    unlock();
  }
}

interface Server {
  process: ChildProcessWithoutNullStreams;
  url: string;
  exited: Promise<number | null>;
  output(): string;
}

async function startServer(): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: { ...env, PORT: String(port) },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  for (;;) {
    if (done) throw new Error(`the server exited before serving:\n${output}`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    // Serving and taking commands: the socket opens before the port.
    if (ok) return { process: child, url, exited, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runCliProcess(args, {
    env: { ...env, ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
}

/** A member and the probe polling the server without pause until stopped; every answer kept. */
function traffic(url: string, token: string) {
  const answers: Array<{ call: string; ok: boolean; detail: string }> = [];
  let running = true;
  const loop = (async () => {
    for (let turn = 0; running; turn += 1) {
      const call = turn % 2 === 0 ? '/healthz' : '/elex/exchange/depositRecord';
      try {
        const response =
          call === '/healthz'
            ? await fetch(`${url}${call}`)
            : await fetch(`${url}${call}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', token },
                body: JSON.stringify({ page: 1, pageSize: 10 }),
              });
        const text = await response.text();
        const ok = response.ok && (call === '/healthz' || JSON.parse(text).state === 0);
        answers.push({ call, ok, detail: `${response.status} ${text.slice(0, 200)}` });
      } catch (error) {
        answers.push({ call, ok: false, detail: String(error) });
      }
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
      return answers;
    },
  };
}

async function stopServer(server: Server) {
  server.process.kill('SIGTERM');
  return server.exited;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-ops-live-'));
  dataDir = path.join(dir, 'data');
  env = {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dir, 'no-site'),
    SYNC_ENABLED: 'false',
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  delete env.ELEX_OPERATOR;
  // Before the server: members, one of them with a pending withdrawal (no operator exists yet).
  await withDirectory(async (ctx) => {
    await seedPartnerCatalog(ctx.db);
    opsUser = await createMember(ctx, { email: 'night-shift@example.com' });
    reviewer = await createMember(ctx, { email: 'reviewer@example.com' });
    member = await fundedMember(ctx, { cashback: '120' });
    const applied = await applyDeposit(ctx, member, { amount: '50', authCode: await ownCode(ctx, member) });
    expect(applied.state).toBe(0);
    withdrawalId = applied.content?.id as string;
  });
  fs.writeFileSync(
    path.join(dir, 'roster.csv'),
    'uid,registered_at\nLIVE0001,2026-01-02T00:00:00Z\nLIVE0002,2026-01-02T00:00:00Z\nLIVE0003,2026-01-03T00:00:00Z\n',
  );
}, TIMEOUT);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('operator commands beside the running server (embedded PGlite)', () => {
  it(
    'run through the server while it keeps answering every request',
    async () => {
      const server = await startServer();
      try {
        expect(fs.statSync(path.join(dataDir, OPS_SOCKET_NAME)).mode & 0o777).toBe(0o600);
        const load = traffic(server.url, member.token);

        // The bootstrap: no operator exists, so the first grant needs none.
        const bootstrap = await runCli(['admin:grant', opsUser.email], { env: { USER: 'night-shift' } });
        expect(bootstrap).toMatchObject({ code: 0, stdout: `${opsUser.email} is now an operator.\n` });
        const granted = await runCli(['admin:grant', reviewer.email, '--operator', opsUser.email]);
        expect(granted).toMatchObject({ code: 0, stderr: '' });

        // A file named relative to the operator's shell, read by the server.
        const imported = await runCli(
          ['referrals:import', 'bitget', 'roster.csv', `--operator=${opsUser.id}`],
          {
            cwd: dir,
          },
        );
        expect(imported.stderr).toBe('');
        expect(imported).toMatchObject({ code: 0 });
        expect(imported.stdout).toContain('Imported roster.csv: 3 row(s), 3 new, 0 already known');

        const unnamed = await runCli(['withdrawals:approve', withdrawalId, '--tx', HASH]);
        expect(unnamed).toMatchObject({
          code: 2,
          stderr:
            'withdrawals:approve changes data: name the operator running it with --operator <email|id> or ELEX_OPERATOR.\n',
        });
        const paid = await runCli(['withdrawals:approve', withdrawalId, '--tx', HASH], {
          env: { ELEX_OPERATOR: reviewer.email },
        });
        expect(paid).toMatchObject({ code: 0, stderr: '' });
        expect(paid.stdout).toContain(`Withdrawal ${withdrawalId} paid: 50.000000 USDT`);

        const checked = await runCli(['ledger:check']);
        expect(checked).toMatchObject({ code: 0, stderr: '' });
        expect(checked.stdout).toContain('Ledger OK: every invariant holds');

        // The member sees the decision at once, from the same server.
        const record = await fetch(`${server.url}/elex/exchange/depositRecord`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: member.token },
          body: JSON.stringify({ page: 1, pageSize: 10 }),
        }).then((response) => response.json());
        expect(JSON.stringify(record)).toContain(HASH);

        const answers = await load.stop();
        expect(answers.filter((answer) => !answer.ok)).toEqual([]);
        expect(answers.filter((answer) => answer.call === '/healthz').length).toBeGreaterThan(5);
        expect(answers.filter((answer) => answer.call !== '/healthz').length).toBeGreaterThan(5);
        expect(server.output()).not.toMatch(/"level":(50|60)/);
      } finally {
        expect(await stopServer(server)).toBe(0);
      }

      // The commands' effects, read from the directory itself once the server let it go.
      await withDirectory(async (ctx) => {
        const audit = await ctx.db
          .select({ action: auditLog.action, actorId: auditLog.actorId, actor: auditLog.actor })
          .from(auditLog)
          .orderBy(asc(auditLog.id));
        expect(audit).toEqual([
          { action: 'operator.grant', actorId: null, actor: 'bootstrap:cli:night-shift' },
          { action: 'operator.grant', actorId: opsUser.id, actor: opsUser.email },
          { action: 'import.referrals', actorId: opsUser.id, actor: opsUser.email },
          { action: 'withdrawal.approve', actorId: reviewer.id, actor: reviewer.email },
        ]);
        expect((await ctx.db.select().from(operators)).map((row) => row.userId).sort()).toEqual(
          [opsUser.id, reviewer.id].sort(),
        );
        expect(await ctx.db.select().from(referrals).where(eq(referrals.platId, BITGET))).toEqual(
          expect.arrayContaining([expect.objectContaining({ uid: 'LIVE0002' })]),
        );
        const [paid] = await ctx.db
          .select()
          .from(withdrawals)
          .where(eq(withdrawals.id, Number(withdrawalId)));
        expect(paid).toMatchObject({ status: 'completed', decidedBy: reviewer.id, decidedVia: 'cli' });
        expect(await checkAllInvariants(ctx.db)).toEqual([]);
      });
    },
    TIMEOUT,
  );

  it(
    'never lets a second writer open the directory the server holds',
    async () => {
      const server = await startServer();
      try {
        // A second server is refused before it opens anything.
        const second = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          cwd: serverRoot,
          env: { ...env, PORT: String(await freePort()) },
        });
        let secondOutput = '';
        second.stderr.on('data', (chunk: Buffer) => {
          secondOutput += chunk.toString();
        });
        expect(await new Promise((resolve) => second.on('close', resolve))).toBe(1);
        expect(secondOutput).toContain(`is in use by process ${server.process.pid}`);

        // A server that cannot take commands (its socket gone): the CLI refuses rather than open the
        // directory beside it.
        fs.rmSync(path.join(dataDir, OPS_SOCKET_NAME));
        const refused = await runCli(['ledger:check']);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          `Process ${server.process.pid} holds ${dataDir} but takes no commands`,
        );
        expect(refused.stdout).toBe('');
        expect((await fetch(`${server.url}/healthz`)).ok).toBe(true);
      } finally {
        expect(await stopServer(server)).toBe(0);
      }
      expect(fs.existsSync(path.join(dataDir, 'elex.lock'))).toBe(false);

      // Alone again, the CLI opens the directory itself: clean, the ledger whole.
      const checked = await runCli(['ledger:check']);
      expect(checked).toMatchObject({ code: 0, stderr: '' });
      expect(checked.stdout).toContain('Ledger OK: every invariant holds');
    },
    TIMEOUT,
  );
});
