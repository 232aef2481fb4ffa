import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changeAddressUntold,
  eventually,
  type MemberInstances,
  notificationsSettled,
  openMemberInstances,
} from '../../test/member-instances.js';
import { adminCall, newOperator } from '../admin/test-support.js';
import { users } from '../auth/auth.tables.js';
import { type CashbackTestContext, nextUid } from '../cashback/test-support.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  BITGET,
  confirmOwnershipForTest,
  creditCashback,
  fundedMember,
  memberCall,
  OTHER_ADDRESS,
  openDispute,
  ownCode,
  registerMember,
  type TestMember,
} from './test-support.js';

/**
 * withdrawable kept per process (db/member-answers.ts; migration 0052_member_notify_withdrawable):
 * two app instances on one database, every change the answer shows seen at once by the instance that
 * made it and right after by the other; a held bonus or an ownership hold that ends shows with
 * nothing written; a change made with its trigger off stays unseen (the answer is kept), and with
 * MEMBER_CACHE=off every call reads the database.
 */

type Answer = {
  lockedUntil: string | null;
  rewards: string;
  rewardsHeld: { amount: string; until: string | null; disputed: boolean } | null;
  bindings: Array<{
    uid: string;
    address: string;
    cashback: string;
    heldUntil: string | null;
    frozen: boolean;
  }>;
};

const withdrawable = async (ctx: CashbackTestContext, member: Pick<TestMember, 'token'>) =>
  (await memberCall(ctx, member, '/elex/user/withdrawable')).content as Answer;

describe('withdrawable on two instances', () => {
  let instances: MemberInstances;
  let a: CashbackTestContext;
  let b: CashbackTestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(2);
    [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
  });
  afterAll(() => instances.close());

  /** `member`'s answer on A now satisfies `check`, and B's right after. */
  async function seenByBoth(member: Pick<TestMember, 'token'>, check: (answer: Answer) => boolean) {
    const onA = await withdrawable(a, member);
    expect(check(onA), JSON.stringify(onA)).toBe(true);
    const onB = await eventually(() => withdrawable(b, member), check);
    expect(check(onB), JSON.stringify(onB)).toBe(true);
  }

  /** Reads the answer on both instances, so each keeps it. */
  async function readOnBoth(member: Pick<TestMember, 'token'>): Promise<Answer> {
    const onA = await withdrawable(a, member);
    expect(await withdrawable(b, member)).toEqual(onA);
    return onA;
  }

  /** A friend of `inviter` who binds a new UID now (inside its ownership hold) and earns `cashback`. */
  async function friendWithNewUid(inviter: TestMember, cashback: string): Promise<TestMember> {
    const friend = await registerMember(a);
    await a.db.update(users).set({ inviterId: inviter.userId }).where(eq(users.id, friend.userId));
    const uid = nextUid('K');
    await addToRoster(a, BITGET, uid);
    expect(
      await memberCall(a, friend, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }),
    ).toMatchObject({ state: 0 });
    await creditCashback(a, BITGET, uid, cashback);
    return { ...friend, platId: BITGET, uid };
  }

  it('is kept: a change made with its trigger off is not seen', async () => {
    const member = await fundedMember(a, { cashback: '20' });
    await notificationsSettled();
    expect((await readOnBoth(member)).bindings).toMatchObject([{ uid: member.uid, address: ADDRESS }]);
    await changeAddressUntold(a, member.uid, OTHER_ADDRESS);
    expect((await withdrawable(a, member)).bindings).toMatchObject([{ address: ADDRESS }]);
    expect((await withdrawable(b, member)).bindings).toMatchObject([{ address: ADDRESS }]);
  });

  it('a settlement’s credit, a withdrawal request and an operator’s correction are seen at once', async () => {
    const member = await fundedMember(a, { cashback: '60' });
    expect((await readOnBoth(member)).bindings).toMatchObject([{ cashback: '60.000000' }]);

    await creditCashback(a, member.platId, member.uid, '5');
    await seenByBoth(member, (answer) => answer.bindings[0]?.cashback === '65.000000');

    const sent = await applyDeposit(a, member, { amount: '55', authCode: await ownCode(a, member) });
    expect(sent).toMatchObject({ state: 0, content: { status: 'pending' } });
    await seenByBoth(member, (answer) => answer.bindings[0]?.cashback === '10.000000');

    const operator = await newOperator(a);
    expect(
      await adminCall(a, operator, 'corrections/propose', {
        userId: member.userId,
        account: 'rewards',
        amount: '1.5',
        reason: 'Kept answer test',
      }),
    ).toMatchObject({ state: 0, content: { status: 'posted' } });
    await seenByBoth(member, (answer) => answer.rewards === '1.500000');
  });

  it('a dispute opened freezes the UID on both at once, and its closing frees it', async () => {
    const member = await fundedMember(a, { cashback: '20' });
    expect((await readOnBoth(member)).bindings).toMatchObject([{ frozen: false }]);

    const opened = await openDispute(a, await registerMember(a), member);
    expect(opened).toMatchObject({ state: 0 });
    await seenByBoth(member, (answer) => answer.bindings[0]?.frozen === true);

    const closed = await adminCall(a, await newOperator(a), 'support/close', { id: opened.content.id });
    expect(closed).toMatchObject({ state: 0 });
    await seenByBoth(member, (answer) => answer.bindings[0]?.frozen === false);
  });

  it('a binding made is seen at once', async () => {
    const member = await fundedMember(a, { cashback: '45' });
    expect((await readOnBoth(member)).bindings).toHaveLength(1);
    const uid = nextUid('S');
    await addToRoster(a, BITGET, uid);
    expect(
      await memberCall(a, member, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }),
    ).toMatchObject({ state: 0 });
    await seenByBoth(member, (answer) => answer.bindings.length === 2 && answer.bindings[1]?.uid === uid);
  });

  it('a dispute on a friend’s UID holds the inviter’s bonus at once, and its closing ends that', async () => {
    const inviter = await fundedMember(a, { cashback: '45' });
    // A friend's new binding pays a bonus held for its ownership check.
    const friend = await friendWithNewUid(inviter, '50');
    expect((await readOnBoth(inviter)).rewardsHeld).toMatchObject({ amount: '5.000000', disputed: false });

    // The friend's row and UID are not the inviter's: the dispute's trigger names them.
    const opened = await openDispute(a, await registerMember(a), friend);
    expect(opened).toMatchObject({ state: 0 });
    await seenByBoth(inviter, (answer) => answer.rewardsHeld?.disputed === true);
    expect(
      await adminCall(a, await newOperator(a), 'support/close', { id: opened.content.id }),
    ).toMatchObject({ state: 0 });
    await seenByBoth(inviter, (answer) => answer.rewardsHeld?.disputed === false);
  });

  it('a friend’s binding confirmed frees the inviter’s bonus at once', async () => {
    const inviter = await fundedMember(a, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '50');
    expect((await readOnBoth(inviter)).rewardsHeld).toMatchObject({ amount: '5.000000' });
    await confirmOwnershipForTest(a, BITGET, friend.uid);
    await seenByBoth(inviter, (answer) => answer.rewardsHeld === null && answer.rewards === '5.000000');
  });

  // Moves the shared clock 14 days: the last test of the group.
  it('a held bonus and an ownership hold that end show on both with nothing written', async () => {
    const inviter = await fundedMember(a, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '100');
    const held = await readOnBoth(inviter);
    expect(held.rewardsHeld).toMatchObject({ amount: '10.000000', disputed: false });
    const until = held.rewardsHeld?.until as string;
    const friends = await readOnBoth(friend);
    expect(friends.bindings).toMatchObject([{ uid: friend.uid, heldUntil: until }]);

    // A moment before the end: still held, as kept.
    instances.clock.advance(Date.parse(until) - instances.clock.now().getTime() - 1);
    expect((await withdrawable(a, inviter)).rewardsHeld).toMatchObject({ amount: '10.000000' });
    expect((await withdrawable(b, inviter)).rewardsHeld).toMatchObject({ amount: '10.000000' });
    expect((await withdrawable(b, friend)).bindings).toMatchObject([{ heldUntil: until }]);

    instances.clock.advance(1);
    for (const ctx of [a, b]) {
      expect(await withdrawable(ctx, inviter)).toMatchObject({ rewards: '10.000000', rewardsHeld: null });
      expect((await withdrawable(ctx, friend)).bindings).toMatchObject([{ heldUntil: null }]);
    }
  });
});

describe('withdrawable with MEMBER_CACHE=off', () => {
  let instances: MemberInstances;
  beforeAll(async () => {
    instances = await openMemberInstances(1, { enabled: false });
  });
  afterAll(() => instances.close());

  it('reads the database on every call', async () => {
    const ctx = instances.contexts[0] as CashbackTestContext;
    expect(ctx.deps.memberAnswers).toBeUndefined();
    const member = await fundedMember(ctx, { cashback: '20' });
    expect((await withdrawable(ctx, member)).bindings).toMatchObject([{ address: ADDRESS }]);
    await changeAddressUntold(ctx, member.uid, OTHER_ADDRESS);
    expect((await withdrawable(ctx, member)).bindings).toMatchObject([{ address: OTHER_ADDRESS }]);
  });
});
