import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveAlertPreferences } from '../alerts/alerts.service.js';
import { NEW_PASSWORD, PASSWORD } from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import {
  approveCorrection,
  proposeCorrection,
  rejectCorrection,
} from '../corrections/corrections.service.js';
import { createExportLink } from '../exports/exports.service.js';
import {
  adminClose,
  adminMoveBinding,
  adminReply,
  adminVerifyOwnership,
} from '../support/support.service.js';
import {
  applyDeposit,
  fundedMember,
  memberCall,
  openDispute,
  ownCode,
  registerMember,
} from '../withdrawals/test-support.js';
import { getWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import type { AuditActor } from './audit.service.js';
import {
  type ActionContext,
  addExchange,
  changeExchangeStatus,
  deleteActivity,
  getCatalog,
  saveActivity,
  saveExchange,
  saveVipTiers,
  uploadLogo,
} from './catalog.service.js';
import { runCsvImport } from './imports.service.js';
import { liftWithdrawalLock, reinstateMember, suspendMember, unbindMemberUid } from './members.service.js';
import { revokeOperator } from './operators.service.js';
import { addPromotionCode, editPromotionCode } from './promotions-editor.service.js';
import { getTaskDefinitions, saveTaskDefinition } from './tasks-editor.service.js';
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

/** Every table a console action that moves no money writes, the audit log with them. */
const CONSOLE_TABLES = [
  'exchanges',
  'exchange_vip_tiers',
  'exchange_activities',
  'media_files',
  'task_definitions',
  'promotion_codes',
  'support_requests',
  'support_messages',
  'mail_outbox',
  'exchange_bindings',
  'users',
  'sessions',
  'export_links',
  'alert_preferences',
  'audit_log',
];

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function editorEntry(platId: number) {
  const found = (await getCatalog(ctx.deps)).exchanges.find((entry) => entry.platId === platId);
  if (!found) throw new Error(`no exchange ${platId}`);
  return found;
}

describe('a console action that moves no money asks for the role too (its audit entry asks)', () => {
  it('refuses each one for an operator revoked after the role check, writing nothing', async () => {
    const present: ActionContext = { actor: { userId: other.userId, label: other.email }, requestId: null };
    const holder = await fundedMember(ctx, { cashback: '30' });
    const claimant = await registerMember(ctx);
    const dispute = await openDispute(ctx, claimant, holder);
    expect(dispute).toMatchObject({ state: 0, content: { status: 'open' } });
    const requestId = Number(dispute.content.id);
    const toSuspend = await registerMember(ctx);
    const suspended = await registerMember(ctx);
    await suspendMember(ctx.deps, present, { userId: suspended.userId, reason: 'Fraud' });
    const activity = await saveActivity(ctx.deps, present, {
      platId: holder.platId,
      kind: 'general',
      titles: { en: 'Week', zh: 'Week', ko: 'Week' },
      activityUrl: 'https://example.com/week',
      position: 1,
    });
    const code = await addPromotionCode(ctx.deps, present, {
      code: 'IN-FLIGHT',
      note: 'Test',
      validThrough: null,
      maxUses: null,
    });
    const [task] = (await getTaskDefinitions(ctx.deps)).tasks;
    if (!task) throw new Error('no task definitions');
    const exchange = await editorEntry(holder.platId);
    const { vipTiers, activities: _a, platId, status: _s, updatedAt, ...fields } = exchange;
    const { context } = await revokedOperator();

    const before = await snapshotTables(ctx, CONSOLE_TABLES);
    const actions: Array<[string, () => Promise<unknown>]> = [
      [
        'updateExchange',
        () => saveExchange(ctx.deps, context, platId, { ...fields, score: '1.5' }, updatedAt),
      ],
      ['createExchange', () => addExchange(ctx.deps, context, { name: 'Late', abbreviation: 'LATE' })],
      ['retireExchange', () => changeExchangeStatus(ctx.deps, context, platId, 'retire', updatedAt)],
      [
        'replaceVipTiers',
        () => saveVipTiers(ctx.deps, context, { platId, updatedAt, tiers: vipTiers.slice(1) }),
      ],
      [
        'saveActivity (new)',
        () =>
          saveActivity(ctx.deps, context, {
            platId,
            kind: 'hot',
            titles: { en: 'Late', zh: 'Late', ko: 'Late' },
            activityUrl: 'https://example.com/late',
            position: 2,
          }),
      ],
      [
        'saveActivity (change)',
        () =>
          saveActivity(ctx.deps, context, {
            id: activity.id,
            updatedAt: activity.updatedAt,
            platId,
            kind: 'hot',
            titles: activity.titles,
            activityUrl: activity.activityUrl,
            position: 5,
          }),
      ],
      ['deleteActivity', () => deleteActivity(ctx.deps, context, activity.id, activity.updatedAt)],
      [
        'uploadLogo',
        () =>
          uploadLogo(ctx.deps, context, {
            platId,
            updatedAt,
            fileName: 'late.png',
            content: PNG.toString('base64'),
          }),
      ],
      [
        'updateTaskDefinition',
        () => saveTaskDefinition(ctx.deps, context, task.id, { enabled: !task.enabled }, task.updatedAt),
      ],
      [
        'createPromotionCode',
        () =>
          addPromotionCode(ctx.deps, context, { code: 'LATE', note: 'x', validThrough: null, maxUses: 5 }),
      ],
      [
        'updatePromotionCode (disable)',
        () => editPromotionCode(ctx.deps, context, code.id, { disabled: true }, code.updatedAt),
      ],
      ['support/reply', () => adminReply(ctx.deps, context, { id: requestId, text: 'We are looking.' })],
      ['support/close', () => adminClose(ctx.deps, context, { id: requestId, text: 'Closed.' })],
      ['support/moveBinding', () => adminMoveBinding(ctx.deps, context, { id: requestId })],
      ['support/verifyOwnership', () => adminVerifyOwnership(ctx.deps, context, { id: requestId })],
      ['suspendMember', () => suspendMember(ctx.deps, context, { userId: toSuspend.userId, reason: 'Spam' })],
      [
        'reinstateMember',
        () => reinstateMember(ctx.deps, context, { userId: suspended.userId, reason: 'Cleared' }),
      ],
      [
        'exports/create',
        () =>
          createExportLink(ctx.deps, context, { kind: 'withdrawals', from: '2026-05-01', to: '2026-05-31' }),
      ],
      ['saveAlertPreferences', () => saveAlertPreferences(ctx.deps, context, { dailySummary: false })],
    ];
    for (const [name, action] of actions) {
      await expect(action(), name).rejects.toMatchObject(forbidden);
    }
    expect(await snapshotTables(ctx, CONSOLE_TABLES)).toBe(before);

    // The same calls by an operator who holds the role go through (the refusal was the role's).
    await expect(
      saveTaskDefinition(ctx.deps, present, task.id, { enabled: !task.enabled }, task.updatedAt),
    ).resolves.toMatchObject({ enabled: !task.enabled });
    await expect(
      adminReply(ctx.deps, present, { id: requestId, text: 'We are looking.' }),
    ).resolves.toMatchObject({ status: 'answered' });
  });

  it('refuses an operator whose account was deleted meanwhile', async () => {
    const gone = await newOperator(ctx);
    const context: ActionContext = { actor: { userId: gone.userId, label: gone.email }, requestId: null };
    await ctx.db.execute(
      sql`update users set deleted_at = now(), email = null, password_hash = null where id = ${gone.userId}`,
    );
    const before = await snapshotTables(ctx, ['promotion_codes', 'audit_log']);
    await expect(
      addPromotionCode(ctx.deps, context, { code: 'GONE', note: 'x', validThrough: null, maxUses: null }),
    ).rejects.toMatchObject(forbidden);
    expect(await snapshotTables(ctx, ['promotion_codes', 'audit_log'])).toBe(before);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'a revocation in flight while the console edits a task: the edit waits for it and is refused',
    async () => {
      const leaving = await newOperator(ctx);
      const [task] = (await getTaskDefinitions(ctx.deps)).tasks;
      if (!task) throw new Error('no task definitions');
      const revocation = await revocationInFlight(ctx, leaving.userId);
      const edit = adminCall(ctx, leaving, 'updateTaskDefinition', {
        id: task.id,
        updatedAt: task.updatedAt,
        points: task.points + 1,
        threshold: task.threshold ?? undefined,
        link: task.link,
        appLink: task.appLink,
        sortOrder: task.sortOrder,
        enabled: task.enabled,
      });
      expect(await stillWaiting(edit)).toBe('waiting');
      await revocation.commit();
      expect(await edit).toMatchObject({ state: State.Forbidden });
      expect((await getTaskDefinitions(ctx.deps)).tasks.find((row) => row.id === task.id)).toEqual(task);
    },
  );
});
