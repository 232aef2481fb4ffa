import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_PASSWORD, PASSWORD } from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import {
  approveCorrection,
  proposeCorrection,
  rejectCorrection,
} from '../corrections/corrections.service.js';
import { applyDeposit, fundedMember, memberCall, ownCode } from '../withdrawals/test-support.js';
import { getWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import type { AuditActor } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';
import { runCsvImport } from './imports.service.js';
import { liftWithdrawalLock, unbindMemberUid } from './members.service.js';
import { revokeOperator } from './operators.service.js';
import {
  adminCall,
  type Caller,
  newOperator,
  revocationInFlight,
  snapshotTables,
  stillWaiting,
} from './test-support.js';
import { approveAudited, rejectAudited } from './withdrawals-queue.service.js';

/**
 * A console request already past the role check (the guard reads the role before the action) must
 * not move money for an operator whose role went meanwhile: each money-moving action asks again in
 * its own transaction, under FOR KEY SHARE on the role's and the member's rows, and answers the
 * console's 'forbidden' (1003), nothing written (docs/decisions.md, "A revoked operator's request in
 * flight"). In sequence on either engine (the action called as the route calls it, after the
 * revocation); on PostgreSQL also with the revocation in flight while the console call runs.
 */
let ctx: CashbackTestContext;
let other: Caller;
const CLI: AuditActor = { userId: null, label: 'cli:test' };

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
  other = await newOperator(ctx);
}, 60_000);
afterAll(() => ctx.close());

const MONEY_TABLES = [
  'withdrawals',
  'ledger_journals',
  'ledger_lines',
  'exchange_bindings',
  'corrections',
  'users',
  'rebates',
];

/** An operator who passed the guard, then lost the role: the context the route had built. */
async function revokedOperator(): Promise<{ context: ActionContext; caller: Caller }> {
  const caller = await newOperator(ctx);
  expect(await revokeOperator(ctx.deps, caller.email, CLI)).toBe(true);
  return { caller, context: { actor: { userId: caller.userId, label: caller.email }, requestId: null } };
}

const forbidden = { state: State.Forbidden, messageKey: 'forbidden' };

describe('a money-moving action asks for the operator role again in its transaction', () => {
  it('refuses each one for an operator revoked after the role check, writing nothing', async () => {
    const { context } = await revokedOperator();
    const member = await fundedMember(ctx, { cashback: '80' });
    const requested = await applyDeposit(ctx, member, { amount: '60', authCode: await ownCode(ctx, member) });
    const id = requested.content?.id ?? '';
    const proposed = await adminCall(ctx, other, 'corrections/propose', {
      userId: member.userId,
      account: 'cashback',
      platId: member.platId,
      uid: member.uid,
      amount: '150',
      reason: 'Missed rebates',
    });
    expect(proposed).toMatchObject({ state: 0, content: { status: 'pending' } });
    // Below the approval threshold the correction would post at once: money moved by the proposal.
    const small = {
      userId: member.userId,
      account: 'cashback' as const,
      platId: member.platId,
      uid: member.uid,
      amount: '5',
      reason: 'Goodwill',
    };
    const locked = await fundedMember(ctx, { cashback: '10' });
    expect(
      (await memberCall(ctx, locked, '/elex/user/updatePass', { oldPasswd: PASSWORD, passwd: NEW_PASSWORD }))
        .state,
    ).toBe(0);
    const csv = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        `${member.uid},2026-05-01T00:00:00Z,2026-05-02T00:00:00Z,100,2,1`,
        '',
      ].join('\n'),
    );

    const before = await snapshotTables(ctx, MONEY_TABLES);
    const actions: Array<[string, () => Promise<unknown>]> = [
      ['approveWithdrawal', () => approveAudited(ctx.deps, context, { id, txHash: `0x${'2e'.repeat(32)}` })],
      ['rejectWithdrawal', () => rejectAudited(ctx.deps, context, { id, reason: 'No' })],
      ['corrections/approve', () => approveCorrection(ctx.deps, context, proposed.content.id)],
      [
        'corrections/reject',
        () => rejectCorrection(ctx.deps, context, { id: proposed.content.id, reason: 'No' }),
      ],
      ['corrections/propose', () => proposeCorrection(ctx.deps, context, small)],
      [
        'unbindUid',
        () =>
          unbindMemberUid(ctx.deps, context, {
            userId: member.userId,
            platId: member.platId,
            uid: member.uid,
            reason: 'Disputed',
          }),
      ],
      [
        'liftWithdrawalLock',
        () => liftWithdrawalLock(ctx.deps, context, { userId: locked.userId, reason: 'Called' }),
      ],
      [
        'importRebates',
        () =>
          runCsvImport(ctx.deps, context, {
            kind: 'rebates',
            platId: member.platId,
            fileName: 'late.csv',
            source: csv,
            sizeBytes: csv.length,
          }),
      ],
    ];
    for (const [name, action] of actions) {
      await expect(action(), name).rejects.toMatchObject(forbidden);
    }
    expect(await snapshotTables(ctx, MONEY_TABLES)).toBe(before);

    // The same calls by an operator who holds the role go through (the refusal was the role's).
    const present: ActionContext = { actor: { userId: other.userId, label: other.email }, requestId: null };
    await expect(rejectAudited(ctx.deps, present, { id, reason: 'No' })).resolves.toMatchObject({
      status: 'failed',
    });
    await expect(
      runCsvImport(ctx.deps, present, {
        kind: 'rebates',
        platId: member.platId,
        fileName: 'late.csv',
        source: csv,
        sizeBytes: csv.length,
      }),
    ).resolves.toMatchObject({ status: 'succeeded', inserted: 1 });
  });

  it('refuses an operator whose account was deleted meanwhile, also by the console', async () => {
    const gone = await newOperator(ctx);
    const member = await fundedMember(ctx, { cashback: '20' });
    const context: ActionContext = { actor: { userId: gone.userId, label: gone.email }, requestId: null };
    // As the account's deletion leaves it (the deletion's own flow refuses nothing to an operator).
    await ctx.db.execute(
      sql`update users set deleted_at = now(), email = null, password_hash = null where id = ${gone.userId}`,
    );
    await expect(
      unbindMemberUid(ctx.deps, context, {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'Disputed',
      }),
    ).rejects.toMatchObject(forbidden);
  });

  // PGlite is one connection: nothing there can hold the role's row while the console call runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a revocation in flight while the console approves: the approval waits for it and is refused',
    async () => {
      const leaving = await newOperator(ctx);
      const member = await fundedMember(ctx, { cashback: '80' });
      const requested = await applyDeposit(ctx, member, {
        amount: '60',
        authCode: await ownCode(ctx, member),
      });
      expect(requested).toMatchObject({ state: 0 });
      const id = requested.content?.id ?? '';
      // The revocation has deleted the role's row, not yet committed: the console's guard still reads
      // the role (the request is past the role check when the revocation commits).
      const revocation = await revocationInFlight(ctx, leaving.userId);
      const approval = adminCall(ctx, leaving, 'approveWithdrawal', { id, txHash: `0x${'3d'.repeat(32)}` });
      expect(await stillWaiting(approval)).toBe('waiting');
      await revocation.commit();
      expect(await approval).toMatchObject({ state: State.Forbidden });
      expect(await getWithdrawal(ctx.deps, id)).toMatchObject({ status: 'pending', txHash: null });
    },
  );
});
