import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, operators } from '../db/schema.js';
import { bootstrapActor } from '../modules/admin/audit.service.js';
import { grantOperator } from '../modules/admin/operators.service.js';
import { revocationInFlight, stillWaiting } from '../modules/admin/test-support.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  createMember,
} from '../modules/cashback/test-support.js';
import { applyDeposit, fundedMember, ownCode } from '../modules/withdrawals/test-support.js';
import { getWithdrawal } from '../modules/withdrawals/withdrawals.decisions.js';
import { type OpsRequest, runOpsCommand } from './run-command.js';

/**
 * Every command that changes data names its operator (issue 12): refused without one, or with a
 * value that is not a live operator (exit 2, nothing changed); audited under the operator's id and
 * e-mail; and the first `admin:grant` on a database without operators is the bootstrap. On the test
 * engine (PGlite, or PostgreSQL with TEST_DATABASE_URL); the CLI and the server both call
 * runOpsCommand, so this is what either runs.
 */
let ctx: CashbackTestContext;
let dir: string;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-operator-'));
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ops(name: string, args: string[], operator?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const request: OpsRequest = { name, args, operator, osUser: 'night-shift' };
  const code = await runOpsCommand(ctx.deps, request, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const auditCount = async () => (await ctx.db.select({ id: auditLog.id }).from(auditLog)).length;
const latestAudit = async () => (await ctx.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];
const isOperatorRow = async (userId: number) =>
  (await ctx.db.select().from(operators).where(eq(operators.userId, userId))).length === 1;

describe('operator commands name their operator', () => {
  let first: { id: number; email: string };
  let second: { id: number; email: string };
  let member: { id: number; email: string };

  it('bootstrap: the first admin:grant needs no operator, and is audited as the bootstrap', async () => {
    first = await createMember(ctx);
    second = await createMember(ctx);
    member = await createMember(ctx);

    // Before any operator exists every other changing command says how the first one is made.
    const early = await ops('rebates:settle', []);
    expect(early).toMatchObject({ code: 2 });
    expect(early.err).toContain('rebates:settle changes data: name the operator running it with --operator');
    expect(early.err).toContain('No operator exists yet: grant the first one with');

    expect(await ops('admin:grant', [first.email])).toMatchObject({
      code: 0,
      out: `${first.email} is now an operator.`,
    });
    expect(await latestAudit()).toMatchObject({
      action: 'operator.grant',
      actorId: null,
      actor: 'bootstrap:cli:night-shift',
      target: `user:${first.id}`,
    });
    const [row] = await ctx.db.select().from(operators).where(eq(operators.userId, first.id));
    expect(row?.grantedBy).toBe('bootstrap:cli:night-shift');

    // Once an operator exists, the door is shut: a grant without an operator is refused.
    const again = await ops('admin:grant', [second.email]);
    expect(again.code).toBe(2);
    expect(again.err).toBe(
      'admin:grant changes data: name the operator running it with --operator <email|id> or ELEX_OPERATOR.',
    );
    expect(await isOperatorRow(second.id)).toBe(false);

    // A bootstrap decided before the first operator landed (two shells at once) is refused in its
    // own transaction: the door is checked again under the bootstrap lock.
    const audits = await auditCount();
    await expect(grantOperator(ctx.deps, second.email, bootstrapActor('late-shift'))).rejects.toThrow(
      'Refused: an operator exists now (another first grant went through meanwhile)',
    );
    expect(await isOperatorRow(second.id)).toBe(false);
    expect(await auditCount()).toBe(audits);
  });

  it('refuses a missing, unknown or non-operator value with exit 2, changing nothing', async () => {
    const before = await auditCount();
    const file = path.join(dir, 'roster.csv');
    fs.writeFileSync(file, 'uid,registered_at\nOPS00001,2026-01-02T00:00:00Z\n');
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'referrals:import changes data: name the operator running it'],
      ['   ', 'referrals:import changes data: name the operator running it'],
      ['nobody@example.com', 'Refused: No member with the e-mail nobody@example.com.'],
      ['987654321', 'Refused: No member with the id 987654321.'],
      ['night-shift', 'Refused: "night-shift" is neither an e-mail nor a user id.'],
      [
        member.email,
        `Refused: ${member.email} is not an operator: an operator grants the role with admin:grant.`,
      ],
      [String(member.id), `Refused: ${member.email} is not an operator`],
    ];
    for (const [operator, message] of cases) {
      const result = await ops('referrals:import', [String(BITGET), file], operator);
      expect(result.code, String(operator)).toBe(2);
      expect(result.err).toContain(message);
      expect(result.out).toBe('');
    }
    expect(await ops('admin:grant', [member.email], member.email)).toMatchObject({ code: 2 });
    expect(await ops('withdrawals:reject', ['1', '--reason', 'x'], 'nobody@example.com')).toMatchObject({
      code: 2,
    });
    expect(await isOperatorRow(member.id)).toBe(false);
    expect(await auditCount()).toBe(before);
  });

  it('audits a change under the operator’s id and e-mail, named by e-mail or by id', async () => {
    expect(await ops('admin:grant', [second.email], first.email.toUpperCase())).toMatchObject({ code: 0 });
    expect(await latestAudit()).toMatchObject({
      action: 'operator.grant',
      actorId: first.id,
      actor: first.email,
      target: `user:${second.id}`,
    });
    expect(await isOperatorRow(second.id)).toBe(true);

    const file = path.join(dir, 'roster-2.csv');
    fs.writeFileSync(file, 'uid,registered_at\nOPS00002,2026-01-02T00:00:00Z\n');
    const imported = await ops('referrals:import', [String(BITGET), file], String(second.id));
    expect(imported.code).toBe(0);
    expect(await latestAudit()).toMatchObject({
      action: 'import.referrals',
      actorId: second.id,
      actor: second.email,
    });

    // The operator may take their own role away; after that they can no longer run changes.
    expect(await ops('admin:revoke', [second.email], second.email)).toMatchObject({ code: 0 });
    expect(await latestAudit()).toMatchObject({ action: 'operator.revoke', actorId: second.id });
    expect(await ops('admin:grant', [member.email], second.email)).toMatchObject({ code: 2 });
  });

  it('keeps four eyes on money: an operator cannot pay or reject their own withdrawal here either', async () => {
    const owner = await fundedMember(ctx, { cashback: '80' });
    expect(await ops('admin:grant', [owner.email], first.email)).toMatchObject({ code: 0 });
    const applied = await applyDeposit(ctx, owner, { amount: '60', authCode: await ownCode(ctx, owner) });
    expect(applied.state).toBe(0);
    const id = applied.content?.id as string;
    expect(await ops('withdrawals:approve', [id, '--tx', `0x${'ab'.repeat(32)}`], owner.email)).toMatchObject(
      {
        code: 1,
        err: expect.stringContaining('Refused: You cannot decide your own withdrawal'),
      },
    );
    expect(await ops('withdrawals:reject', [id, '--reason', 'test'], owner.email)).toMatchObject({ code: 1 });
    expect(await ops('withdrawals:reject', [id, '--reason', 'wrong address'], first.email)).toMatchObject({
      code: 0,
    });
    expect(await latestAudit()).toMatchObject({ action: 'withdrawal.reject', actorId: first.id });
  });

  it('refuses a suspended operator and a deleted one, naming what is wrong, changing nothing', async () => {
    const suspended = await createMember(ctx);
    const deleted = await createMember(ctx);
    for (const who of [suspended, deleted]) {
      expect(await ops('admin:grant', [who.email], first.email)).toMatchObject({ code: 0 });
    }
    // A suspension as one made before grants and suspensions were kept apart (the console refuses
    // to suspend an operator now), and a deletion as the account's deletion leaves the row.
    await ctx.db.execute(
      sql`update users set suspended_at = now(), suspension_reason = 'Fraud' where id = ${suspended.id}`,
    );
    await ctx.db.execute(
      sql`update users set deleted_at = now(), email = null, password_hash = null where id = ${deleted.id}`,
    );
    const before = await auditCount();
    const file = path.join(dir, 'roster-3.csv');
    fs.writeFileSync(file, 'uid,registered_at\nOPS00003,2026-01-02T00:00:00Z\n');
    const cases: Array<[string, string]> = [
      [
        suspended.email,
        `Refused: ${suspended.email} is suspended: a suspended member runs no command (reinstate them, or name another operator).`,
      ],
      [String(suspended.id), `Refused: ${suspended.email} is suspended`],
      [String(deleted.id), `Refused: Member ${deleted.id}'s account was deleted: it is no operator.`],
      [deleted.email, `Refused: No member with the e-mail ${deleted.email}.`],
    ];
    for (const [operator, message] of cases) {
      const result = await ops('referrals:import', [String(BITGET), file], operator);
      expect(result, operator).toMatchObject({ code: 2, out: '' });
      expect(result.err).toContain(message);
    }
    expect(await auditCount()).toBe(before);
  });

  // PGlite is one connection: nothing there can hold the role's row while the command runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a role revoked while the command runs: its decision waits for the revocation, is refused and says why',
    async () => {
      const leaving = await createMember(ctx);
      expect(await ops('admin:grant', [leaving.email], first.email)).toMatchObject({ code: 0 });
      const owner = await fundedMember(ctx, { cashback: '80' });
      const applied = await applyDeposit(ctx, owner, { amount: '60', authCode: await ownCode(ctx, owner) });
      const id = applied.content?.id as string;
      const revocation = await revocationInFlight(ctx, leaving.id);
      // The command's own check reads the role (the delete is not committed): it starts.
      const running = ops('withdrawals:reject', [id, '--reason', 'wrong address'], leaving.email);
      expect(await stillWaiting(running)).toBe('waiting');
      await revocation.commit();
      const result = await running;
      expect(result.code).toBe(2);
      expect(result.err).toContain(
        `Refused: ${leaving.email} is not an operator: an operator grants the role with admin:grant. The role was asked again while withdrawals:reject ran`,
      );
      expect(await getWithdrawal(ctx.deps, id)).toMatchObject({ status: 'pending' });
      // Another operator decides it (and the queue is empty again for the read-only commands below).
      expect(await ops('withdrawals:reject', [id, '--reason', 'wrong address'], first.email)).toMatchObject({
        code: 0,
      });
    },
  );

  it('runs read-only commands without an operator', async () => {
    expect(await ops('ledger:check', [])).toMatchObject({
      code: 0,
      out: expect.stringContaining('Ledger OK'),
    });
    expect(await ops('withdrawals:list', [])).toMatchObject({ code: 0, out: 'No pending withdrawals.' });
    expect((await ops('sync:status', [])).code).toBe(0);
    expect(await ops('no:such', [])).toMatchObject({ code: 2, err: 'Unknown command: no:such' });
    // A name every object answers to is no command either (it crashed with a TypeError).
    expect(await ops('constructor', [])).toMatchObject({ code: 2, err: 'Unknown command: constructor' });
  });
});

// PGlite is one session, so two shells cannot race there.
describe.runIf(process.env.TEST_DATABASE_URL)('two first grants at once', () => {
  let race: CashbackTestContext;
  beforeAll(async () => {
    race = await createCashbackTestApp();
  });
  afterAll(() => race.close());

  it('makes exactly one first operator; the other shell is told to name one', async () => {
    const members = [await createMember(race), await createMember(race), await createMember(race)];
    const shells = members.map((member, index) => {
      const lines: string[] = [];
      const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
      const request = { name: 'admin:grant', args: [member.email], osUser: `shell-${index}` };
      return { lines, run: () => runOpsCommand(race.deps, request, io) };
    });
    const codes = await Promise.all(shells.map((shell) => shell.run()));
    const granted = await race.db.select().from(operators);
    expect(granted).toHaveLength(1);
    expect(codes.filter((code) => code === 0)).toHaveLength(1);
    const refused = shells.filter((_, index) => codes[index] !== 0).map((shell) => shell.lines.join('\n'));
    expect(refused).toHaveLength(2);
    for (const text of refused)
      expect(text).toMatch(/Refused: an operator exists now|name the operator running it/);
    const grants = await race.db.select().from(auditLog).where(eq(auditLog.action, 'operator.grant'));
    expect(grants).toHaveLength(1);
    expect(grants[0]?.actor).toBe(granted[0]?.grantedBy);
  });
});
