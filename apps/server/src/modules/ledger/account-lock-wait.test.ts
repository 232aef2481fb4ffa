import { randomUUID } from 'node:crypto';
import { State, translate } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type Caller, newOperator, snapshotTables } from '../admin/test-support.js';
import { call, PASSWORD } from '../auth/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import {
  ADDRESS,
  applyDeposit,
  createWithdrawalTestApp,
  creditCashback,
  fundedMember,
  memberCall,
  moneyOf,
  OTHER_ADDRESS,
  ownCode,
  registerMember,
  type TestMember,
  usdt,
} from '../withdrawals/test-support.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';

/**
 * A money action meeting an import that has not committed yet (docs/ledger.md, "Waiting for an
 * account"): an import crediting a UID holds that UID's cashback account until its one transaction
 * commits, a minute or more at a million lines. The member's withdrawal, deletion or dispute and the
 * operator's decision or correction wait ACCOUNT_LOCK_WAIT_MS for it, then answer 'accountBusy' in
 * the caller's language having changed nothing; sent again once the import committed, the same
 * request goes through. PostgreSQL only: PGlite is one session, where an open import holds the whole
 * database and no second transaction can even start.
 */
const LOCK_WAIT_MS = 300;
/** What the refused actions would have written (the import writes only records, journals and lines). */
const UNTOUCHED = ['withdrawals', 'verification_codes', 'corrections', 'audit_log'] as const;

describe.runIf(process.env.TEST_DATABASE_URL)('a money action while an import holds the account', () => {
  let ctx: CashbackTestContext;
  let operator: Caller;
  beforeAll(async () => {
    ctx = await createWithdrawalTestApp({ accountLockWaitMs: LOCK_WAIT_MS });
    operator = await newOperator(ctx);
  });
  afterAll(() => ctx?.close());

  /**
   * Runs `meanwhile` while an import that credited `credit` USDT to the member's UID is still open
   * (the real import, inside a transaction this test keeps open), then lets the import commit.
   */
  async function duringImport<T>(
    member: TestMember,
    credit: string,
    meanwhile: () => Promise<T>,
  ): Promise<T> {
    return ctx.db.transaction(async (tx) => {
      await creditCashback(
        { ...ctx, db: tx, deps: { ...ctx.deps, db: tx } },
        member.platId,
        member.uid,
        credit,
      );
      return meanwhile();
    });
  }

  const busy = (lang: 'en' | 'zh' | 'ko' = 'en') => ({
    state: State.Refused,
    message: translate(lang, 'accountBusy'),
    content: { messageKey: 'accountBusy' },
  });

  async function soundLedger() {
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
    expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
  }

  it('a withdrawal is refused as busy, changing nothing; the same request, sent again, goes through', async () => {
    const member = await fundedMember(ctx, { cashback: '80' });
    const authCode = await ownCode(ctx, member);
    const body = { requestId: randomUUID(), amount: '60', authCode };
    const before = await snapshotTables(ctx, UNTOUCHED);
    const during = await duringImport(member, '5', async () => {
      const answers = {
        en: await applyDeposit(ctx, member, body),
        zh: await applyDeposit(ctx, member, body, { lang: 'zh' }),
      };
      // Nothing of the refused requests is there, and the import's credit is not visible yet.
      expect(await moneyOf(ctx, member)).toEqual({ cashback: usdt('80'), rewards: 0n, hold: 0n });
      return answers;
    });
    expect(during.en).toEqual(busy('en'));
    expect(during.zh).toEqual(busy('zh'));
    // The import committed: no withdrawal, no code used up, no mail or alert from the refused requests.
    expect(await snapshotTables(ctx, UNTOUCHED)).toEqual(before);
    const after = await applyDeposit(ctx, member, body);
    expect(after).toMatchObject({
      state: State.Success,
      content: { status: 'pending', amount: '60.000000' },
    });
    expect(await moneyOf(ctx, member, after.content?.id)).toEqual({
      cashback: usdt('25'),
      rewards: 0n,
      hold: usdt('60'),
    });
    await soundLedger();
  });

  it('a cancellation, an operator’s rejection and a correction are refused as busy, with no audit entry', async () => {
    const member = await fundedMember(ctx, { cashback: '90', confirmedBy: operator.userId });
    const requested = await applyDeposit(ctx, member, { amount: '50', authCode: await ownCode(ctx, member) });
    const id = requested.content?.id;
    expect(requested.state).toBe(State.Success);
    const before = await snapshotTables(ctx, UNTOUCHED);
    const correction = {
      userId: member.userId,
      account: 'cashback',
      platId: member.platId,
      uid: member.uid,
      amount: '1.5',
      reason: 'Missed hour',
    };
    const answers = await duringImport(member, '5', async () => ({
      cancel: await memberCall(ctx, member, '/elex/user/cancelDeposit', { id }),
      reject: await adminCall(ctx, operator, 'rejectWithdrawal', { id, reason: 'Address mismatch' }, 'ko'),
      correct: await adminCall(ctx, operator, 'corrections/propose', correction),
    }));
    expect(answers.cancel).toEqual(busy('en'));
    expect(answers.reject).toEqual(busy('ko'));
    expect(answers.correct).toEqual(busy('en'));
    // Only the import's own rows were added: the withdrawal is still pending, nothing else moved.
    expect(await moneyOf(ctx, member, id)).toEqual({ cashback: usdt('45'), rewards: 0n, hold: usdt('50') });
    expect(await snapshotTables(ctx, UNTOUCHED)).toEqual(before);
    // Sent again after the import, both go through.
    expect(await adminCall(ctx, operator, 'corrections/propose', correction)).toMatchObject({
      state: State.Success,
      content: { status: 'posted' },
    });
    expect(
      await adminCall(ctx, operator, 'rejectWithdrawal', { id, reason: 'Address mismatch' }),
    ).toMatchObject({ state: State.Success });
    expect(await moneyOf(ctx, member, id)).toEqual({ cashback: usdt('96.5'), rewards: 0n, hold: 0n });
    await soundLedger();
  });

  it('a dispute and an account deletion are refused as busy; the member and the UID are as they were', async () => {
    const holder = await fundedMember(ctx, { cashback: '70', confirmedBy: operator.userId });
    const claimant = await registerMember(ctx);
    const before = await snapshotTables(ctx, ['support_requests', 'exchange_bindings', 'users', 'audit_log']);
    const answers = await duringImport(holder, '5', async () => ({
      dispute: await memberCall(ctx, claimant, '/elex/support/create', {
        kind: 'uidBoundByOther',
        platId: holder.platId,
        uid: holder.uid,
        address: OTHER_ADDRESS,
        text: 'This UID is mine.',
      }),
      deletion: (
        await call(
          ctx,
          '/elex/user/deleteAccount',
          { passwd: PASSWORD, forfeitTotal: '70.000000' },
          { token: holder.token },
        )
      ).json(),
    }));
    expect(answers.dispute).toEqual(busy('en'));
    expect(answers.deletion).toEqual(busy('en'));
    expect(
      await snapshotTables(ctx, ['support_requests', 'exchange_bindings', 'users', 'audit_log']),
    ).toEqual(before);
    // The holder is still a member with their binding (the import's 5 USDT landed on it).
    expect(await memberCall(ctx, holder, '/elex/user/withdrawable')).toMatchObject({
      state: State.Success,
      content: { bindings: [{ uid: holder.uid, address: ADDRESS }] },
    });
    expect(await moneyOf(ctx, holder)).toMatchObject({ cashback: usdt('75') });
    await soundLedger();
  });
});
