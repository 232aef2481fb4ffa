import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nextEmail, signUp, type TestContext } from '../modules/auth/test-support.js';
import { BITGET } from '../modules/cashback/test-support.js';
import {
  type MemberInstances,
  memberOf,
  notificationsSettled,
  openMemberInstances,
  QUIET,
  readersOf,
  writeUntold,
} from '../test/member-instances.js';

/**
 * myFriends and seeRewardData (pages 1 to 3) kept per process, evicted by the database's notifications
 * (migrations 0051 and 0056_member_notify_friends): two app instances on one database, each kind of
 * change to what the pages show made through one seen through it at once and through the other right
 * after; a change with its notifying trigger off stays unseen (they are kept); a fourth page and
 * MEMBER_CACHE=off read every time.
 */

interface Friends {
  friends: { email: string | null; hasBoundUid: boolean; pointsEarned: number; bonusEarned: string }[];
  total: number;
  totalPoints: number;
  totalBonus: string;
}
interface Rewards {
  records: { id: string; kind: string; amount: string; source: string | null }[];
  total: number;
}

async function content<T>(response: Promise<{ json(): unknown }>): Promise<T> {
  const body = (await response).json() as { state: number; content: T };
  expect(body.state, JSON.stringify(body)).toBe(0);
  return body.content;
}

const friendsOf = (ctx: TestContext, token: string, query: Record<string, unknown> = {}) =>
  content<Friends>(call(ctx, '/elex/user/myFriends', { page: 1, pageSize: 20, ...query }, { token }));
const rewardsOf = (ctx: TestContext, token: string, query: Record<string, unknown> = {}) =>
  content<Rewards>(call(ctx, '/elex/user/seeRewardData', { page: 1, pageSize: 20, ...query }, { token }));

let counter = 0;
/** An e-mail whose masked form no other shares ('q7***@changed-7.example'). */
const freshEmail = () => {
  counter += 1;
  return `q${counter}x@changed-${counter}-${Date.now().toString(36)}.example`;
};
const masked = (email: string) => `${email.slice(0, 2)}***${email.slice(email.indexOf('@'))}`;

for (const cache of ['on', 'off'] as const) {
  describe(`myFriends and seeRewardData with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    const kept = cache === 'on';

    beforeAll(async () => {
      instances = await openMemberInstances(2, kept ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as unknown as [TestContext, TestContext];
    });
    afterAll(() => instances.close());

    const { seenByBoth, readOnBoth } = readersOf<TestContext>(() => [a, b]);

    /** An inviter (token, id) and `count` friends registered with their code through A (ids, oldest first). */
    async function inviterWithFriends(count: number) {
      const token = await signUp(a, nextEmail('host'));
      const id = await memberOf(a, token);
      const profile = await content<{ inviteCode: string }>(call(a, '/elex/user/profile', {}, { token }));
      const friends: number[] = [];
      for (let n = 0; n < count; n += 1) {
        instances.clock.advance(1_000);
        const friendToken = await signUp(a, nextEmail('guest'), { code: profile.inviteCode });
        friends.push(await memberOf(a, friendToken));
      }
      return { token, id, friends, code: profile.inviteCode };
    }

    let bonusKey = 0;
    /** An invite bonus of `micro` booked for `inviter` from `friend` (as settlement inserts it). */
    async function bookBonus(ctx: TestContext, inviter: number, friend: number, micro = 1_500_000) {
      bonusKey += 1;
      instances.clock.advance(1_000);
      await ctx.db.execute(sql`
        insert into event_rewards (user_id, kind, amount_micro, source_user_id, journal_key, created_at)
        values (${inviter}, 'inviteBonus', ${micro}, ${friend}, ${`test-bonus:${bonusKey}`},
          ${instances.clock.now().toISOString()}::timestamptz)`);
    }

    it('a friend registering with the code through A shows in myFriends on A at once and on B right after', async () => {
      const host = await inviterWithFriends(1);
      const before = await readOnBoth((ctx) => friendsOf(ctx, host.token));
      expect(before.total).toBe(1);
      await readOnBoth((ctx) => friendsOf(ctx, host.token, { pageSize: 5, page: 2 }));
      await signUp(a, nextEmail('guest'), { code: host.code });
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.total === 2 && f.friends.length === 2 && f.totalPoints > before.totalPoints,
      );
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token, { pageSize: 5, page: 2 }),
        (f) => f.total === 2,
      );
    });

    it("a friend's e-mail change shows in the inviter's myFriends and seeRewardData on A at once and on B right after", async () => {
      const host = await inviterWithFriends(1);
      const friend = host.friends[0] as number;
      await bookBonus(a, host.id, friend);
      await readOnBoth((ctx) => friendsOf(ctx, host.token));
      await readOnBoth((ctx) => rewardsOf(ctx, host.token));
      const email = freshEmail();
      await a.db.execute(sql`update users set email = ${email} where id = ${friend}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.friends[0]?.email === masked(email),
      );
      await seenByBoth(
        (ctx) => rewardsOf(ctx, host.token),
        (r) => r.records[0]?.source === masked(email),
      );
    });

    it("a friend's account deletion hides their e-mail in the inviter's lists on A at once and on B right after", async () => {
      const host = await inviterWithFriends(1);
      const friend = host.friends[0] as number;
      await bookBonus(a, host.id, friend);
      const before = await readOnBoth((ctx) => friendsOf(ctx, host.token));
      expect(before.friends[0]?.email).not.toBeNull();
      expect((await readOnBoth((ctx) => rewardsOf(ctx, host.token))).records[0]?.source).not.toBeNull();
      await a.db.execute(sql`update users set deleted_at = now() where id = ${friend}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.total === 1 && f.friends[0]?.email === null,
      );
      await seenByBoth(
        (ctx) => rewardsOf(ctx, host.token),
        (r) => r.records[0]?.source === null,
      );
    });

    it("a friend's binding added, ended and removed shows in myFriends on A at once and on B right after", async () => {
      const host = await inviterWithFriends(1);
      const friend = host.friends[0] as number;
      expect((await readOnBoth((ctx) => friendsOf(ctx, host.token))).friends[0]?.hasBoundUid).toBe(false);
      const uid = `KF${Date.now().toString(36)}${cache}`;
      await a.db.execute(sql`
        insert into exchange_bindings (user_id, plat_id, uid, address, bound_at)
        values (${friend}, ${BITGET}, ${uid}, '0x52908400098527886E0F7030069857D2E4169EE7', now())`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.friends[0]?.hasBoundUid === true,
      );
      await a.db.execute(sql`update exchange_bindings set unbound_at = now() where uid = ${uid}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.friends[0]?.hasBoundUid === false,
      );
      await a.db.execute(sql`update exchange_bindings set unbound_at = null where uid = ${uid}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.friends[0]?.hasBoundUid === true,
      );
      await a.db.execute(sql`delete from exchange_bindings where uid = ${uid}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.friends[0]?.hasBoundUid === false,
      );
    });

    it('an invite bonus booked shows in myFriends and seeRewardData on A at once and on B right after', async () => {
      const host = await inviterWithFriends(2);
      const friend = host.friends[0] as number;
      const friends = await readOnBoth((ctx) => friendsOf(ctx, host.token));
      expect(friends.totalBonus).toBe('0.000000');
      expect((await readOnBoth((ctx) => rewardsOf(ctx, host.token))).total).toBe(0);
      await readOnBoth((ctx) => rewardsOf(ctx, host.token, { pageSize: 1, page: 3 }));
      await bookBonus(a, host.id, friend);
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.totalBonus === '1.500000' && f.friends.some((x) => x.bonusEarned === '1.500000'),
      );
      await seenByBoth(
        (ctx) => rewardsOf(ctx, host.token),
        (r) => r.total === 1 && r.records[0]?.kind === 'inviteBonus' && r.records[0]?.amount === '1.500000',
      );
      await seenByBoth(
        (ctx) => rewardsOf(ctx, host.token, { pageSize: 1, page: 3 }),
        (r) => r.total === 1,
      );
    });

    it('the kept bonus total and reward count changed by hand (psql) show on A at once and on B right after', async () => {
      const host = await inviterWithFriends(1);
      const friend = host.friends[0] as number;
      await bookBonus(a, host.id, friend);
      await readOnBoth((ctx) => friendsOf(ctx, host.token));
      await readOnBoth((ctx) => rewardsOf(ctx, host.token));
      await a.db.execute(
        sql`update invite_bonus_totals set amount_micro = 9000000 where inviter_id = ${host.id}`,
      );
      await seenByBoth(
        (ctx) => friendsOf(ctx, host.token),
        (f) => f.totalBonus === '9.000000',
      );
      await a.db.execute(sql`update event_reward_counts set rewards = 7 where user_id = ${host.id}`);
      await seenByBoth(
        (ctx) => rewardsOf(ctx, host.token),
        (r) => r.total === 7,
      );
    });

    it("an invitation moved or removed by hand (psql) shows in both inviters' myFriends on A at once and on B right after", async () => {
      const first = await inviterWithFriends(1);
      const second = await inviterWithFriends(0);
      const friend = first.friends[0] as number;
      await readOnBoth((ctx) => friendsOf(ctx, first.token));
      await readOnBoth((ctx) => friendsOf(ctx, second.token));
      await a.db.execute(sql`update invitations set inviter_id = ${second.id} where friend_id = ${friend}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, first.token),
        (f) => f.total === 0,
      );
      await seenByBoth(
        (ctx) => friendsOf(ctx, second.token),
        (f) => f.total === 1,
      );
      await a.db.execute(sql`delete from invitations where friend_id = ${friend}`);
      await seenByBoth(
        (ctx) => friendsOf(ctx, second.token),
        (f) => f.total === 0,
      );
    });

    it(`a friend's e-mail change or binding made with its trigger off is ${kept ? 'not seen (kept)' : 'seen at once'}`, async () => {
      const host = await inviterWithFriends(1);
      const friend = host.friends[0] as number;
      await bookBonus(a, host.id, friend);
      await notificationsSettled();
      const friends = await readOnBoth((ctx) => friendsOf(ctx, host.token));
      const rewards = await readOnBoth((ctx) => rewardsOf(ctx, host.token));
      const email = freshEmail();
      await writeUntold(a, 'users', 'users_notify_updated', (tx) =>
        tx.execute(sql`update users set email = ${email} where id = ${friend}`),
      );
      await writeUntold(a, 'exchange_bindings', 'exchange_bindings_notify_inserted', (tx) =>
        tx.execute(sql`
          insert into exchange_bindings (user_id, plat_id, uid, address, bound_at)
          values (${friend}, ${BITGET}, ${`KU${Date.now().toString(36)}${cache}`},
            '0x52908400098527886E0F7030069857D2E4169EE7', now())`),
      );
      for (const ctx of [a, b]) {
        const now = await friendsOf(ctx, host.token);
        expect(now.friends[0]?.email).toBe(kept ? friends.friends[0]?.email : masked(email));
        expect(now.friends[0]?.hasBoundUid).toBe(!kept);
        expect((await rewardsOf(ctx, host.token)).records[0]?.source).toBe(
          kept ? rewards.records[0]?.source : masked(email),
        );
      }
    });

    it('a fourth page is read every time', async () => {
      const host = await inviterWithFriends(5);
      for (const friend of host.friends) await bookBonus(a, host.id, friend);
      // Newest first: the fourth friend and reward of one each a page are the second registered.
      const fourth = host.friends[1] as number;
      const deepFriends = await readOnBoth((ctx) => friendsOf(ctx, host.token, { page: 4, pageSize: 1 }));
      const deepRewards = await readOnBoth((ctx) => rewardsOf(ctx, host.token, { page: 4, pageSize: 1 }));
      const email = freshEmail();
      await writeUntold(a, 'users', 'users_notify_updated', (tx) =>
        tx.execute(sql`update users set email = ${email} where id = ${fourth}`),
      );
      expect(deepFriends.friends[0]?.email).not.toBe(masked(email));
      expect(deepRewards.records[0]?.source).not.toBe(masked(email));
      for (const ctx of [a, b]) {
        expect((await friendsOf(ctx, host.token, { page: 4, pageSize: 1 })).friends[0]?.email).toBe(
          masked(email),
        );
        expect((await rewardsOf(ctx, host.token, { page: 4, pageSize: 1 })).records[0]?.source).toBe(
          masked(email),
        );
      }
    });
  });
}
