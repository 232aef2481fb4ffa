import { forfeitOnDeletion, State } from '@elex/contract';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import {
  eventRewards,
  exchangeBindings,
  ledgerJournals,
  rebates,
  socialAccounts,
  users,
  withdrawals,
  xmeBindings,
} from '../../db/schema.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import { BINANCE, type CashbackTestContext, nextUid } from '../cashback/test-support.js';
import { markSocialAccountVerified, saveSocialAccount } from '../tasks/tasks.repository.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  createWithdrawalTestApp,
  creditCashback,
  fundedMember,
  memberCall,
  moneyOf,
  ownCode,
  registerMember,
  type TestMember,
  usdt,
} from '../withdrawals/test-support.js';
import { approveWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import { call, PASSWORD } from './test-support.js';

/**
 * Account deletion against the money and the links (docs/accounts.md, "Deletion"): bindings end, the
 * balance not withdrawn is forfeited as the terms say, the XME and social ids go, the money records
 * stay whole and anonymous, and the ledger's invariants hold.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createWithdrawalTestApp();
});
afterAll(() => ctx.close());

/** What the deletion dialog shows the member: the money they would lose, from /withdrawable. */
async function shownForfeit(member: Pick<TestMember, 'token'>): Promise<string> {
  const answer = await memberCall(ctx, member, '/elex/user/withdrawable');
  expect(answer.state).toBe(0);
  return forfeitOnDeletion(answer.content);
}

/** Deletes as the dialog does: with the sum it showed, read just before unless given. */
const deleteAccount = async (member: Pick<TestMember, 'token'>, lang?: string, forfeitTotal?: string) => {
  const shown = forfeitTotal ?? (await shownForfeit(member));
  const res = await call(
    ctx,
    '/elex/user/deleteAccount',
    { passwd: PASSWORD, forfeitTotal: shown },
    { token: member.token, lang },
  );
  return res.json();
};

async function withdraw(member: TestMember, amount: string) {
  const authCode = await ownCode(ctx, member);
  const answer = await applyDeposit(ctx, member, { amount, authCode });
  expect(answer).toMatchObject({ state: 0 });
  return answer.content as NonNullable<typeof answer.content>;
}

/** The lines of the member's forfeiture journals, as `account: amount`. */
async function forfeitLines(userId: number) {
  const rows = rowsOf<{ kind: string; code: string; amount: string }>(
    await ctx.db.execute(sql`
      select j.kind, a.code, l.amount from ledger_journals j
      join ledger_lines l on l.journal_id = j.id join ledger_accounts a on a.id = l.account_id
      where j.idempotency_key like ${`accountDeletion:${userId}:%`} order by j.id, l.id`),
  );
  return rows.map((row) => ({ kind: row.kind, [row.code]: BigInt(row.amount) }));
}

describe('deleting an account with money and links', () => {
  it('ends the bindings, forfeits what was not withdrawn, erases the XME and social ids, and keeps the money records', async () => {
    const member = await fundedMember(ctx, { cashback: '80', rewards: '5.5' });
    // A paid withdrawal: a money record that must survive the deletion.
    const paid = await withdraw(member, '50');
    await approveWithdrawal(ctx.deps, { id: paid.id, txHash: `0x${'ab'.repeat(32)}`, operatorId: null });
    expect(await moneyOf(ctx, member)).toEqual({ cashback: usdt('30'), rewards: usdt('5.5'), hold: 0n });
    const otherUid = nextUid('D');
    await addToRoster(ctx, BINANCE, otherUid);
    expect(
      await memberCall(ctx, member, '/elex/user/bindExchangeUid', {
        platId: BINANCE,
        uid: otherUid,
        address: ADDRESS,
      }),
    ).toMatchObject({ state: 0 });
    const xmeUid = nextUid('XME');
    expect(await memberCall(ctx, member, '/elex/user/bindXmeUid', { xmeUid })).toMatchObject({ state: 0 });
    const telegramId = String(Date.now());
    const at = ctx.clock.now();
    await saveSocialAccount(ctx.db, {
      userId: member.userId,
      network: 'telegram',
      accountId: telegramId,
      at,
    });
    await markSocialAccountVerified(ctx.db, {
      userId: member.userId,
      network: 'telegram',
      accountId: telegramId,
      at,
    });
    await saveSocialAccount(ctx.db, { userId: member.userId, network: 'discord', accountId: '4242', at });
    const rebatesBefore = await ctx.db.select().from(rebates).where(eq(rebates.uid, member.uid));
    const rewardsBefore = await ctx.db
      .select()
      .from(eventRewards)
      .where(eq(eventRewards.userId, member.userId));
    expect(rebatesBefore.length).toBeGreaterThan(0);
    expect(rewardsBefore.length).toBeGreaterThan(0);

    expect(await deleteAccount(member)).toEqual({
      state: 0,
      message: 'Your account has been deleted',
      content: null,
    });
    const now = ctx.clock.now();

    // Bindings end with their reason; the rows stay as records of who held which UID and address.
    const bindings = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(eq(exchangeBindings.userId, member.userId));
    expect(
      bindings.map(({ platId, uid, address, unboundAt, unbindReason, unboundBy }) => ({
        platId,
        uid,
        address,
        unboundAt,
        unbindReason,
        unboundBy,
      })),
    ).toEqual([
      {
        platId: member.platId,
        uid: member.uid,
        address: ADDRESS,
        unboundAt: now,
        unbindReason: 'accountDeleted',
        unboundBy: null,
      },
      {
        platId: BINANCE,
        uid: otherUid,
        address: ADDRESS,
        unboundAt: now,
        unbindReason: 'accountDeleted',
        unboundBy: null,
      },
    ]);

    // The money not withdrawn is forfeited back to its sources (terms, section 8), one journal each.
    expect(await moneyOf(ctx, member)).toEqual({ cashback: 0n, rewards: 0n, hold: 0n });
    expect(await forfeitLines(member.userId)).toEqual([
      { kind: 'accountDeletion', [`cashback:${member.platId}:${member.uid}`]: -usdt('30') },
      { kind: 'accountDeletion', [`commission:${member.platId}`]: usdt('30') },
      { kind: 'accountDeletion', [`rewards:${member.userId}`]: -usdt('5.5') },
      { kind: 'accountDeletion', 'rewards-expense': usdt('5.5') },
    ]);

    // The money records stay, linked to the anonymous row.
    const [withdrawal] = await ctx.db
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.id, Number(paid.id)));
    expect(withdrawal).toMatchObject({ userId: member.userId, status: 'completed', amountMicro: usdt('50') });
    expect(await ctx.db.select().from(rebates).where(eq(rebates.uid, member.uid))).toEqual(rebatesBefore);
    expect(await ctx.db.select().from(eventRewards).where(eq(eventRewards.userId, member.userId))).toEqual(
      rewardsBefore,
    );
    const [row] = await ctx.db.select().from(users).where(eq(users.id, member.userId));
    expect(row).toMatchObject({ email: null, passwordHash: null, deletedAt: now });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);

    // The XME account and the Telegram and Discord ids are gone.
    expect(await ctx.db.select().from(xmeBindings).where(eq(xmeBindings.userId, member.userId))).toEqual([]);
    expect(
      await ctx.db.select().from(socialAccounts).where(eq(socialAccounts.userId, member.userId)),
    ).toEqual([]);

    // The UID is free for its owner's next account, starting from nothing; so is the XME account.
    const next = await registerMember(ctx);
    expect(
      await memberCall(ctx, next, '/elex/user/bindExchangeUid', {
        platId: member.platId,
        uid: member.uid,
        address: ADDRESS,
      }),
    ).toMatchObject({ state: 0, content: { balance: '0.000000' } });
    expect(await memberCall(ctx, next, '/elex/user/bindXmeUid', { xmeUid })).toMatchObject({ state: 0 });
  });

  it('waits for a withdrawal under review: refused, nothing changed; after cancelling, the whole balance is forfeited', async () => {
    const member = await fundedMember(ctx, { cashback: '60' });
    const pending = await withdraw(member, '50');
    expect(await deleteAccount(member, 'zh')).toEqual({
      state: State.Refused,
      message: '您有提现正在审核中。请在其处理完毕或取消后再注销账户。',
      content: null,
    });
    expect((await memberCall(ctx, member, '/elex/user/profile')).state).toBe(0);
    const [binding] = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.userId, member.userId), eq(exchangeBindings.uid, member.uid)));
    expect(binding?.unboundAt).toBeNull();
    expect(await moneyOf(ctx, member, pending.id)).toEqual({
      cashback: usdt('10'),
      rewards: 0n,
      hold: usdt('50'),
    });

    expect(await memberCall(ctx, member, '/elex/user/cancelDeposit', { id: pending.id })).toMatchObject({
      state: 0,
    });
    expect(await deleteAccount(member)).toMatchObject({ state: 0 });
    expect(await forfeitLines(member.userId)).toEqual([
      { kind: 'accountDeletion', [`cashback:${member.platId}:${member.uid}`]: -usdt('60') },
      { kind: 'accountDeletion', [`commission:${member.platId}`]: usdt('60') },
    ]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('a deletion racing a withdrawal request never leaves a withdrawal under review on a deleted account', async () => {
    for (let round = 0; round < 5; round += 1) {
      const member = await fundedMember(ctx, { cashback: '60' });
      const authCode = await ownCode(ctx, member);
      const [deleted, requested] = await Promise.all([
        deleteAccount(member),
        applyDeposit(ctx, member, { amount: '50', authCode }),
      ]);
      // One of them goes first: either the withdrawal is under review and the deletion waits for it,
      // or the account is gone and the request finds nothing to draw (or no session).
      expect([deleted.state, requested.state].filter((state) => state === 0)).toHaveLength(1);
      const pending = await ctx.db
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, member.userId), eq(withdrawals.status, 'pending')));
      const [row] = await ctx.db.select().from(users).where(eq(users.id, member.userId));
      if (deleted.state === 0) {
        expect(row?.deletedAt).not.toBeNull();
        expect(pending).toEqual([]);
      } else {
        expect(row?.deletedAt).toBeNull();
        expect(pending).toHaveLength(1);
      }
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('names the sum it forfeits: refused, changing nothing, when the money held is no longer the sum shown', async () => {
    const member = await fundedMember(ctx, { cashback: '75', rewards: '2.5' });
    const shown = await shownForfeit(member);
    expect(shown).toBe('77.500000');
    // A rebate settles while the dialog is open: the member would lose more than they saw.
    await creditCashback(ctx, member.platId, member.uid, '10');
    expect(await deleteAccount(member, 'en', shown)).toEqual({
      state: State.Refused,
      message:
        'The money you hold changed since the dialog opened: 87.50 USDT would now be lost. Check the amounts and confirm again.',
      content: null,
    });
    // Nor a sum larger than held (a stale or made-up figure), in the member's language.
    expect(await deleteAccount(member, 'ko', '100')).toMatchObject({
      state: State.Refused,
      message:
        '대화 상자를 연 뒤 보유 금액이 바뀌었습니다. 이제 87.50 USDT를 잃게 됩니다. 금액을 확인한 뒤 다시 진행해 주세요.',
    });
    expect((await memberCall(ctx, member, '/elex/user/profile')).state).toBe(0);
    expect(await moneyOf(ctx, member)).toEqual({ cashback: usdt('85'), rewards: usdt('2.5'), hold: 0n });
    expect(await forfeitLines(member.userId)).toEqual([]);
    const [binding] = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.userId, member.userId), eq(exchangeBindings.uid, member.uid)));
    expect(binding?.unboundAt).toBeNull();

    // Shown the new sum, the member confirms and loses exactly that.
    expect(await shownForfeit(member)).toBe('87.500000');
    expect(await deleteAccount(member, 'en', '87.5')).toMatchObject({ state: 0 });
    expect(await forfeitLines(member.userId)).toEqual([
      { kind: 'accountDeletion', [`cashback:${member.platId}:${member.uid}`]: -usdt('85') },
      { kind: 'accountDeletion', [`commission:${member.platId}`]: usdt('85') },
      { kind: 'accountDeletion', [`rewards:${member.userId}`]: -usdt('2.5') },
      { kind: 'accountDeletion', 'rewards-expense': usdt('2.5') },
    ]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('needs the sum shown: a deletion without forfeitTotal, or with a malformed one, is refused naming it', async () => {
    const member = await registerMember(ctx);
    const attempt = (body: object) =>
      call(ctx, '/elex/user/deleteAccount', { passwd: PASSWORD, ...body }, { token: member.token }).then(
        (res) => res.json(),
      );
    expect(await attempt({})).toMatchObject({
      state: State.ValidationFailed,
      message: 'forfeitTotal: this field is required',
    });
    for (const forfeitTotal of [0, '-1', '1.1234567', '12 USDT', '']) {
      expect(await attempt({ forfeitTotal })).toMatchObject({
        state: State.ValidationFailed,
        message: 'forfeitTotal: invalid value',
      });
    }
    expect((await memberCall(ctx, member, '/elex/user/profile')).state).toBe(0);
    expect(await attempt({ forfeitTotal: '0' })).toMatchObject({ state: 0 });
  });

  it('books nothing for a member without money', async () => {
    const member = await registerMember(ctx);
    expect(await deleteAccount(member)).toMatchObject({ state: 0 });
    expect(
      await ctx.db
        .select()
        .from(ledgerJournals)
        .where(like(ledgerJournals.idempotencyKey, `accountDeletion:${member.userId}:%`)),
    ).toEqual([]);
  });
});
