import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../auth/auth.tables.js';
import { call, logIn, nextEmail, PASSWORD, signUp } from '../auth/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import { ingestRebates, ingestReferrals } from '../cashback/ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from '../cashback/test-support.js';
import { recordInvitation } from './invite-rewards.js';

let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp({
    invitePoints: { friendSignup: 30, perFriend: 70 },
    inviteBonusPercent: 10,
    appUrl: 'https://elex.example',
  });
  ctx.clock.set(new Date('2026-05-10T12:00:00Z'));
});
afterAll(() => ctx.close());

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const api = { kind: 'api', label: 'test' } as const;

const post = (token: string, path: string, body: object = {}) =>
  call(ctx, path, body, { token }).then((res) => res.json());
const profile = async (token: string) => (await post(token, '/elex/user/profile')).content;
const userIdOf = async (email: string) =>
  (await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id as number;

describe('invite code and link', () => {
  it('answers the member code and the registration link on APP_URL with the reward tiers', async () => {
    const token = await signUp(ctx, nextEmail('inviter'));
    const { inviteCode } = await profile(token);
    expect(await post(token, '/elex/user/getMyInviteCode')).toMatchObject({
      state: 0,
      content: { inviteCode },
    });
    expect((await post(token, '/elex/user/getInviteLink')).content).toEqual({
      inviteCode,
      link: `https://elex.example/register?inviteCode=${inviteCode}`,
      rewards: { friendSignupPoints: 30, inviterPointsPerFriend: 70, bonusPercent: 10 },
    });
  });

  it('answers -5000 without a session', async () => {
    for (const path of ['/elex/user/getMyInviteCode', '/elex/user/getInviteLink', '/elex/user/myFriends']) {
      expect((await call(ctx, path, {})).json().state).toBe(-5000);
    }
  });
});

describe('a friend registers with the code', () => {
  it('credits both members once and shows the friend to the inviter', async () => {
    const inviter = await signUp(ctx, nextEmail('host'));
    const { inviteCode, points: before } = await profile(inviter);
    const friendEmail = nextEmail('alice');
    const friend = await signUp(ctx, friendEmail, { code: inviteCode.toLowerCase() });

    expect((await profile(friend)).points).toBe(30);
    expect((await profile(inviter)).points).toBe(before + 70);
    const friendHistory = (await post(friend, '/elex/activity/pointsHistory')).content;
    expect(friendHistory.entries).toEqual([
      expect.objectContaining({ reason: 'inviteSignup', amount: 30, reference: null, currency: 'points' }),
    ]);
    const inviterHistory = (await post(inviter, '/elex/activity/pointsHistory')).content;
    expect(inviterHistory.entries[0]).toMatchObject({ reason: 'inviteFriend', amount: 70 });

    const friends = (await post(inviter, '/elex/user/myFriends')).content;
    expect(friends).toEqual({
      friends: [
        {
          email: `${friendEmail.slice(0, 2)}***@example.com`,
          joinedAt: ctx.clock.now().toISOString(),
          hasBoundUid: false,
          pointsEarned: 70,
          bonusEarned: '0.000000',
        },
      ],
      total: 1,
      page: 1,
      pageSize: 20,
      totalPoints: 70,
      totalBonus: '0.000000',
    });
    // The friend has no friends of their own.
    expect((await post(friend, '/elex/user/myFriends')).content.total).toBe(0);

    // Booked by the friend's id: recording the same registration again pays nothing more.
    const inviterId = await userIdOf((await profile(inviter)).email);
    const friendId = await userIdOf(friendEmail);
    await ctx.db.transaction((tx) =>
      recordInvitation(tx, ctx.deps, { inviterId, friendId, at: ctx.clock.now() }),
    );
    expect((await profile(inviter)).points).toBe(before + 70);
    expect((await profile(friend)).points).toBe(30);
  });

  it('books no invite points to an inviter an operator suspended; the friend registers and is paid', async () => {
    const inviterEmail = nextEmail('suspended-host');
    const inviter = await signUp(ctx, inviterEmail);
    const { inviteCode, points: before } = await profile(inviter);
    const inviterId = await userIdOf(inviterEmail);
    await ctx.db
      .update(users)
      .set({ suspendedAt: ctx.clock.now(), suspensionReason: 'farming invite points' })
      .where(eq(users.id, inviterId));

    const friendEmail = nextEmail('suspended-host-friend');
    const friend = await signUp(ctx, friendEmail, { code: inviteCode });
    expect((await profile(friend)).points).toBe(30);
    const [row] = await ctx.db.select().from(users).where(eq(users.email, friendEmail));
    expect(row?.inviterId).toBe(inviterId);

    // Reinstated, the inviter sees the friend, who earned them nothing while they were suspended.
    await ctx.db
      .update(users)
      .set({ suspendedAt: null, suspensionReason: null })
      .where(eq(users.id, inviterId));
    const login = await logIn(ctx, inviterEmail);
    expect((await profile(login)).points).toBe(before);
    expect((await post(login, '/elex/user/myFriends')).content).toMatchObject({
      total: 1,
      totalPoints: 0,
      friends: [{ pointsEarned: 0 }],
    });
  });

  it("shows what the friend's cashback earned the inviter, and whether the friend bound a UID", async () => {
    const inviter = await signUp(ctx, nextEmail('bonus-host'));
    const { inviteCode } = await profile(inviter);
    const friend = await signUp(ctx, nextEmail('bonus-friend'), { code: inviteCode });

    const uid = nextUid('I');
    await ingestReferrals(
      ctx.deps,
      BITGET,
      [{ uid, registeredAt: new Date(ctx.clock.now().getTime() - 400 * DAY_MS) }],
      api,
    );
    expect(
      (await post(friend, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS })).state,
    ).toBe(0);
    expect((await post(inviter, '/elex/user/myFriends')).content.friends[0]).toMatchObject({
      hasBoundUid: true,
      bonusEarned: '0.000000',
    });

    // Bitget's basic rate pays 50 % of the fee; the inviter earns 10 % of that cashback.
    const start = new Date(ctx.clock.now().getTime() - 5 * DAY_MS);
    await ingestRebates(ctx.deps, BITGET, [figures(uid, start, { fee: '10', commission: '100' })], api);
    const friends = (await post(inviter, '/elex/user/myFriends')).content;
    expect(friends.friends[0]).toMatchObject({ pointsEarned: 70, bonusEarned: '0.500000' });
    expect(friends.totalBonus).toBe('0.500000');
    // The same bonus the cashback engine shows in the inviter's rewards.
    expect((await post(inviter, '/elex/user/myInfo')).content.totalReward).toBe('0.500000');

    // A later settlement adds to the friend's kept figure (invite_bonus_totals), and ledger:check agrees.
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, new Date(start.getTime() + DAY_MS), { fee: '30', commission: '100' })],
      api,
    );
    const later = (await post(inviter, '/elex/user/myFriends')).content;
    expect(later.friends[0]).toMatchObject({ bonusEarned: '2.000000' });
    expect(later.totalBonus).toBe('2.000000');
    expect((await post(inviter, '/elex/user/myInfo')).content.totalReward).toBe('2.000000');
    // The reward list counts the second bonus too (event_reward_counts).
    expect((await post(inviter, '/elex/user/seeRewardData')).content).toMatchObject({
      total: 2,
      records: [{ amount: '1.500000' }, { amount: '0.500000' }],
    });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('pages the friends newest first, and shows a deleted friend without an e-mail', async () => {
    const inviter = await signUp(ctx, nextEmail('pager'));
    const { inviteCode } = await profile(inviter);
    const emails: string[] = [];
    let lastToken = '';
    for (const name of ['first', 'second', 'third']) {
      ctx.clock.advance(60_000);
      const email = nextEmail(name);
      emails.push(email);
      lastToken = await signUp(ctx, email, { code: inviteCode });
    }
    const page1 = (await post(inviter, '/elex/user/myFriends', { page: 1, pageSize: 2 })).content;
    expect(page1.total).toBe(3);
    expect(page1.totalPoints).toBe(210);
    expect(page1.friends.map((friend: { email: string }) => friend.email)).toEqual([
      `th***@example.com`,
      `se***@example.com`,
    ]);
    const page2 = (await post(inviter, '/elex/user/myFriends', { page: 2, pageSize: 2 })).content;
    expect(page2.friends).toHaveLength(1);

    expect(
      (await post(lastToken, '/elex/user/deleteAccount', { passwd: PASSWORD, forfeitTotal: '0' })).state,
    ).toBe(0);
    const after = (await post(inviter, '/elex/user/myFriends', { page: 1, pageSize: 2 })).content;
    expect(after.friends[0]).toMatchObject({ email: null, pointsEarned: 70 });
    expect((await post(inviter, '/elex/user/myFriends', { pageSize: 500 })).state).toBe(1001);
  });

  it('records nothing for a registration without a code', async () => {
    const token = await signUp(ctx, nextEmail('solo'));
    expect((await profile(token)).points).toBe(0);
    expect((await post(token, '/elex/activity/pointsHistory')).content.total).toBe(0);
  });
});
