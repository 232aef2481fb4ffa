import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/rows.js';
import { type AuditActor, operatorActor } from '../modules/admin/audit.service.js';
import { revokeOperator } from '../modules/admin/operators.service.js';
import { newOperator, snapshotTables } from '../modules/admin/test-support.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  nextUid,
} from '../modules/cashback/test-support.js';
import { testOperatorActor } from '../test/ops-command.js';
import { findOpsCommand } from './commands.js';

/**
 * The commands that write without going through an action shared with the console (`rebates:settle`,
 * `kept:rebuild`, `housekeeping`; `sync` and `sync:skip` in sync.commands.test.ts, `payouts:explain`
 * in payouts.reconciliation.test.ts) ask for the operator's role again in their transactions: run as
 * an operator who lost the role after `runOpsCommand` read it, they write nothing. runOpsCommand
 * then ends with exit 2 and the reason (operator.test.ts).
 */
let ctx: CashbackTestContext;
let dir: string;
let revoked: AuditActor;
let live: AuditActor;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-role-'));
  const keeper = await newOperator(ctx);
  live = operatorActor({ userId: keeper.userId, email: keeper.email });
  const leaving = await newOperator(ctx);
  expect(await revokeOperator(ctx.deps, leaving.email, live)).toBe(true);
  // The actor runOpsCommand had resolved before the revocation committed.
  revoked = { userId: leaving.userId, label: leaving.email };
}, 60_000);
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function csv(lines: readonly string[]): string {
  files += 1;
  const file = path.join(dir, `file-${files}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function run(name: string, args: string[], actor: AuditActor) {
  const command = findOpsCommand(name);
  if (!command || command.needsOperator === false) throw new Error(`${name} is no operator command`);
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  try {
    const code = await command.run(ctx.deps, args, io, actor);
    return { code, out: out.join('\n'), err: err.join('\n'), thrown: undefined as unknown };
  } catch (thrown) {
    return { code: undefined, out: out.join('\n'), err: err.join('\n'), thrown };
  }
}

const TABLES = [
  'rebates',
  'ledger_journals',
  'ledger_lines',
  'audit_log',
  'rebate_uid_totals',
  'rebate_uid_days',
  'verification_codes',
];
const forbidden = expect.objectContaining({ messageKey: 'forbidden' });

describe('a command run by an operator revoked after its start writes nothing', () => {
  it('rebates:settle: the due record stays unsettled; the live operator settles it', async () => {
    ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
    const uid = nextUid('R');
    const roster = csv(['uid,registered_at', `${uid},2025-01-01`]);
    const figures = csv([
      'uid,period_start,period_end,trading_volume,fee,commission',
      `${uid},2026-05-31,2026-06-01,1,4,4`,
    ]);
    expect((await run('referrals:import', ['bitget', roster], testOperatorActor)).code).toBe(0);
    expect((await run('rebates:import', ['bitget', figures], testOperatorActor)).code).toBe(0);
    ctx.clock.set(new Date('2026-06-02T00:00:00Z'));
    const before = await snapshotTables(ctx, TABLES);

    const refused = await run('rebates:settle', ['bitget', '--uid', uid], revoked);
    expect(refused.thrown).toEqual(forbidden);
    expect(await snapshotTables(ctx, TABLES)).toBe(before);

    const settled = await run('rebates:settle', ['bitget', '--uid', uid], live);
    expect(settled).toMatchObject({ code: 0, out: expect.stringContaining('settled 1: 1 completed') });
    const [row] = rowsOf<{ status: string }>(
      await ctx.db.execute(sql`select status from rebates where plat_id = ${BITGET} and uid = ${uid}`),
    );
    expect(row?.status).toBe('completed');
  });

  it('kept:rebuild: the figures stay as they were, no entry', async () => {
    await ctx.db.execute(sql`update rebate_uid_totals set records = records + 1
      where (plat_id, uid, status) in (select plat_id, uid, status from rebate_uid_totals limit 1)`);
    const before = await snapshotTables(ctx, TABLES);
    expect((await run('kept:rebuild', [], revoked)).thrown).toEqual(forbidden);
    expect(await snapshotTables(ctx, TABLES)).toBe(before);
    const rebuilt = await run('kept:rebuild', [], live);
    expect(rebuilt).toMatchObject({
      code: 0,
      out: expect.stringMatching(/rebate_uid_totals: \d+ rows; 1 taken out/),
    });
  });

  it('housekeeping: stops at its first batch, deleting nothing', async () => {
    // A code expired well over the retention (7 days), which housekeeping deletes.
    await ctx.db.execute(sql`insert into verification_codes (email_hash, module, code_hash, ip_hash, expires_at, created_at)
      values ('gone', 1, 'x', 'ip', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    const before = await snapshotTables(ctx, ['verification_codes']);
    const refused = await run('housekeeping', [], revoked);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('housekeeping failed at verification_codes');
    expect(await snapshotTables(ctx, ['verification_codes'])).toBe(before);
    const done = await run('housekeeping', [], live);
    expect(done).toMatchObject({ code: 0 });
    expect(done.out).toMatch(/verification_codes\s+[1-9]\d*\s/);
    expect(
      rowsOf(await ctx.db.execute(sql`select id from verification_codes where email_hash = 'gone'`)),
    ).toEqual([]);
  });
});
