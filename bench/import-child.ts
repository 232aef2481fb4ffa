/**
 * One rebate CSV import in its own process, for bench/data.ts: the app's import flow (runCsvImport,
 * as `rebates:import` runs it) on PostgreSQL at DATABASE_URL or PGlite at DATA_DIR. Reports the time
 * of the import (read, stage, check, insert, settle, post, commit, ANALYZE) and the process's peak RSS.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { systemClock } from '../apps/server/src/lib/clock.js';
import { runCsvImport } from '../apps/server/src/modules/admin/imports.service.js';

const [file, platId] = process.argv.slice(2) as [string, string];
const url = process.env.DATABASE_URL;
const handle = url
  ? await openDatabase({ kind: 'postgres', url, poolSize: 2 })
  : await openDatabase({ kind: 'pglite', dataDir: process.env.DATA_DIR as string });
const config = loadConfig({
  NODE_ENV: 'production',
  APP_SECRET: 'bench-secret-not-used',
  LOG_LEVEL: 'silent',
});
const deps = { config, db: handle.db, databaseKind: handle.kind, clock: systemClock };
const started = performance.now();
const outcome = await runCsvImport(
  deps,
  { actor: { userId: null, label: 'bench' }, requestId: null },
  {
    kind: 'rebates',
    platId: Number(platId),
    fileName: path.basename(file),
    source: file,
    sizeBytes: fs.statSync(file).size,
  },
);
const seconds = (performance.now() - started) / 1000;
await handle.close();
process.send?.({
  seconds,
  maxRssMiB: process.resourceUsage().maxRSS / 1024,
  status: outcome.status,
  rows: outcome.rows,
  inserted: outcome.inserted,
  completed: outcome.settledCompleted,
  problems: outcome.problems.slice(0, 3),
});
