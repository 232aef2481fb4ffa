import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseTarget, openDatabase } from '../../db/client.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AppDeps } from '../../deps.js';
import { systemClock } from '../../lib/clock.js';
import { runCliProcess } from '../../test/cli-process.js';
import { seedOperator } from '../../test/ops-command.js';
import { createScratchDatabase } from '../../test/scratch-database.js';
import { testConfig } from '../../test/test-app.js';
import { checkAllInvariants } from './cashback.check.js';
import { rowsOf } from './cashback.repository.js';
import { ingestReferrals } from './ingest.service.js';
import { loadPartners } from './partners.js';
import { rebateAmount } from './rebate-rule.js';
import { BITGET } from './test-support.js';

/**
 * The operator CLI as a child process, on a PGlite data directory (or a PostgreSQL database when
 * TEST_DATABASE_URL is set): a bad file exits 1 listing its lines; an import killed with SIGKILL in
 * the middle of its transaction leaves nothing behind, and running it again gives a clean run's totals.
 * The child's stdout is a pipe, so the import prints its write progress as lines; the kill follows
 * the first one, i.e. after rows were inserted and before the transaction could commit.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const UIDS = 200;
const OPERATOR = 'kill-test-operator@example.com';
const DAYS = 15;

let dir: string;
let target: DatabaseTarget;
let env: NodeJS.ProcessEnv;
let dropDatabase = async () => {};
let rows: Array<{ uid: string; fee: bigint; commission: bigint }> = [];
let file: string;

async function withDatabase<T>(use: (deps: AppDeps) => Promise<T>): Promise<T> {
  const handle = await openDatabase(target);
  try {
    return await use({ config: testConfig(), db: handle.db, databaseKind: handle.kind, clock: systemClock });
  } finally {
    await handle.close();
  }
}

function runCli(args: string[], killAfter?: RegExp) {
  return runCliProcess(args, { env, ...(killAfter ? { killAfter } : {}) });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-kill-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'elex_kill');
    target = { kind: 'postgres', url: scratch.url, poolSize: 2 };
    env = { ...base, DATABASE_URL: scratch.url, ELEX_OPERATOR: OPERATOR };
    dropDatabase = scratch.drop;
  } else {
    target = { kind: 'pglite', dataDir: path.join(dir, 'data') };
    env = { ...base, DATA_DIR: path.join(dir, 'data'), ELEX_OPERATOR: OPERATOR };
  }

  // Figures for UIDS x DAYS days that ended well before now, for UIDs registered long ago.
  const now = Date.now();
  const firstDay =
    Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()) -
    (DAYS + 3) * DAY_MS;
  const lines = ['uid,period_start,period_end,trading_volume,fee,commission'];
  rows = [];
  for (let u = 0; u < UIDS; u += 1) {
    const uid = `KILL${100000 + u}`;
    for (let d = 0; d < DAYS; d += 1) {
      const start = new Date(firstDay + d * DAY_MS).toISOString();
      const end = new Date(firstDay + (d + 1) * DAY_MS).toISOString();
      const fee = `${(u % 89) + 1}.${String(d * 7919 + u)
        .padStart(6, '0')
        .slice(-6)}`;
      const commission = `${(u % 40) + 1}`;
      lines.push(`${uid},${start},${end},${(u + 1) * 1000},${fee},${commission}`);
      rows.push({ uid, fee: BigInt(fee.replace('.', '')), commission: BigInt(commission) * 1_000_000n });
    }
  }
  file = path.join(dir, 'figures.csv');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);

  await withDatabase(async (deps) => {
    await seedPartnerCatalog(deps.db);
    await seedOperator(deps, OPERATOR);
    const registeredAt = new Date(now - 400 * DAY_MS);
    await ingestReferrals(
      deps,
      BITGET,
      Array.from({ length: UIDS }, (_, u) => ({ uid: `KILL${100000 + u}`, registeredAt })),
      { kind: 'csv', label: 'roster.csv' },
    );
  });
}, 120_000);

afterAll(async () => {
  await dropDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function totals() {
  return withDatabase(async (deps) => {
    const [records] = rowsOf<{ n: string; amount: string | null }>(
      await deps.db.execute(
        sql`select count(*) as n, sum(amount_micro) as amount from rebates where uid like 'KILL%'`,
      ),
    );
    const [ledger] = rowsOf<{ journals: string; balance: string | null }>(
      await deps.db.execute(sql`select (select count(*) from ledger_journals) as journals,
        (select sum(l.amount) from ledger_lines l join ledger_accounts a on a.id = l.account_id
          where a.code like 'cashback:%') as balance`),
    );
    return {
      records: Number(records?.n),
      credited: BigInt(records?.amount ?? 0),
      journals: Number(ledger?.journals),
      balances: BigInt(ledger?.balance ?? 0),
      problems: await checkAllInvariants(deps.db),
      rates: (await loadPartners(deps)).get(BITGET),
    };
  });
}

describe('rebates:import as a child process', () => {
  it('exits 1 on a bad file, listing its bad lines', async () => {
    const bad = path.join(dir, 'bad.csv');
    fs.writeFileSync(
      bad,
      'uid,period_start,period_end,trading_volume,fee,commission\nKILL100000,2026-01-01,2026-01-02,1,1.1234567,1\n',
    );
    const result = await runCli(['rebates:import', 'bitget', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 2, fee: more than 6 decimals ("1.1234567")');
    expect(result.stderr).toContain('nothing was imported');
  }, 120_000);

  it('killed with SIGKILL midway leaves no partial rows; the re-run gives a clean run’s totals', async () => {
    const firstWrite = /Importing: (\d+)\/(\d+) rows/;
    const killed = await runCli(['rebates:import', 'bitget', file], firstWrite);
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).toContain(`Importing ${rows.length} rebate row(s)`);
    // Rows had been written inside the transaction when it died, and not all of them.
    const [, written, total] = killed.stdout.match(firstWrite) ?? [];
    expect(Number(total)).toBe(rows.length);
    expect(Number(written)).toBeGreaterThan(0);
    expect(Number(written)).toBeLessThan(rows.length);
    // It died before the summary.
    expect(killed.stdout).not.toContain('Imported');

    const afterKill = await totals();
    expect(afterKill).toMatchObject({ records: 0, credited: 0n, journals: 0, balances: 0n, problems: [] });

    const rerun = await runCli(['rebates:import', 'bitget', file]);
    expect(rerun.stderr).toBe('');
    expect(rerun.code).toBe(0);
    const n = rows.length;
    expect(rerun.stdout).toContain(`${n} row(s), ${n} new, 0 already imported; settled ${n}: ${n} completed`);

    // A clean run's totals: every row settled by the rule at Bitget's basic rate.
    const after = await totals();
    const rate = after.rates?.cashRateBps ?? 0;
    const expected = rows.reduce((sum, row) => sum + rebateAmount(row.fee, rate, row.commission), 0n);
    expect(after).toMatchObject({ records: n, credited: expected, balances: expected, problems: [] });
    expect(after.journals).toBeGreaterThan(0);
  }, 180_000);
});
