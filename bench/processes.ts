import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { staleBuilds } from '../scripts/build-state.mjs';

export const repoRoot = path.resolve(import.meta.dirname, '..');
const builtServer = path.join(repoRoot, 'apps/server/dist/main.js');

/** A server process under measurement: its own process, so autocannon and the server do not share a loop. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident memory now and at its peak (Linux /proc), in bytes. */
  memory(): { rss: number; peak: number };
  /** CPU time (user + system) the process has used so far, in ms (Linux /proc). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** The production server as `npm start` runs it: the build, which must be as new as its sources. */
export function appCommand(): { args: string[]; label: string } {
  const stale = staleBuilds();
  if (stale.length > 0) {
    throw new Error(`the ${stale.join(' and ')} build is missing or stale: run \`npm run build\` first`);
  }
  // BENCH_CPU_PROF=<dir>: each app process writes a V8 CPU profile there when it stops (where the time goes).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  return { args: [...profile, builtServer], label: 'node apps/server/dist/main.js (the build)' };
}

/** Where the app keeps its data for a bench run: a fresh PostgreSQL database, or a PGlite directory. */
export interface BenchDatabase {
  env: Record<string, string>;
  label: string;
  drop(): Promise<void>;
}

export async function benchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-bench-'));
    return {
      env: { DATA_DIR: dataDir },
      label: 'embedded PGlite (a data directory)',
      async drop() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `elex_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    label: 'PostgreSQL (BENCH_DATABASE_URL, a fresh database)',
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the production server as an operator would (NODE_ENV=production) and waits for /healthz. */
export async function startApp(database: BenchDatabase): Promise<ServerProcess & { startMs: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startAndWait(appCommand().args, url, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: url,
    APP_SECRET: 'bench-secret-not-used-for-anything',
    // Never used: the bench sends no mail; production refuses to start without one.
    SMTP_URL: 'smtp://127.0.0.1:9',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(repoRoot, 'apps/web/dist'),
    ...database.env,
  });
}

/** A baseline from bench/targets (plain JavaScript: no TypeScript loader in the baseline's figures). */
export async function startBaseline(
  kind: 'bare-http' | 'bare-fastify',
  recordedAnswers?: string,
): Promise<ServerProcess & { startMs: number }> {
  const port = await freePort();
  const script = path.join(import.meta.dirname, 'targets', `${kind}.mjs`);
  return startAndWait(recordedAnswers ? [script, recordedAnswers] : [script], `http://127.0.0.1:${port}`, {
    PORT: String(port),
  });
}

/** Spawns, then polls /healthz every 5 ms: startMs is spawn to the first 200. */
async function startAndWait(
  args: string[],
  url: string,
  env: Record<string, string>,
): Promise<ServerProcess & { startMs: number }> {
  const started = performance.now();
  // The caller's DATABASE_URL must not leak into a run meant for PGlite.
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const deadline = started + 120_000;
  while (!(await isHealthy(url))) {
    if (hasExited) throw new Error(`${args.join(' ')} exited before answering /healthz`);
    if (performance.now() > deadline) throw new Error(`${args.join(' ')} did not answer /healthz in 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startMs = performance.now() - started;
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    startMs,
    memory: () => readMemory(pid),
    cpuMs: () => readCpuMs(pid),
    async stop() {
      if (hasExited) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function isHealthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

function readMemory(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

// /proc/<pid>/stat counts in clock ticks, 100 per second on Linux.
const TICKS_PER_SECOND = 100;

function readCpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
