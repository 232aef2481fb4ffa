import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { listAudit } from '../admin/audit.service.js';
import { grantOperator } from '../admin/operators.service.js';
import { adminCall, type Caller, countRows, newOperator } from '../admin/test-support.js';
import { endMemberHoldings } from '../auth/deletion.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import { BINANCE, BITGET, type CashbackTestContext, nextUid } from '../cashback/test-support.js';
import { accountCode, balanceOf, postJournal } from '../ledger/ledger.service.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  confirmOwnershipForTest,
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
import { checkCorrectionInvariants } from './corrections.check.js';

/**
 * Corrections through the console's API: at once up to the threshold (100 USDT by default), pending
 * above it until a second operator approves, refused overdrafts, the audit trail, what the member
 * sees, and ledger:check on sound and tampered data.
 */
let ctx: CashbackTestContext;
let alice: Caller;
let bob: Caller;
beforeAll(async () => {
  ctx = await createWithdrawalTestApp();
  alice = await newOperator(ctx);
  bob = await newOperator(ctx);
});
afterAll(() => ctx.close());

const propose = (operator: Caller, body: object, lang?: string) =>
  adminCall(ctx, operator, 'corrections/propose', body, lang);
const approve = (operator: Caller, id: number, lang?: string) =>
  adminCall(ctx, operator, 'corrections/approve', { id }, lang);
const reject = (operator: Caller, id: number, reason: string) =>
  adminCall(ctx, operator, 'corrections/reject', { id, reason });
const cashbackOf = (member: TestMember) => ({
  userId: member.userId,
  account: 'cashback',
  platId: member.platId,
  uid: member.uid,
});

async function auditTrail(id: number) {
  const page = await listAudit(ctx.db, { target: `correction:${id}`, page: 1, pageSize: 20 });
  return page.rows.map((entry) => [entry.action, entry.actor]).reverse();
}

async function journalsOf(id: number) {
  return rowsOf<{ id: string }>(
    await ctx.db.execute(sql`select id from ledger_journals where idempotency_key = ${`correction:${id}`}`),
  );
}

async function soundLedger() {
  expect(await checkAllInvariants(ctx.db)).toEqual([]);
}

/** Another member binds `earlier`'s UID (once it was unbound or its holder left). */
async function nextHolder(earlier: TestMember): Promise<TestMember> {
  const next = { ...(await registerMember(ctx)), platId: earlier.platId, uid: earlier.uid };
  expect(
    await memberCall(ctx, next, '/elex/user/bindExchangeUid', {
      platId: next.platId,
      uid: next.uid,
      address: ADDRESS,
    }),
  ).toMatchObject({ state: 0 });
  return next;
}

describe('proposing a correction', () => {
  it('posts a credit up to the threshold at once: the UID’s balance, the member’s totals and records show it', async () => {
    const member = await fundedMember(ctx, { cashback: '40' });
    const answer = await propose(alice, {
      ...cashbackOf(member),
      amount: '12.345678',
      reason: 'Missed rebate for 3 March',
    });
    expect(answer).toMatchObject({
      state: 0,
      message: 'Correction posted',
      content: { status: 'posted', amount: '12.345678', needsApproval: false, proposedBy: alice.email },
    });
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('52.345678'));
    expect(await auditTrail(answer.content.id)).toEqual([
      ['correction.propose', alice.email],
      ['correction.post', alice.email],
    ]);

    const info = await memberCall(ctx, member, '/elex/user/myInfo');
    expect(info.content.exchangeBinds[0].balance).toBe('52.345678');
    expect(info.content.totalRebate).toBe('52.345678');
    const adjustments = await memberCall(ctx, member, '/elex/user/seeAdjustments', { account: 'cashback' });
    expect(adjustments.content).toMatchObject({
      total: 1,
      records: [
        {
          account: 'cashback',
          platId: member.platId,
          uid: member.uid,
          amount: '12.345678',
          reason: 'Missed rebate for 3 March',
        },
      ],
    });
    await soundLedger();
  });

  it('counts in what the withdrawal queue shows the operator as earned, a debit lowering it', async () => {
    const member = await fundedMember(ctx, { cashback: '60', rewards: '5' });
    expect(
      await propose(alice, { ...cashbackOf(member), amount: '7.5', reason: 'Missed day' }),
    ).toMatchObject({
      state: 0,
    });
    expect(
      await propose(alice, {
        userId: member.userId,
        account: 'rewards',
        amount: '-2',
        reason: 'Double bonus',
      }),
    ).toMatchObject({ state: 0 });
    const answer = await applyDeposit(ctx, member, { amount: '50', authCode: await ownCode(ctx, member) });
    expect(answer).toMatchObject({ state: 0 });
    const queue = await adminCall(ctx, bob, 'withdrawalQueue', { status: 'pending', page: 1, pageSize: 100 });
    const item = (queue.content.rows as Array<{ id: string; summary: object }>).find(
      (entry) => entry.id === answer.content?.id,
    );
    expect(item?.summary).toMatchObject({ cashbackEarned: '67.500000', rewardsEarned: '3.000000' });
  });

  it('keeps a correction above the threshold pending, booking nothing, until a second operator approves it once', async () => {
    const member = await fundedMember(ctx, { cashback: '10', rewards: '5' });
    const answer = await propose(alice, {
      userId: member.userId,
      account: 'rewards',
      amount: '150',
      reason: 'Campaign prize',
    });
    expect(answer).toMatchObject({
      state: 0,
      message: 'Correction saved: it waits for a second operator’s approval',
      content: { status: 'pending', needsApproval: true },
    });
    const id = answer.content.id as number;
    expect((await moneyOf(ctx, member)).rewards).toBe(usdt('5'));
    expect(await journalsOf(id)).toHaveLength(0);
    await soundLedger();

    const queue = await adminCall(ctx, bob, 'corrections/list', { status: 'pending', pageSize: 100 });
    expect(queue.content.approvalThreshold).toBe('100.000000');
    expect(queue.content.rows.map((row: { id: number }) => row.id)).toContain(id);

    expect(await approve(alice, id)).toMatchObject({
      state: State.Refused,
      message: 'You proposed this correction: another operator must approve it',
    });
    expect(await approve(alice, id, 'ko')).toMatchObject({
      message: '본인이 제안한 조정입니다. 다른 운영자가 승인해야 합니다',
    });
    expect((await moneyOf(ctx, member)).rewards).toBe(usdt('5'));

    expect(await approve(bob, id)).toMatchObject({
      state: 0,
      message: 'Correction posted',
      content: { status: 'posted', decidedBy: bob.email },
    });
    expect(await approve(bob, id)).toMatchObject({
      state: State.Refused,
      message: 'This correction has already been decided',
    });
    expect(await journalsOf(id)).toHaveLength(1);
    expect((await moneyOf(ctx, member)).rewards).toBe(usdt('155'));
    expect(await auditTrail(id)).toEqual([
      ['correction.propose', alice.email],
      ['correction.approve', bob.email],
      ['correction.post', bob.email],
    ]);

    const info = await memberCall(ctx, member, '/elex/user/myInfo');
    expect(info.content.totalReward).toBe('155.000000');
    const rewards = await memberCall(ctx, member, '/elex/user/seeAdjustments', { account: 'rewards' });
    expect(rewards.content.records).toMatchObject([
      { account: 'rewards', platId: null, uid: null, amount: '150.000000', reason: 'Campaign prize' },
    ]);
    expect(
      (await memberCall(ctx, member, '/elex/user/seeAdjustments', { account: 'cashback' })).content.total,
    ).toBe(0);
    await soundLedger();
  });

  it('lets either operator reject a pending correction with a reason: nothing is booked', async () => {
    const member = await fundedMember(ctx, { cashback: '300' });
    const first = (
      await propose(alice, { ...cashbackOf(member), amount: '-200', reason: 'Duplicate rebate' })
    ).content.id as number;
    const second = (await propose(alice, { ...cashbackOf(member), amount: '-250', reason: 'Typo' })).content
      .id as number;
    expect(await reject(bob, first, 'The rebate was not a duplicate')).toMatchObject({
      state: 0,
      message: 'Correction rejected; nothing was posted',
      content: {
        status: 'rejected',
        rejectionReason: 'The rebate was not a duplicate',
        decidedBy: bob.email,
      },
    });
    // The proposer withdraws their own.
    expect(await reject(alice, second, 'Wrong amount')).toMatchObject({ state: 0 });
    expect(await approve(bob, first)).toMatchObject({ state: State.Refused });
    expect(await reject(bob, first, 'again')).toMatchObject({
      message: 'This correction has already been decided',
    });
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('300'));
    expect(await journalsOf(first)).toHaveLength(0);
    expect(await auditTrail(first)).toEqual([
      ['correction.propose', alice.email],
      ['correction.reject', bob.email],
    ]);
    expect((await memberCall(ctx, member, '/elex/user/seeAdjustments')).content.total).toBe(0);
    await soundLedger();
  });

  it('refuses a debit that would take the account below zero, saving nothing, now and at approval', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    const corrections = await countRows(ctx, 'corrections');
    expect(
      await propose(alice, { ...cashbackOf(member), amount: '-10.000001', reason: 'Over-credited' }),
    ).toMatchObject({
      state: State.Refused,
      message: 'This debit would take the balance below zero: the account holds 10.000000 USDT',
    });
    expect(
      await propose(alice, { ...cashbackOf(member), amount: '-10.000001', reason: 'Over-credited' }, 'zh'),
    ).toMatchObject({ message: '此扣减会使余额低于零：该账户现有 10.000000 USDT' });
    expect(await countRows(ctx, 'corrections')).toBe(corrections);
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('10'));

    // Two pending debits that fit one at a time: the second approval finds the money gone.
    const rich = await fundedMember(ctx, { cashback: '200' });
    const one = (await propose(alice, { ...cashbackOf(rich), amount: '-150', reason: 'Clawback 1' })).content
      .id as number;
    const two = (await propose(alice, { ...cashbackOf(rich), amount: '-150', reason: 'Clawback 2' })).content
      .id as number;
    expect(await approve(bob, one)).toMatchObject({ state: 0 });
    expect(await approve(bob, two)).toMatchObject({
      state: State.Refused,
      message: 'This debit would take the balance below zero: the account holds 50.000000 USDT',
    });
    const list = await adminCall(ctx, bob, 'corrections/list', { userId: rich.userId });
    expect(list.content.rows.find((row: { id: number }) => row.id === two)).toMatchObject({
      status: 'pending',
    });
    expect((await moneyOf(ctx, rich)).cashback).toBe(usdt('50'));
    await soundLedger();
  });

  it('names what is wrong with a proposal and changes nothing', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    const before = await countRows(ctx, 'corrections');
    const cases: Array<[object, string]> = [
      [{ amount: '0', reason: 'x' }, 'A correction cannot be zero'],
      [
        { amount: '1.1234567', reason: 'x' },
        'Enter an amount in USDT with up to 6 decimals, with - in front for a debit',
      ],
      [{ amount: '5', reason: '  ' }, 'Please give a reason'],
      [{ amount: '5', reason: 'x'.repeat(301) }, 'Keep the reason under 300 characters: the member reads it'],
      [{ amount: '5', reason: 'x', uid: nextUid('N') }, 'This UID was never bound to this member'],
    ];
    for (const [change, message] of cases) {
      const answer = await propose(alice, { ...cashbackOf(member), ...change });
      expect(answer.state).not.toBe(0);
      expect(answer.message).toContain(message);
    }
    expect(
      (await propose(alice, { userId: member.userId, account: 'cashback', amount: '5', reason: 'x' }))
        .message,
    ).toContain('Choose which UID the cashback correction is for');
    expect(
      (await propose(alice, { userId: 999_999, account: 'rewards', amount: '5', reason: 'x' })).message,
    ).toBe('No such member');
    expect((await approve(bob, 999_999)).message).toBe('No such correction');
    expect(await countRows(ctx, 'corrections')).toBe(before);
  });

  it('is the console’s: a member is refused', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    const answer = await adminCall(ctx, member, 'corrections/propose', {
      userId: member.userId,
      account: 'rewards',
      amount: '5',
      reason: 'self-service',
    });
    expect(answer.state).toBe(State.Forbidden);
    expect((await moneyOf(ctx, member)).rewards).toBe(0n);
  });
});

describe('a proposal sent again', () => {
  it('with the same request id books once, answering the first; with other details it is refused', async () => {
    const member = await fundedMember(ctx, { cashback: '40' });
    const requestId = '0b6f5c1e-2a43-4d8e-9f31-7c2d5e8a9b10';
    const body = { ...cashbackOf(member), amount: '30', reason: 'Missed rebate for 4 March', requestId };
    // The operator's first click committed but the answer was lost; they click again.
    const first = await propose(alice, body);
    const again = await propose(alice, body);
    expect(first).toMatchObject({ state: 0, content: { status: 'posted', amount: '30.000000' } });
    expect(again).toMatchObject({ state: 0, content: { id: first.content.id, status: 'posted' } });
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('70'));
    const changed = await propose(alice, { ...body, amount: '31' }, 'ko');
    expect(changed).toMatchObject({ state: State.Refused });
    expect(changed.message).toContain('새로');
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('70'));
    // Another operator's request id of the same value is theirs: it books.
    expect(await propose(bob, body)).toMatchObject({ state: 0, content: { status: 'posted' } });
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('100'));
    await soundLedger();
  });

  it('answers a first correction rejected meanwhile as rejected, not as waiting for approval', async () => {
    const member = await fundedMember(ctx, { cashback: '10', rewards: '5' });
    const requestId = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
    const body = {
      userId: member.userId,
      account: 'rewards',
      amount: '150',
      reason: 'Campaign prize',
      requestId,
    };
    const first = await propose(alice, body);
    expect(first).toMatchObject({ state: 0, content: { status: 'pending' } });
    expect(await reject(bob, first.content.id as number, 'Not owed')).toMatchObject({ state: 0 });
    // Alice's first answer was lost; her click sent again learns what became of it.
    const again = await propose(alice, body);
    expect(again).toMatchObject({
      state: 0,
      message:
        'This correction was already sent and has been rejected by a second operator; nothing was posted',
      content: { id: first.content.id, status: 'rejected' },
    });
    expect((await propose(alice, body, 'zh')).message).toContain('已被另一位运营人员拒绝');
    expect((await propose(alice, body, 'ko')).message).toContain('거절');
    expect((await moneyOf(ctx, member)).rewards).toBe(usdt('5'));
  });
});

describe('whose money a correction may touch', () => {
  /** `first`'s UID unbound by an operator and bound (ownership confirmed) by another member. */
  async function movedUid(cashback: string) {
    const first = await fundedMember(ctx, { cashback });
    expect(
      await adminCall(ctx, alice, 'unbindUid', {
        userId: first.userId,
        platId: first.platId,
        uid: first.uid,
        reason: 'Disputed',
      }),
    ).toMatchObject({ state: 0 });
    const next = await nextHolder(first);
    return { first, next };
  }

  it('refuses a UID the member no longer holds (its balance is the next holder’s); their rewards take it', async () => {
    const { first, next } = await movedUid('40');
    const before = await countRows(ctx, 'corrections');
    for (const amount of ['-30', '25']) {
      expect(
        await propose(alice, { ...cashbackOf(first), amount, reason: 'Duplicate rebate' }, 'ko'),
      ).toMatchObject({
        state: State.Refused,
        message:
          '이 UID는 더 이상 이 회원에게 연동되어 있지 않습니다. 잔액은 현재 보유자의 것이니 회원의 리워드를 조정해 주세요',
      });
    }
    expect(await countRows(ctx, 'corrections')).toBe(before);
    expect((await moneyOf(ctx, next)).cashback).toBe(usdt('40'));

    const credit = await propose(alice, {
      userId: first.userId,
      account: 'rewards',
      amount: '25',
      reason: 'Goodwill',
    });
    expect(credit).toMatchObject({ state: 0, content: { status: 'posted' } });
    expect((await moneyOf(ctx, first)).rewards).toBe(usdt('25'));
    expect((await memberCall(ctx, first, '/elex/user/seeAdjustments', {})).content.total).toBe(1);
    expect((await memberCall(ctx, next, '/elex/user/seeAdjustments', {})).content.total).toBe(0);
    await soundLedger();
  });

  it('checks again at approval: the UID moved or the member left meanwhile, it stays pending and books nothing', async () => {
    const member = await fundedMember(ctx, { cashback: '300' });
    const proposed = await propose(alice, { ...cashbackOf(member), amount: '-150', reason: 'Overpaid' });
    expect(proposed.content).toMatchObject({ status: 'pending' });
    expect(
      await adminCall(ctx, bob, 'unbindUid', {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'Disputed',
      }),
    ).toMatchObject({ state: 0 });
    expect(await approve(bob, proposed.content.id)).toMatchObject({
      state: State.Refused,
      message:
        'This UID is no longer bound to this member: its balance is its current holder’s. Correct the member’s rewards instead',
    });
    expect(await journalsOf(proposed.content.id)).toEqual([]);

    const leaving = await fundedMember(ctx, { cashback: '10', rewards: '5' });
    const credit = await propose(alice, {
      userId: leaving.userId,
      account: 'rewards',
      amount: '150',
      reason: 'Prize',
    });
    await ctx.db.transaction((tx) => endMemberHoldings(tx, leaving.userId, ctx.clock.now(), 15_000_000n));
    await ctx.db.execute(sql`update users set deleted_at = now() where id = ${leaving.userId}`);
    expect(await approve(bob, credit.content.id)).toMatchObject({
      state: State.NotFound,
      message: 'No such member',
    });
    expect(await journalsOf(credit.content.id)).toEqual([]);
    for (const id of [proposed.content.id, credit.content.id]) {
      expect(await reject(bob, id, 'No longer applies')).toMatchObject({ state: 0 });
    }
    await soundLedger();
  });

  it('refuses an operator’s own money, proposed or approved by them', async () => {
    const aliceRewards = () => balanceOf(ctx.db, accountCode.rewards(alice.userId));
    const before = await aliceRewards();
    expect(
      await propose(alice, { userId: alice.userId, account: 'rewards', amount: '100', reason: 'x' }, 'zh'),
    ).toMatchObject({ state: State.Refused, message: '您不能调整自己的资金：须由其他运营人员提出' });
    const forAlice = await propose(bob, {
      userId: alice.userId,
      account: 'rewards',
      amount: '150',
      reason: 'Prize',
    });
    expect(forAlice.content).toMatchObject({ status: 'pending' });
    expect(await approve(alice, forAlice.content.id)).toMatchObject({
      state: State.Refused,
      message: 'You cannot correct your own money: another operator must propose it',
    });
    expect(await aliceRewards()).toBe(before);
    expect(await reject(bob, forAlice.content.id, 'Withdrawn')).toMatchObject({ state: 0 });
  });

  it('refuses an operator rejecting a correction of their own money: a clawback is not theirs to stop', async () => {
    const carol = await fundedMember(ctx, { cashback: '10', rewards: '200' });
    await grantOperator(ctx.deps, carol.email, { userId: null, label: 'cli:test' });
    const clawback = { userId: carol.userId, account: 'rewards', amount: '-150', reason: 'Prize paid twice' };
    const proposed = await propose(bob, clawback);
    expect(proposed.content).toMatchObject({ status: 'pending' });
    const id = proposed.content.id as number;
    expect(await reject(carol, id, 'Not owed')).toMatchObject({
      state: State.Refused,
      message: 'This correction concerns your own money: another operator must decide it',
    });
    expect(await auditTrail(id)).toEqual([['correction.propose', bob.email]]);
    expect(await approve(alice, id)).toMatchObject({ state: 0, content: { status: 'posted' } });
    expect(await balanceOf(ctx.db, accountCode.rewards(carol.userId))).toBe(usdt('50'));
  });

  it('counts what one operator posted at once for a member in 24 hours toward the threshold', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    const slice = (operator: Caller) =>
      propose(operator, { userId: member.userId, account: 'rewards', amount: '60', reason: 'Prize' });
    expect((await slice(alice)).content).toMatchObject({ status: 'posted', needsApproval: false });
    // 60 + 60 is above 100: the second waits for another operator, and another operator's own count starts at 0.
    const second = await slice(alice);
    expect(second).toMatchObject({ message: 'Correction saved: it waits for a second operator’s approval' });
    expect(second.content).toMatchObject({ status: 'pending', needsApproval: true });
    expect((await slice(bob)).content).toMatchObject({ status: 'posted' });
    expect((await moneyOf(ctx, member)).rewards).toBe(usdt('120'));
    ctx.clock.advance(86_400_000 + 1_000);
    expect((await slice(alice)).content).toMatchObject({ status: 'posted' });
    expect(await approve(bob, second.content.id)).toMatchObject({ state: 0, content: { status: 'posted' } });
    expect((await moneyOf(ctx, member)).rewards).toBe(usdt('240'));
    await soundLedger();
  });
});

describe("the member's adjustments", () => {
  it('pages their rewards and UIDs newest first, and shows the next holder of a UID none of an earlier holder’s', async () => {
    const first = await fundedMember(ctx, { cashback: '40' });
    const post = async (body: object) => expect((await propose(alice, body)).content.status).toBe('posted');
    await post({ ...cashbackOf(first), amount: '5', reason: 'Missed rebate' });
    ctx.clock.advance(60_000);
    await post({ userId: first.userId, account: 'rewards', amount: '3', reason: 'Campaign prize' });
    ctx.clock.advance(60_000);
    await post({ ...cashbackOf(first), amount: '-1', reason: 'Duplicate rebate' });
    const adjustments = (member: Pick<TestMember, 'token'>, body: object) =>
      memberCall(ctx, member, '/elex/user/seeAdjustments', body).then((answer) => answer.content);

    const pageOne = await adjustments(first, { page: 1, pageSize: 2 });
    expect(pageOne.total).toBe(3);
    expect(pageOne.records.map((record: { reason: string }) => record.reason)).toEqual([
      'Duplicate rebate',
      'Campaign prize',
    ]);
    expect((await adjustments(first, { page: 2, pageSize: 2 })).records).toMatchObject([
      { account: 'cashback', platId: first.platId, uid: first.uid, amount: '5.000000' },
    ]);
    expect(await adjustments(first, { account: 'cashback', page: 1, pageSize: 20 })).toMatchObject({
      total: 2,
      records: [{ amount: '-1.000000' }, { amount: '5.000000' }],
    });
    expect(await adjustments(first, { account: 'rewards', page: 1, pageSize: 20 })).toMatchObject({
      total: 1,
      records: [{ account: 'rewards', platId: null, uid: null, amount: '3.000000' }],
    });
    expect(await adjustments(first, { page: 3, pageSize: 2 })).toMatchObject({ total: 3, records: [] });

    // The member deletes their account (47 USDT forfeited: 44 of cashback, 3 of rewards); another member binds the UID.
    await ctx.db.transaction((tx) => endMemberHoldings(tx, first.userId, ctx.clock.now(), 47_000_000n));
    ctx.clock.advance(60_000);
    const next = await nextHolder(first);
    expect(await adjustments(next, { page: 1, pageSize: 20 })).toMatchObject({ total: 0, records: [] });

    await post({ ...cashbackOf(next), amount: '2', reason: 'Goodwill' });
    expect(await adjustments(next, { page: 1, pageSize: 20 })).toMatchObject({
      total: 1,
      records: [{ account: 'cashback', uid: next.uid, amount: '2.000000', reason: 'Goodwill' }],
    });
    await soundLedger();
  });

  it('lists one exchange’s or one UID’s corrections when asked (the records export of that exchange)', async () => {
    const member = await fundedMember(ctx, { cashback: '10', platId: BITGET });
    // A second UID on Binance, and another one on Bitget.
    const second = { ...member, platId: BINANCE, uid: nextUid('W') };
    const third = { ...member, platId: BITGET, uid: nextUid('W') };
    for (const holding of [second, third]) {
      await addToRoster(ctx, holding.platId, holding.uid);
      expect(
        await memberCall(ctx, member, '/elex/user/bindExchangeUid', {
          platId: holding.platId,
          uid: holding.uid,
          address: ADDRESS,
        }),
      ).toMatchObject({ state: 0 });
      await confirmOwnershipForTest(ctx, holding.platId, holding.uid);
      await creditCashback(ctx, holding.platId, holding.uid, '10');
    }
    const post = async (body: object) => expect((await propose(alice, body)).content.status).toBe('posted');
    await post({ ...cashbackOf(member), amount: '1.5', reason: 'Bitget, first UID' });
    await post({ ...cashbackOf(second), amount: '2.25', reason: 'Binance' });
    await post({ ...cashbackOf(third), amount: '-0.125', reason: 'Bitget, second UID' });
    await post({ userId: member.userId, account: 'rewards', amount: '3', reason: 'Campaign prize' });
    const reasons = async (body: object) => {
      const answer = await memberCall(ctx, member, '/elex/user/seeAdjustments', body);
      expect(answer.state).toBe(0);
      return [
        answer.content.total,
        answer.content.records.map((record: { reason: string }) => record.reason),
      ];
    };

    expect(await reasons({ platId: BITGET })).toEqual([2, ['Bitget, second UID', 'Bitget, first UID']]);
    expect(await reasons({ account: 'cashback', platId: BINANCE })).toEqual([1, ['Binance']]);
    expect(await reasons({ platId: BITGET, uid: third.uid })).toEqual([1, ['Bitget, second UID']]);
    // The rewards have no exchange: asked for one, none of them.
    expect(await reasons({ account: 'rewards', platId: BITGET })).toEqual([0, []]);
    expect(await reasons({})).toEqual([4, expect.any(Array)]);
    // A malformed filter is refused with its field named, not read as "every exchange".
    const refused = await memberCall(ctx, member, '/elex/user/seeAdjustments', { uid: 'no spaces!' });
    expect(refused.state).toBe(State.ValidationFailed);
    expect(refused.message).toMatch(/uid/i);
  });
});

describe('ledger:check on corrections', () => {
  it('refuses to change a decided correction (the database’s trigger)', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    const id = (await propose(alice, { ...cashbackOf(member), amount: '1', reason: 'Goodwill' })).content.id;
    await expect(
      ctx.db.execute(sql`update corrections set amount_micro = 2 where id = ${id}`),
    ).rejects.toThrow();
    await expect(ctx.db.execute(sql`delete from corrections where id = ${id}`)).rejects.toThrow();
  });

  it('finds a journal booked for a pending correction, and an adjustment without its correction', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    const id = (await propose(alice, { ...cashbackOf(member), amount: '500', reason: 'Big one' })).content.id;
    await soundLedger();
    // Booked behind the approval's back.
    await ctx.db.transaction((tx) =>
      postJournal(tx, {
        kind: 'correction',
        key: `correction:${id}`,
        lines: [
          { account: accountCode.cashback(member.platId, member.uid), amount: usdt('500') },
          { account: accountCode.adjustments, amount: -usdt('500') },
        ],
        at: ctx.clock.now(),
      }),
    );
    await ctx.db.transaction((tx) =>
      postJournal(tx, {
        kind: 'manual',
        key: `manual:${member.uid}`,
        lines: [
          { account: accountCode.rewards(member.userId), amount: usdt('3') },
          { account: accountCode.adjustments, amount: -usdt('3') },
        ],
        at: ctx.clock.now(),
      }),
    );
    const problems = (await checkCorrectionInvariants(ctx.db)).map((problem) => problem.invariant);
    expect(problems).toEqual([
      'a pending or rejected correction has no journal',
      'every correction journal and every line on adjustments belongs to a posted correction',
      'adjustments holds minus the sum of the posted corrections',
    ]);
    expect((await checkAllInvariants(ctx.db)).map((problem) => problem.invariant)).toEqual(
      expect.arrayContaining(problems),
    );
    expect(await balanceOf(ctx.db, accountCode.cashback(member.platId, member.uid))).toBe(usdt('510'));
  });
});
