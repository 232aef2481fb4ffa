import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../apps/server/src/db/client.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { spread } from './spread.js';

export const fmt = (value: number, digits = 1) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Median (min–max) of timings in milliseconds. */
export const shownMs = (values: number[]) => {
  const { median, min, max } = spread(values);
  return `${fmt(median)} (${fmt(min)}–${fmt(max)}) ms`;
};

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/**
 * A migrated database of the bench's own: a scratch database on the server BENCH_DATABASE_URL names
 * (dropped at close, kept with BENCH_KEEP=1), else an embedded PGlite in a temporary directory.
 */
export async function scratchDatabase(): Promise<{ db: Database; label: string; close(): Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-bench-scratch-'));
    const handle = await openDatabase({ kind: 'pglite', dataDir });
    return {
      db: handle.db,
      label: 'embedded PGlite',
      async close() {
        await handle.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `elex_bench_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
  return {
    db: handle.db,
    label: 'PostgreSQL (BENCH_DATABASE_URL, a scratch database)',
    async close() {
      await handle.close();
      if (process.env.BENCH_KEEP === '1') console.log(`  kept: ${url.toString()}`);
      else await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
