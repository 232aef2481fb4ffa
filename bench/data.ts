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
 *    (apps/server/src/db/member-answers.ts): this measures that path, as a member refreshing sees it;
 *  - every read call a member makes (bench/member-calls.ts), for that typical member and for a heavy
 *    trader whose HEAVY_UIDS UIDs hold BENCH_HEAVY_ROWS of the file's rows (default 12 %: hourly
 *    periods over years, the last day still pending) and who invited FRIENDS members trading on
 *    typical UIDs (their invite bonuses), on the app with member answers kept and without
 *    (MEMBER_CACHE=off). Statistics are what the import left: the bench never runs ANALYZE.
 * PostgreSQL runs when BENCH_DATABASE_URL names a server to create a scratch database on (dropped at
 * the end, kept with BENCH_KEEP=1); PGlite runs unless BENCH_PGLITE=0. BENCH_REUSE=<url of a kept
 * database> measures only the member calls again on it (no import; new sessions for its two members),
 * e.g. before and after a change with BENCH_COMPARE. BENCH_IMPORT_ONLY=1 stops after the import, COPY and
 * ledger:check; with BENCH_COMPARE=<another checkout> it runs that checkout's import and this one's in
 * turns on fresh databases instead (compareImports; BENCH_BEFORE_SQL=<file> runs SQL on the before
 * side's database first, e.g. to undo a migration). Not part of `npm test`.
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
import { queryText } from '../apps/server/src/db/prepared.js';
import { seedPartnerCatalog } from '../apps/server/src/db/seed/seed-catalog.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { insertUserUnlessTaken } from '../apps/server/src/modules/auth/auth.repository.js';
import { startSession } from '../apps/server/src/modules/auth/sessions.js';
import { bindExchangeUid } from '../apps/server/src/modules/bindings/bindings.service.js';
import { checkAllInvariants } from '../apps/server/src/modules/cashback/cashback.check.js';
import { ingestReferrals } from '../apps/server/src/modules/cashback/ingest.service.js';
import { cashbackStatistics } from '../apps/server/src/modules/exchanges/cashback-statistics.js';
import { insertInvitation } from '../apps/server/src/modules/invites/invites.repository.js';
import { type BenchMember, benchMemberCalls } from './member-calls.js';

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
const heavyUidOf = (n: number) => `HEAVY${String(n).padStart(7, '0')}`;
const HOUR_MS = 60 * 60 * 1000;
const HEAVY_UIDS = 4;
/** Members invited by the heavy trader, each holding one typical UID (after the typical member's three). */
const FRIENDS = 200;
const heavyRowsOf = (rows: number) =>
  Math.floor(Number(process.env.BENCH_HEAVY_ROWS ?? rows * 0.12) / HEAVY_UIDS) * HEAVY_UIDS;

/**
 * The figures file: DAYS whole days per typical UID, all ended days ago, then the heavy trader's UIDs
 * in hours up to today's midnight (the last day's still pending: SETTLEMENT_DELAY_HOURS); written
 * once per size and day.
 */
async function generateFile(rows: number): Promise<{ file: string; uids: number; heavyRows: number }> {
  const heavyRows = heavyRowsOf(rows);
  const typicalRows = rows - heavyRows;
  const uids = Math.ceil(typicalRows / DAYS);
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  fs.mkdirSync(workDir, { recursive: true });
  const file = path.join(
    workDir,
    `rebates-${rows}-${heavyRows}-${new Date(today).toISOString().slice(0, 10)}.csv`,
  );
  if (fs.existsSync(file)) return { file, uids, heavyRows };
  const out = fs.createWriteStream(`${file}.part`);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await write('uid,period_start,period_end,trading_volume,fee,commission\n');
  let written = 0;
  for (let day = 0; day < DAYS && written < typicalRows; day += 1) {
    const start = new Date(today - (3 + day) * DAY_MS).toISOString();
    const end = new Date(today - (2 + day) * DAY_MS).toISOString();
    let chunk = '';
    for (let u = 0; u < uids && written < typicalRows; u += 1, written += 1) {
      chunk += `${uidOf(u)},${start},${end},${(u % 500) * 1000 + 250}.5,${(u % 97) + 1}.${String((u * 7919 + day) % 1_000_000).padStart(6, '0')},${(u % 40) + 1}\n`;
      if (chunk.length > 1 << 20) {
        await write(chunk);
        chunk = '';
      }
    }
    await write(chunk);
  }
  for (let h = 0; h < HEAVY_UIDS; h += 1) {
    let chunk = '';
    for (let hour = 0; hour < heavyRows / HEAVY_UIDS; hour += 1) {
      const start = new Date(today - (hour + 1) * HOUR_MS).toISOString();
      const end = new Date(today - hour * HOUR_MS).toISOString();
      chunk += `${heavyUidOf(h)},${start},${end},${(hour % 300) * 700 + 120}.25,${(hour % 13) + 1}.${String((hour * 104_729 + h) % 1_000_000).padStart(6, '0')},${(hour % 9) + 1}\n`;
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
  return { file, uids, heavyRows };
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

interface Prepared {
  typical: BenchMember;
  heavy: BenchMember;
}

/**
 * The roster for every UID of the file; a typical member holding three typical UIDs; the heavy trader
 * holding the heavy UIDs, who invited FRIENDS members each holding one typical UID. Answers their
 * sessions.
 */
async function prepare(engine: Engine, uids: number, heavyRows: number): Promise<Prepared> {
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
    const heavyUids = Array.from({ length: HEAVY_UIDS }, (_, n) => heavyUidOf(n));
    await ingestReferrals(
      deps,
      BITGET,
      heavyUids.map((uid) => ({ uid, registeredAt: new Date(Date.now() - 1800 * DAY_MS) })),
      { kind: 'csv', label: 'bench roster' },
      { settle: false },
    );
    const member = async (name: string, inviterId: number | null, holds: string[]) => {
      const user = await insertUserUnlessTaken(handle.db, {
        email: `bench-${name}@example.com`,
        passwordHash: null,
        userCode: `EX${name.toUpperCase()}`.slice(0, 12),
        inviteCode: `I${name.toUpperCase()}`.slice(0, 12),
        inviterId,
        createdAt: new Date(Date.now() - 300 * DAY_MS),
      });
      if (!user) throw new Error(`bench member ${name} exists already`);
      if (inviterId !== null) {
        await insertInvitation(handle.db, { friendId: user.id, inviterId, createdAt: user.createdAt });
      }
      for (const uid of holds)
        await bindExchangeUid(deps, user.id, { platId: BITGET, uid, address: ADDRESS });
      return user.id;
    };
    const typicalId = await member('typical', null, [0, 1, 2].map(uidOf));
    const heavyId = await member('heavy', null, heavyUids);
    for (let n = 0; n < FRIENDS && 3 + n < uids; n += 1) await member(`f${n}`, heavyId, [uidOf(3 + n)]);
    const session = (userId: number) => handle.db.transaction((tx) => startSession(tx, deps, userId));
    return {
      typical: {
        label: 'typical member',
        token: await session(typicalId),
        platId: BITGET,
        uids: [0, 1, 2].map(uidOf),
        rows: 3 * DAYS,
      },
      heavy: {
        label: `heavy trader (${Math.min(FRIENDS, uids - 3)} friends)`,
        token: await session(heavyId),
        platId: BITGET,
        uids: heavyUids,
        rows: heavyRows,
      },
    };
  } finally {
    await handle.close();
  }
}

function child<T>(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { process: ChildProcess; message: Promise<T> } {
  const process_ = fork(path.resolve(import.meta.dirname, script), args, {
    // BENCH_CPU_PROF=<dir>: each process writes a V8 CPU profile there when it stops.
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
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

/** Runs one import of `file` in its own process (`script`: this tree's import-child or another's). */
async function importIn(engine: Engine, file: string, script = 'import-child.ts') {
  const importer = child<{
    seconds: number;
    maxRssMiB: number;
    status: string;
    inserted: number;
    completed: number;
    problems: unknown[];
  }>(script, [file, String(BITGET)], engine.env);
  const imported = await importer.message;
  await new Promise((resolve) =>
    importer.process.exitCode !== null ? resolve(null) : importer.process.once('exit', resolve),
  );
  return imported;
}

async function benchEngine(engine: Engine, rows: number) {
  console.log(`\n${engine.name}: ${fmt(rows)} rebate rows`);
  const { file, uids, heavyRows } = await generateFile(rows);
  const sizeMiB = fs.statSync(file).size / 2 ** 20;
  const members = await prepare(engine, uids, heavyRows);

  const imported = await importIn(engine, file);
  console.log(
    `  import (${fmt(sizeMiB, 1)} MiB, ${fmt(uids)} UIDs x ${DAYS} days + ${HEAVY_UIDS} x ${fmt(heavyRows / HEAVY_UIDS)} hours): ${imported.status}, ${fmt(imported.inserted)} new, ` +
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
  if (process.env.BENCH_IMPORT_ONLY !== '1') await benchCalls(engine.env, members);
}

/**
 * BENCH_IMPORT_ONLY=1 with BENCH_COMPARE=<another checkout>: the import alone, this tree's and the
 * other's in turns (BENCH_ROUNDS each), each on a fresh database prepared the same way; rows/s and
 * the load average beside each run.
 */
async function compareImports(make: () => Promise<Engine> | Engine, rows: number, other: string) {
  const { file, uids, heavyRows } = await generateFile(rows);
  const runs: Record<'before' | 'after', number[]> = { before: [], after: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const side of ['before', 'after'] as const) {
      const engine = await make();
      try {
        await prepare(engine, uids, heavyRows);
        // Both sides are migrated by this tree; BENCH_BEFORE_SQL (a file) undoes a migration on the
        // before side's database (e.g. 0049's triggers back to the foreign keys), so a schema change is
        // compared whole-import against the schema it replaced.
        const beforeSql = process.env.BENCH_BEFORE_SQL;
        if (side === 'before' && beforeSql && engine.url) {
          const client = new pg.Client({ connectionString: engine.url });
          await client.connect();
          try {
            await client.query(fs.readFileSync(beforeSql, 'utf8'));
          } finally {
            await client.end();
          }
        }
        const script = side === 'before' ? path.resolve(other, 'bench/import-child.ts') : 'import-child.ts';
        const load = os.loadavg()[0]?.toFixed(2);
        const imported = await importIn(engine, file, script);
        runs[side].push(rows / imported.seconds);
        console.log(
          `  round ${round + 1} ${side.padEnd(6)} ${imported.status}, ${fmt(imported.inserted)} new, ${fmt(imported.completed)} settled, ` +
            `${fmt(imported.seconds, 2)} s = ${fmt(rows / imported.seconds)} rows/s, peak RSS ${fmt(imported.maxRssMiB)} MiB (load ${load})`,
        );
      } finally {
        await engine.drop();
      }
    }
  }
  console.log(`  before ${spread(runs.before)} rows/s; after ${spread(runs.after)} rows/s`);
}

/** myInfo against a bare server sending its bytes, then every member call, on the app at `env`'s database. */
async function benchCalls(env: NodeJS.ProcessEnv, members: Prepared) {
  const { token } = members.typical;
  const app = child<{ port: number }>('data-target.ts', ['app'], env);
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
    const compare = process.env.BENCH_COMPARE;
    const beforeScript = compare && path.resolve(compare, 'bench/data-target.ts');
    const others = [
      ...(beforeScript
        ? [
            { label: 'before cached', script: beforeScript, env: {} },
            { label: 'before uncached', script: beforeScript, env: { MEMBER_CACHE: 'off' } },
          ]
        : []),
      {
        label: compare ? 'after uncached' : 'uncached',
        script: 'data-target.ts',
        env: { MEMBER_CACHE: 'off' },
      },
    ].map((other) => ({
      ...other,
      started: child<{ port: number }>(other.script, ['app'], { ...env, ...other.env }),
    }));
    try {
      const targets = [{ label: compare ? 'after cached' : 'cached', url: new URL(appUrl).origin }];
      for (const other of others) {
        targets.push({ label: other.label, url: `http://127.0.0.1:${(await other.started.message).port}` });
      }
      await benchMemberCalls(targets, [members.heavy, members.typical]);
    } finally {
      for (const other of others) await stop(other.started.process);
    }
  } finally {
    await stop(app.process);
  }
}

/** The kept database's two members, found by the addresses prepare() gave them, with new sessions. */
async function reuseMembers(url: string): Promise<Prepared> {
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  try {
    const deps = { config, db: handle.db, databaseKind: handle.kind, clock: systemClock };
    const found = async (name: string) => {
      const [row] = await queryText<{ id: number; uids: string[]; rows: string }>(
        handle.db,
        `select u.id, array_agg(b.uid order by b.uid) as uids,
           (select count(*) from rebates r where r.uid = any(array_agg(b.uid))) as rows
         from users u join exchange_bindings b on b.user_id = u.id and b.unbound_at is null
         where u.email = $1 group by u.id`,
        [`bench-${name}@example.com`],
      );
      if (!row) throw new Error(`${url} has no bench-${name} member: was it kept by bench:data?`);
      const token = await handle.db.transaction((tx) => startSession(tx, deps, row.id));
      return { token, platId: BITGET, uids: row.uids, rows: Number(row.rows) };
    };
    const heavy = await found('heavy');
    return {
      typical: { label: 'typical member', ...(await found('typical')) },
      heavy: { label: `heavy trader (${FRIENDS} friends)`, ...heavy },
    };
  } finally {
    await handle.close();
  }
}

export async function benchData() {
  console.log(
    `\nData path (issue 14); load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const reuse = process.env.BENCH_REUSE;
  if (reuse) {
    console.log(`\nPostgreSQL: the kept database ${new URL(reuse).pathname.slice(1)}, member calls only`);
    await benchCalls({ DATABASE_URL: reuse }, await reuseMembers(reuse));
    return;
  }
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
    const compare = process.env.BENCH_COMPARE;
    if (process.env.BENCH_IMPORT_ONLY === '1' && compare) {
      console.log(`\nimports of ${fmt(rows)} lines, this tree (after) and ${compare} (before) in turns`);
      await compareImports(make, rows, compare);
      continue;
    }
    const engine = await make();
    try {
      await benchEngine(engine, rows);
    } finally {
      // BENCH_KEEP=1 leaves the data for EXPLAIN and repeated runs of the calls.
      if (process.env.BENCH_KEEP === '1') console.log(`  kept: ${engine.url ?? JSON.stringify(engine.env)}`);
      else await engine.drop();
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
