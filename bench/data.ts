/**
 * The data path at a million rows (issue 14), figures not verdicts:
 *  - a generated rebate CSV (BENCH_IMPORT_ROWS lines, default 1,000,000; PGlite BENCH_PGLITE_ROWS,
 *    default 100,000) for UIDs in the roster, imported by the app's flow in its own process: rows/s end
 *    to end (ledger, settlement and triggers included) and peak RSS; on PostgreSQL beside a plain COPY
 *    of the same file into an unindexed table;
 *  - ledger:check over the result, and one computation of the public statistics (what the background
 *    refresh costs);
 *  - POST /elex/user/myInfo of a member with three bound UIDs at -c 50 against a bare node:http server
 *    answering the very same body, in interleaved rounds (BENCH_ROUNDS, default 3): median and min–max,
 *    as ratios. After the first call the app answers from the session and answer it keeps
 *    (apps/server/src/db/member-answers.ts): this measures that path, as a member refreshing sees it.
 * PostgreSQL runs when BENCH_DATABASE_URL names a server to create a scratch database on (dropped at
 * the end); PGlite runs unless BENCH_PGLITE=0. Not part of `npm test`.
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { type DatabaseTarget, openDatabase } from '../apps/server/src/db/client.js';
import { seedPartnerCatalog } from '../apps/server/src/db/seed/seed-catalog.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { insertUserUnlessTaken } from '../apps/server/src/modules/auth/auth.repository.js';
import { startSession } from '../apps/server/src/modules/auth/sessions.js';
import { bindExchangeUid } from '../apps/server/src/modules/bindings/bindings.service.js';
import { checkAllInvariants } from '../apps/server/src/modules/cashback/cashback.check.js';
import { ingestReferrals } from '../apps/server/src/modules/cashback/ingest.service.js';
import { cashbackStatistics } from '../apps/server/src/modules/exchanges/cashback-statistics.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS = 50;
const BITGET = 4;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const workDir = path.join(os.tmpdir(), 'elex-bench-data');

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
const spread = (values: readonly number[], digits = 0) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;

const uidOf = (n: number) => `BENCH${String(n).padStart(7, '0')}`;

/** The figures file: DAYS whole days per UID, all ended days ago; written once per size and day. */
async function generateFile(rows: number): Promise<{ file: string; uids: number }> {
  const uids = Math.ceil(rows / DAYS);
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  fs.mkdirSync(workDir, { recursive: true });
  const file = path.join(workDir, `rebates-${rows}-${new Date(today).toISOString().slice(0, 10)}.csv`);
  if (fs.existsSync(file)) return { file, uids };
  const out = fs.createWriteStream(`${file}.part`);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await write('uid,period_start,period_end,trading_volume,fee,commission\n');
  let written = 0;
  for (let day = 0; day < DAYS && written < rows; day += 1) {
    const start = new Date(today - (3 + day) * DAY_MS).toISOString();
    const end = new Date(today - (2 + day) * DAY_MS).toISOString();
    let chunk = '';
    for (let u = 0; u < uids && written < rows; u += 1, written += 1) {
      chunk += `${uidOf(u)},${start},${end},${(u % 500) * 1000 + 250}.5,${(u % 97) + 1}.${String((u * 7919 + day) % 1_000_000).padStart(6, '0')},${(u % 40) + 1}\n`;
      if (chunk.length > 1 << 20) {
        await write(chunk);
        chunk = '';
      }
    }
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  fs.renameSync(`${file}.part`, file);
  return { file, uids };
}

interface Engine {
  name: 'PostgreSQL' | 'PGlite';
  target: DatabaseTarget;
  env: NodeJS.ProcessEnv;
  url?: string;
  drop(): Promise<void>;
}

async function postgresEngine(adminUrl: string): Promise<Engine> {
  const name = `elex_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name: 'PostgreSQL',
    target: { kind: 'postgres', url: url.toString(), poolSize: 4 },
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

function pgliteEngine(): Engine {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-bench-pglite-'));
  return {
    name: 'PGlite',
    target: { kind: 'pglite', dataDir },
    env: { DATA_DIR: dataDir },
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const config = loadConfig({
  NODE_ENV: 'production',
  APP_SECRET: 'bench-secret-not-used',
  LOG_LEVEL: 'silent',
});

/** The roster for every UID of the file, and a member holding three of them: answers its token. */
async function prepare(engine: Engine, uids: number): Promise<string> {
  const handle = await openDatabase(engine.target);
  try {
    const deps = { config, db: handle.db, databaseKind: handle.kind, clock: systemClock };
    await seedPartnerCatalog(handle.db);
    const registeredAt = new Date(Date.now() - 400 * DAY_MS);
    for (let from = 0; from < uids; from += 50_000) {
      const part = Array.from({ length: Math.min(50_000, uids - from) }, (_, n) => ({
        uid: uidOf(from + n),
        registeredAt,
      }));
      await ingestReferrals(deps, BITGET, part, { kind: 'csv', label: 'bench roster' }, { settle: false });
    }
    const user = await insertUserUnlessTaken(handle.db, {
      email: 'bench-member@example.com',
      passwordHash: null,
      userCode: 'EXBENCH1',
      inviteCode: 'BENCHINV',
      inviterId: null,
      createdAt: new Date(),
    });
    if (!user) throw new Error('bench member exists already');
    for (const n of [0, 1, 2])
      await bindExchangeUid(deps, user.id, { platId: BITGET, uid: uidOf(n), address: ADDRESS });
    return await handle.db.transaction((tx) => startSession(tx, deps, user.id));
  } finally {
    await handle.close();
  }
}

function child<T>(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { process: ChildProcess; message: Promise<T> } {
  const process_ = fork(path.join(import.meta.dirname, script), args, {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, NODE_ENV: 'production', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const message = new Promise<T>((resolve, reject) => {
    process_.once('message', (value) => resolve(value as T));
    process_.once('exit', (code) => reject(new Error(`${script} exited with code ${code}`)));
  });
  return { process: process_, message };
}

async function stop(process_: ChildProcess) {
  if (process_.exitCode !== null) return;
  const exited = new Promise((resolve) => process_.once('exit', resolve));
  process_.kill('SIGTERM');
  await exited;
}

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
}

async function load(url: string, token: string): Promise<Load> {
  const request = {
    url,
    method: 'POST' as const,
    connections: CONNECTIONS,
    body: '{}',
    headers: { 'content-type': 'application/json', lang: 'en', token },
  };
  await autocannon({ ...request, duration: 1 });
  const result = await autocannon({ ...request, duration: SECONDS });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

async function benchEngine(engine: Engine, rows: number) {
  console.log(`\n${engine.name}: ${fmt(rows)} rebate rows`);
  const { file, uids } = await generateFile(rows);
  const sizeMiB = fs.statSync(file).size / 2 ** 20;
  const token = await prepare(engine, uids);

  const importer = child<{
    seconds: number;
    maxRssMiB: number;
    status: string;
    inserted: number;
    completed: number;
    problems: unknown[];
  }>('import-child.ts', [file, String(BITGET)], engine.env);
  const imported = await importer.message;
  await new Promise((resolve) =>
    importer.process.exitCode !== null ? resolve(null) : importer.process.once('exit', resolve),
  );
  console.log(
    `  import (${fmt(sizeMiB, 1)} MiB, ${fmt(uids)} UIDs x ${DAYS} days): ${imported.status}, ${fmt(imported.inserted)} new, ` +
      `${fmt(imported.completed)} settled, in ${fmt(imported.seconds, 1)} s = ${fmt(rows / imported.seconds)} rows/s; ` +
      `peak RSS of the importing process ${fmt(imported.maxRssMiB)} MiB`,
  );
  if (imported.status !== 'succeeded') console.log('  problems:', JSON.stringify(imported.problems));

  if (engine.url) {
    const started = performance.now();
    const copy = spawnSync(
      'psql',
      [
        engine.url,
        '-q',
        '-c',
        'create table copy_baseline (uid text, period_start timestamptz, period_end timestamptz, trading_volume numeric, fee numeric, commission numeric)',
        '-c',
        `\\copy copy_baseline from '${file}' with (format csv, header true)`,
      ],
      { encoding: 'utf8' },
    );
    const seconds = (performance.now() - started) / 1000;
    if (copy.status === 0) {
      console.log(
        `  baseline: psql \\copy of the same file into an unindexed table: ${fmt(seconds, 1)} s = ${fmt(rows / seconds)} rows/s; ` +
          `import / COPY = ${fmt(seconds / imported.seconds, 3)}`,
      );
    } else console.log(`  baseline COPY failed: ${copy.stderr.trim()}`);
  }

  const handle = await openDatabase(engine.target);
  try {
    let started = performance.now();
    const problems = await checkAllInvariants(handle.db);
    console.log(
      `  ledger:check (every invariant, kept balances included): ${fmt((performance.now() - started) / 1000, 1)} s, ` +
        `${problems.length === 0 ? 'clean' : `${problems.length} broken: ${problems.map((p) => p.invariant).join('; ')}`}`,
    );
    started = performance.now();
    await cashbackStatistics(handle.db, [1, 2, 3, BITGET], new Date());
    console.log(
      `  public statistics, one background refresh: ${fmt(performance.now() - started)} ms (requests are served the last figures meanwhile)`,
    );
  } finally {
    await handle.close();
  }

  const app = child<{ port: number }>('data-target.ts', ['app'], engine.env);
  const appUrl = `http://127.0.0.1:${(await app.message).port}/elex/user/myInfo`;
  try {
    const probe = await fetch(appUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', lang: 'en', token },
      body: '{}',
    });
    const body = await probe.text();
    const bare = child<{ port: number }>('data-target.ts', ['bare'], { BODY: body });
    const bareUrl = `http://127.0.0.1:${(await bare.message).port}/elex/user/myInfo`;
    try {
      const apps: Load[] = [];
      const bares: Load[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        bares.push(await load(bareUrl, token));
        apps.push(await load(appUrl, token));
      }
      console.log(
        `  POST /elex/user/myInfo (3 bindings, ${Buffer.byteLength(body)} B body), -c ${CONNECTIONS}, ${ROUNDS} interleaved rounds of ${SECONDS} s, median (min–max):`,
      );
      console.log(
        `    app   ${spread(apps.map((l) => l.rps))} req/s   p99 ${spread(apps.map((l) => l.p99))} ms`,
      );
      console.log(
        `    bare  ${spread(bares.map((l) => l.rps))} req/s   p99 ${spread(bares.map((l) => l.p99))} ms`,
      );
      const ratios = apps.map((l, index) => l.rps / (bares[index]?.rps ?? 1));
      console.log(`    ratio app / bare (req/s, per round): ${spread(ratios, 3)}`);
      const failed = apps.reduce((sum, l) => sum + l.non2xx, 0);
      if (failed > 0) console.log(`    (${failed} non-2xx answers or errors from the app)`);
    } finally {
      await stop(bare.process);
    }
  } finally {
    await stop(app.process);
  }
}

export async function benchData() {
  console.log(
    `\nData path (issue 14); load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const engines: Array<{ make: () => Promise<Engine> | Engine; rows: number }> = [];
  if (adminUrl)
    engines.push({
      make: () => postgresEngine(adminUrl),
      rows: Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000),
    });
  else
    console.log(
      '  PostgreSQL skipped: set BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)',
    );
  if (process.env.BENCH_PGLITE !== '0')
    engines.push({ make: pgliteEngine, rows: Number(process.env.BENCH_PGLITE_ROWS ?? 100_000) });
  for (const { make, rows } of engines) {
    const engine = await make();
    try {
      await benchEngine(engine, rows);
    } finally {
      await engine.drop();
    }
  }
  console.log(
    `  load average after: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchData();
