import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { users } from '../auth/auth.tables.js';
import { PASSWORD } from '../auth/test-support.js';
import { unbindUid } from '../bindings/bindings.service.js';
import { exchangeBindings } from '../bindings/bindings.tables.js';
import { eventRewards } from '../cashback/cashback.tables.js';
import { DAY_MS, nextUid } from '../cashback/test-support.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  BITGET,
  confirmOwnershipForTest,
  createWithdrawalTestApp,
  creditCashback,
  fundedMember,
  memberCall,
  moneyOf,
  openDispute,
  ownCode,
  registerMember,
  type TestMember,
} from './test-support.js';
import { withdrawals } from './withdrawals.tables.js';

/**
 * An invite bonus waits with the binding that paid it (docs/withdrawals.md, "Invite bonuses wait for
 * their friend's ownership check"): while a friend's newly bound UID is in its ownership hold, or its
 * UID is under an ownership dispute, the bonuses its records paid the inviter are part of the
 * inviter's rewards but cannot be withdrawn. Otherwise an accomplice binding a stranger's UID would
 * let their inviter take 10 % of the stranger's cashback before the owner could dispute.
 */
let ctx: Awaited<ReturnType<typeof createWithdrawalTestApp>>;
let operator: Caller;
beforeAll(async () => {
  ctx = await createWithdrawalTestApp();
  operator = await newOperator(ctx);
});
afterAll(() => ctx.close());

/** `member` binds `uid` at Bitget now; the binding must be made. */
async function bind(member: Pick<TestMember, 'token'>, uid: string) {
  expect(
    await memberCall(ctx, member, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }),
  ).toMatchObject({ state: 0 });
}

/** A friend of `inviter` who binds a new UID now (in its ownership hold) and earns `cashback` on it. */
async function friendWithNewUid(inviter: TestMember, cashback: string) {
  const friend = await registerMember(ctx);
  await ctx.db.update(users).set({ inviterId: inviter.userId }).where(eq(users.id, friend.userId));
  const uid = nextUid('I');
  await addToRoster(ctx, BITGET, uid);
  await bind(friend, uid);
  const boundAt = ctx.clock.now();
  await creditCashback(ctx, BITGET, uid, cashback);
  return { ...friend, platId: BITGET, uid, boundAt };
}

/** The UID's owner says a friend holds it: the UID is frozen. */
const dispute = (owner: Pick<TestMember, 'token'>, friend: TestMember) => openDispute(ctx, owner, friend);

const withdrawable = async (member: TestMember) =>
  (await memberCall(ctx, member, '/elex/user/withdrawable')).content;

const withdrawalCount = async (member: TestMember) =>
  (await ctx.db.select().from(withdrawals).where(eq(withdrawals.userId, member.userId))).length;

describe('invite bonuses wait for their friend’s ownership check', () => {
  it('holds a new binding’s bonuses until its hold ends, and refuses to send them meanwhile', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '100');
    // A bonus from a binding an operator confirmed is the inviter's at once.
    const settled = await friendWithNewUid(inviter, '30');
    await confirmOwnershipForTest(ctx, BITGET, settled.uid, operator.userId);

    const until = new Date(friend.boundAt.getTime() + 14 * DAY_MS).toISOString();
    // Settlement names the binding that paid each bonus and when its hold ends.
    const [paid] = await ctx.db
      .select()
      .from(eventRewards)
      .where(eq(eventRewards.sourceUserId, friend.userId));
    const [binding] = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.uid, friend.uid), isNull(exchangeBindings.unboundAt)));
    expect(paid).toMatchObject({ bindingId: binding?.id, holdEndsAt: new Date(until), disputeIds: null });
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '13.000000',
      rewardsHeld: { amount: '10.000000', until, disputed: false },
      bindings: [
        { uid: inviter.uid, cashback: '45.000000', withdrawable: '48.000000', shortfall: '2.000000' },
      ],
    });

    // 45 of cashback and 3 of free rewards: short of the minimum, and nothing moves.
    const before = await moneyOf(ctx, inviter);
    const refused = await applyDeposit(ctx, inviter, { amount: '50', authCode: await ownCode(ctx, inviter) });
    expect(refused).toMatchObject({
      state: 1002,
      message: 'The minimum withdrawal is 50.00 USDT; 2.00 USDT more is needed',
    });
    expect(await moneyOf(ctx, inviter)).toEqual(before);
    expect(await withdrawalCount(inviter)).toBe(0);

    // The friend's hold ends: so does the bonus's.
    ctx.clock.advance(14 * DAY_MS + 1000);
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '13.000000',
      rewardsHeld: null,
      bindings: [{ withdrawable: '58.000000', shortfall: '0.000000' }],
    });
    const sent = await applyDeposit(ctx, inviter, { amount: '55', authCode: await ownCode(ctx, inviter) });
    expect(sent).toMatchObject({ state: 0, content: { status: 'pending', amount: '55.000000' } });
    expect(await moneyOf(ctx, inviter)).toMatchObject({ cashback: 0n, rewards: 3_000_000n });
  });

  it('keeps holding them past the 14 days while a dispute opened inside them is open, and frees them on close', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '80');
    ctx.clock.advance(10 * DAY_MS);
    const opened = await dispute(await registerMember(ctx), friend);
    expect(opened).toMatchObject({ state: 0 });
    ctx.clock.advance(5 * DAY_MS);
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '8.000000',
      rewardsHeld: { amount: '8.000000', until: null, disputed: true },
      bindings: [{ withdrawable: '45.000000', shortfall: '5.000000' }],
    });
    const refused = await applyDeposit(ctx, inviter, { amount: '50', authCode: await ownCode(ctx, inviter) });
    expect(refused).toMatchObject({
      state: 1002,
      message: 'The minimum withdrawal is 50.00 USDT; 5.00 USDT more is needed',
    });
    expect(await withdrawalCount(inviter)).toBe(0);

    // Support closes the request: the bonuses are the inviter's again.
    expect(await adminCall(ctx, operator, 'support/close', { id: opened.content.id })).toMatchObject({
      state: 0,
    });
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: null,
      bindings: [{ withdrawable: '53.000000' }],
    });
  });

  it('lets no late dispute freeze bonuses that were already free', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '80');
    ctx.clock.advance(14 * DAY_MS + 1000);
    expect(await dispute(await registerMember(ctx), friend)).toMatchObject({ state: 0 });
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: null,
      bindings: [{ withdrawable: '53.000000' }],
    });
  });

  it('does not free them early when the friend deletes the account, and frees them when support confirms', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const leaving = await friendWithNewUid(inviter, '60');
    const confirmed = await friendWithNewUid(inviter, '40');
    expect(await withdrawable(inviter)).toMatchObject({ rewardsHeld: { amount: '10.000000' } });

    const deleted = await memberCall(ctx, leaving, '/elex/user/deleteAccount', {
      passwd: PASSWORD,
      forfeitTotal: '60.000000',
    });
    expect(deleted).toMatchObject({ state: 0 });
    await confirmOwnershipForTest(ctx, BITGET, confirmed.uid, operator.userId);
    // The leaver's 6 still wait for the end of that binding's hold; the confirmed friend's 4 are free.
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '10.000000',
      rewardsHeld: { amount: '6.000000', disputed: false },
      bindings: [{ withdrawable: '49.000000' }],
    });
  });

  it('holds what a UID pays its holder’s inviter while a late dispute on it is open, not what it paid before', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const deciding = await newOperator(ctx);
    const friend = await friendWithNewUid(inviter, '80');
    ctx.clock.advance(14 * DAY_MS + 1000);
    const opened = await dispute(await registerMember(ctx), friend);
    expect(opened).toMatchObject({ state: 0 });
    // The frozen UID keeps trading: its holder's inviter is paid, but may not withdraw it yet.
    await creditCashback(ctx, BITGET, friend.uid, '50');
    const [late] = await ctx.db
      .select()
      .from(eventRewards)
      .where(and(eq(eventRewards.sourceUserId, friend.userId), eq(eventRewards.amountMicro, 5_000_000n)));
    expect(late).toMatchObject({ disputeIds: [Number(opened.content.id)], holdEndsAt: null });
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '13.000000',
      rewardsHeld: { amount: '5.000000', until: null, disputed: true },
      bindings: [{ withdrawable: '53.000000' }],
    });
    const refused = await applyDeposit(ctx, inviter, { amount: '58', authCode: await ownCode(ctx, inviter) });
    expect(refused).toMatchObject({ state: 1002 });
    expect(await withdrawalCount(inviter)).toBe(0);

    // The operator moves the UID to its owner: the 5 wait 14 days more, the time to take them back.
    ctx.clock.advance(DAY_MS);
    expect(await adminCall(ctx, deciding, 'support/moveBinding', { id: opened.content.id })).toMatchObject({
      state: 0,
    });
    const until = new Date(ctx.clock.now().getTime() + 14 * DAY_MS).toISOString();
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: { amount: '5.000000', until, disputed: false },
    });
    ctx.clock.advance(14 * DAY_MS + 1000);
    expect(await withdrawable(inviter)).toMatchObject({ rewardsHeld: null });
  });

  it('holds them until every dispute open when they were booked is decided, each bonus once', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '80');
    ctx.clock.advance(14 * DAY_MS + 1000);
    const first = await dispute(await registerMember(ctx), friend);
    const second = await dispute(await registerMember(ctx), friend);
    await creditCashback(ctx, BITGET, friend.uid, '50');
    // Named by both, counted once.
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: { amount: '5.000000', until: null, disputed: true },
    });
    // The first claim is closed (a duplicate, say): the second still freezes the UID, and the bonus.
    const deciding = await newOperator(ctx);
    expect(await adminCall(ctx, deciding, 'support/close', { id: first.content.id })).toMatchObject({
      state: 0,
    });
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: { amount: '5.000000', until: null, disputed: true },
    });
    expect(await adminCall(ctx, deciding, 'support/close', { id: second.content.id })).toMatchObject({
      state: 0,
    });
    expect(await withdrawable(inviter)).toMatchObject({ rewards: '13.000000', rewardsHeld: null });
  });

  it('frees a late dispute’s bonuses at once when the holder keeps the UID', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '80');
    await confirmOwnershipForTest(ctx, BITGET, friend.uid, operator.userId);
    const opened = await dispute(await registerMember(ctx), friend);
    await creditCashback(ctx, BITGET, friend.uid, '30');
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '11.000000',
      rewardsHeld: { amount: '3.000000', until: null, disputed: true },
    });
    expect(
      await adminCall(ctx, await newOperator(ctx), 'support/close', { id: opened.content.id }),
    ).toMatchObject({ state: 0 });
    // Records after the decision are not the dispute's.
    await creditCashback(ctx, BITGET, friend.uid, '20');
    expect(await withdrawable(inviter)).toMatchObject({ rewards: '13.000000', rewardsHeld: null });
  });

  it('holds nothing for a dispute opened after support confirmed the binding, even inside the 14 days', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const friend = await friendWithNewUid(inviter, '80');
    await confirmOwnershipForTest(ctx, BITGET, friend.uid, operator.userId);
    ctx.clock.advance(DAY_MS);
    const sent = await applyDeposit(ctx, inviter, { amount: '53', authCode: await ownCode(ctx, inviter) });
    expect(sent).toMatchObject({ state: 0 });
    // A bonus from another friend, confirmed too: what a dispute on the first must not lock.
    const other = await friendWithNewUid(inviter, '100');
    await confirmOwnershipForTest(ctx, BITGET, other.uid, operator.userId);
    expect(await dispute(await registerMember(ctx), friend)).toMatchObject({ state: 0 });
    expect(await withdrawable(inviter)).toMatchObject({ rewards: '10.000000', rewardsHeld: null });
  });

  it('holds the bonuses of a UID bound while a dispute on it was open; a holder who left waits 14 days more', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const first = await friendWithNewUid(inviter, '20');
    const opened = await dispute(await registerMember(ctx), first);
    expect(opened).toMatchObject({ state: 0 });
    // The first holder loses the UID (an operator's unbind: deleting the account is refused while the
    // UID is disputed); another friend binds the same UID while the dispute is open.
    expect(
      await ctx.db.transaction((tx) =>
        unbindUid(tx, {
          platId: BITGET,
          uid: first.uid,
          reason: 'operator',
          operatorId: operator.userId,
          at: ctx.clock.now(),
        }),
      ),
    ).toMatchObject({ userId: first.userId });
    ctx.clock.advance(DAY_MS);
    const second = await registerMember(ctx);
    await ctx.db.update(users).set({ inviterId: inviter.userId }).where(eq(users.id, second.userId));
    await bind(second, first.uid);
    await creditCashback(ctx, BITGET, first.uid, '50');
    ctx.clock.advance(14 * DAY_MS + 1000);
    // Both holders' bonuses: 2 from the first (disputed inside its hold, gone or not), 5 from the second.
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: { amount: '7.000000', until: null, disputed: true },
    });
    expect(
      await adminCall(ctx, await newOperator(ctx), 'support/close', { id: opened.content.id }),
    ).toMatchObject({ state: 0 });
    // Closed: the second holder kept the UID and is free; the first was unbound during the dispute (no
    // move could name them), so theirs wait the operator's 14 days, as after a move.
    const until = new Date(ctx.clock.now().getTime() + 14 * DAY_MS).toISOString();
    expect(await withdrawable(inviter)).toMatchObject({
      rewardsHeld: { amount: '2.000000', until, disputed: false },
    });
    ctx.clock.advance(14 * DAY_MS + 1000);
    expect(await withdrawable(inviter)).toMatchObject({ rewardsHeld: null });
  });

  it('holds nothing of a binding that ended before the dispute was opened', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    const earlier = await friendWithNewUid(inviter, '30');
    await ctx.db.transaction((tx) =>
      unbindUid(tx, {
        platId: BITGET,
        uid: earlier.uid,
        reason: 'operator',
        operatorId: operator.userId,
        at: ctx.clock.now(),
      }),
    );
    ctx.clock.advance(DAY_MS);
    const next = await registerMember(ctx);
    await bind(next, earlier.uid);
    expect(
      await dispute(await registerMember(ctx), { ...next, platId: BITGET, uid: earlier.uid }),
    ).toMatchObject({
      state: 0,
    });
    // Past its own 14 days, a dispute against the next holder does not hold it.
    ctx.clock.advance(14 * DAY_MS);
    expect(await withdrawable(inviter)).toMatchObject({ rewardsHeld: null });
  });

  it('keeps a moved binding’s bonuses for 14 more days, the operator’s time to take them back', async () => {
    const inviter = await fundedMember(ctx, { cashback: '45' });
    // The suite's clock has moved weeks by now: an operator whose session is fresh.
    const deciding = await newOperator(ctx);
    const friend = await friendWithNewUid(inviter, '80');
    ctx.clock.advance(10 * DAY_MS);
    const opened = await dispute(await registerMember(ctx), friend);
    ctx.clock.advance(5 * DAY_MS);
    expect(await adminCall(ctx, deciding, 'support/moveBinding', { id: opened.content.id })).toMatchObject({
      state: 0,
    });
    const until = new Date(ctx.clock.now().getTime() + 14 * DAY_MS).toISOString();
    expect(await withdrawable(inviter)).toMatchObject({
      rewards: '8.000000',
      rewardsHeld: { amount: '8.000000', until, disputed: false },
    });
    ctx.clock.advance(14 * DAY_MS + 1000);
    expect(await withdrawable(inviter)).toMatchObject({ rewardsHeld: null });
  });

  it('frees the owner’s bonuses at once after a move, even if the owner leaves soon after', async () => {
    const squatter = await registerMember(ctx);
    const uid = nextUid('M');
    await addToRoster(ctx, BITGET, uid);
    await bind(squatter, uid);
    const ownersInviter = await fundedMember(ctx, { cashback: '45' });
    const owner = await registerMember(ctx);
    await ctx.db.update(users).set({ inviterId: ownersInviter.userId }).where(eq(users.id, owner.userId));
    const opened = await dispute(owner, { ...squatter, platId: BITGET, uid });
    ctx.clock.advance(DAY_MS);
    expect(
      await adminCall(ctx, await newOperator(ctx), 'support/moveBinding', { id: opened.content.id }),
    ).toMatchObject({ state: 0 });
    // The owner's binding is confirmed by the move: what it pays their inviter is free.
    await creditCashback(ctx, BITGET, uid, '50');
    expect(await withdrawable(ownersInviter)).toMatchObject({ rewards: '5.000000', rewardsHeld: null });
    ctx.clock.advance(DAY_MS);
    expect(
      await memberCall(ctx, owner, '/elex/user/deleteAccount', {
        passwd: PASSWORD,
        forfeitTotal: '50.000000',
      }),
    ).toMatchObject({ state: 0 });
    expect(await withdrawable(ownersInviter)).toMatchObject({ rewardsHeld: null });
  });

  it('leaves a member whose rewards come from confirmed friends as they were', async () => {
    const alone = await fundedMember(ctx, { cashback: '60', rewards: '5' });
    expect(await withdrawable(alone)).toMatchObject({
      rewards: '5.000000',
      rewardsHeld: null,
      bindings: [{ withdrawable: '65.000000' }],
    });
  });
});
