/**
 * CPU per member call, app and PostgreSQL backends (issue 14): on 2 shared cores p99 at -c 50 follows
 * throughput, which follows CPU per call; req/s moves with whatever else runs, CPU time much less.
 * BENCH_REUSE=<kept bench database> BENCH_COMPARE=<another checkout> node --import tsx cpu-per-call.ts
 * starts both apps (MEMBER_CACHE=off) on that database and, per call and round, runs BENCH_CPU_CALLS
 * (default 3,000) calls at -c 10 against each in turn, reading /proc/<pid>/stat (utime + stime) of the
 * app and of its PostgreSQL backends (found by the connections' ports) before and after.
 * BENCH_CALLS picks calls by label (a regular expression). Not part of `npm test`.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { queryText } from '../apps/server/src/db/prepared.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { startSession } from '../apps/server/src/modules/auth/sessions.js';
import { API } from '../packages/contract/src/api-paths.js';

const url = process.env.BENCH_REUSE as string;
const compare = process.env.BENCH_COMPARE as string;
const CALLS = Number(process.env.BENCH_CPU_CALLS ?? 3000);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const TICK_MS = 1000 / 100;

const config = loadConfig({
  NODE_ENV: 'production',
  APP_SECRET: 'bench-secret-not-used',
  LOG_LEVEL: 'silent',
});

async function member(email: string) {
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    const [row] = await queryText<{ id: number; uids: string[] }>(
      handle.db,
      `select u.id, array_agg(b.uid order by b.uid) as uids from users u
       join exchange_bindings b on b.user_id = u.id and b.unbound_at is null where u.email = $1 group by u.id`,
      [email],
    );
    if (!row) throw new Error(`no ${email}`);
    const deps = { config, db: handle.db, databaseKind: handle.kind, clock: systemClock };
    return { token: await handle.db.transaction((tx) => startSession(tx, deps, row.id)), uids: row.uids };
  } finally {
    await handle.close();
  }
}

function start(script: string): { child: ChildProcess; port: Promise<number> } {
  const child = fork(script, ['app'], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: url,
      MEMBER_CACHE: 'off',
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    child,
    port: new Promise((resolve) => child.once('message', (m) => resolve((m as { port: number }).port))),
  };
}

const ticks = (pid: number) => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
};

/** The PostgreSQL backends serving this app's connections: the app's sockets to 5432, by local port. */
function backendsOf(appPid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${appPid}/fd`)) {
    try {
      const link = fs.readlinkSync(`/proc/${appPid}/fd/${fd}`);
      if (link.startsWith('socket:[')) inodes.add(link.slice(8, -1));
    } catch {}
  }
  const ports = ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[2]?.endsWith(':1538') && inodes.has(fields[9] ?? ''))
    .map((fields) => String(Number.parseInt(fields[1]?.split(':')[1] ?? '', 16)));
  const pids: number[] = [];
  for (const dir of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(dir)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${dir}/cmdline`, 'utf8');
      if (cmd.startsWith('postgres:') && ports.some((port) => cmd.includes(`(${port})`)))
        pids.push(Number(dir));
    } catch {}
  }
  return pids;
}

async function run(port: number, token: string, call: { path: string; body: unknown }, amount: number) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${call.path}`,
    method: 'POST',
    connections: 10,
    amount,
    body: JSON.stringify(call.body),
    headers: { 'content-type': 'application/json', lang: 'en', token },
  });
  return result.non2xx + result.errors;
}

const heavy = await member('bench-heavy@example.com');
const typical = await member('bench-typical@example.com');
const apps = [
  { label: 'before', ...start(path.resolve(compare, 'bench/data-target.ts')) },
  { label: 'after', ...start(path.resolve(import.meta.dirname, 'data-target.ts')) },
];
const ports = await Promise.all(apps.map((app) => app.port));
const calls = [
  { label: 'withdrawable heavy', token: heavy.token, path: API.userWithdrawable, body: {} },
  { label: 'withdrawable typical', token: typical.token, path: API.userWithdrawable, body: {} },
  {
    label: 'seeRebateByExchangeId heavy',
    token: heavy.token,
    path: API.userSeeRebateByExchangeId,
    body: { platId: 4, uid: heavy.uids[0] },
  },
  {
    label: 'seeRebateByExchangeId typical',
    token: typical.token,
    path: API.userSeeRebateByExchangeId,
    body: { platId: 4, uid: typical.uids[0] },
  },
  {
    label: 'seeRebateData page 1 heavy',
    token: heavy.token,
    path: API.userSeeRebateData,
    body: { page: 1, pageSize: 20 },
  },
].filter((call) => !process.env.BENCH_CALLS || new RegExp(process.env.BENCH_CALLS).test(call.label));
console.log(
  `CPU per call (ms), ${CALLS} calls at -c 10, MEMBER_CACHE=off; load ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}`,
);
try {
  for (const call of calls) {
    const lines = apps.map(() => [] as string[]);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, app] of apps.entries()) {
        const port = ports[index] as number;
        const pid = app.child.pid as number;
        await run(port, call.token, call, 300);
        const backends = backendsOf(pid);
        const before = { app: ticks(pid), pg: backends.map(ticks) };
        const failed = await run(port, call.token, call, CALLS);
        const appMs = ((ticks(pid) - before.app) * TICK_MS) / CALLS;
        const now = backendsOf(pid);
        const pgTicks = now.reduce((sum, b) => {
          const at = backends.indexOf(b);
          return sum + ticks(b) - (at === -1 ? 0 : (before.pg[at] as number));
        }, 0);
        lines[index]?.push(
          `${appMs.toFixed(3)}/${((pgTicks * TICK_MS) / CALLS).toFixed(3)}${failed ? ` (${failed} failed)` : ''}`,
        );
      }
    }
    console.log(
      `  ${call.label.padEnd(32)} ${apps.map((app, i) => `${app.label} app/pg ${lines[i]?.join(' ')}`).join('   ')}`,
    );
  }
  console.log(
    `load after ${os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  );
} finally {
  for (const app of apps) app.child.kill('SIGTERM');
}
