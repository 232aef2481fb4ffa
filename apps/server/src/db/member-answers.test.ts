import type { PGlite } from '@electric-sql/pglite';
import { State } from '@elex/contract';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { sessions } from '../modules/auth/auth.tables.js';
import { tokenDigest } from '../modules/auth/digests.js';
import { liftUserWithdrawalLock, suspendUser } from '../modules/auth/suspension.js';
import { call, NEW_PASSWORD, PASSWORD, signUp, type TestContext } from '../modules/auth/test-support.js';
import { ingestReferrals } from '../modules/cashback/ingest.service.js';
import { type CashbackTestContext, nextUid } from '../modules/cashback/test-support.js';
import { accountCode, postJournal, postJournals } from '../modules/ledger/ledger.service.js';
import { grantPoints } from '../modules/points/points.service.js';
import {
  changeAddressUntold,
  eventually,
  type MemberInstances,
  notificationsSettled,
  openMemberInstances,
  QUIET,
  writeUntold,
} from '../test/member-instances.js';
import type { DatabaseHandle } from './client.js';
import { answerKind } from './member-answers.js';
import { MEMBER_CHANGES_CHANNEL } from './member-changes-channel.js';

/**
 * Member answers kept per process (sessions, myInfo, getSettings, profile, isSignTody, the invite code;
 * withdrawable: withdrawals/withdrawable-kept.test.ts), evicted by the database's notifications: two
 * app instances on one database (on PostgreSQL each with its own pool, as production runs them; on
 * PGlite one session seen by both), a change made through one seen through the other right after,
 * and through the one that made it at once; a lost listener keeps nothing.
 */

const BITGET = 4;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const OTHER_ADDRESS = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const DAY_MS = 24 * 60 * 60_000;
const api = { kind: 'api', label: 'test' } as const;
/**
 * PostgreSQL reports a terminated listening connection at once; PGlite's one session cannot drop, only
 * stop listening, which the heartbeat finds.
 */
const FINDS_A_LOSS: Partial<Config['memberCache']> = process.env.TEST_DATABASE_URL
  ? QUIET
  : { heartbeatMs: 200 };

async function until(condition: () => boolean): Promise<void> {
  await eventually(
    async () => condition(),
    (done) => done,
  );
}

const myInfo = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/myInfo', {}, { token }).then((res) => res.json());

/** A member signed up through `ctx`, holding a fresh roster UID bound through `ctx`. */
async function boundMember(ctx: TestContext, uid: string): Promise<{ token: string; userId: number }> {
  const token = await signUp(ctx);
  await ingestReferrals(
    ctx.app.deps,
    BITGET,
    [{ uid, registeredAt: new Date(ctx.clock.now().getTime() - 100 * DAY_MS) }],
    api,
  );
  const bound = await call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: BITGET, uid, address: ADDRESS },
    { token },
  );
  expect(bound.json()).toMatchObject({ state: 0 });
  const rows = await ctx.db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenDigest(token)));
  return { token, userId: Number(rows[0]?.userId) };
}

describe('two instances on one database', () => {
  let instances: MemberInstances;
  let a: TestContext;
  let b: TestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(2);
    [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
  });
  afterAll(() => instances.close());

  it('a binding made through A is in A’s myInfo at once and in B’s right after', async () => {
    const token = await signUp(a);
    const uid = nextUid();
    expect((await myInfo(a, token)).content.exchangeBinds).toEqual([]);
    expect((await myInfo(b, token)).content.exchangeBinds).toEqual([]);
    await ingestReferrals(
      a.app.deps,
      BITGET,
      [{ uid, registeredAt: new Date(a.clock.now().getTime() - 100 * DAY_MS) }],
      api,
    );
    const bound = await call(
      a,
      '/elex/user/bindExchangeUid',
      { platId: BITGET, uid, address: ADDRESS },
      { token },
    );
    expect(bound.json()).toMatchObject({ state: 0 });

    // The instance that committed heard its own notification before the commit returned.
    expect((await myInfo(a, token)).content.exchangeBinds).toMatchObject([{ uid }]);
    const seenByB = await eventually(
      () => myInfo(b, token),
      (answer) => answer.content.exchangeBinds.length === 1,
    );
    expect(seenByB.content.exchangeBinds).toMatchObject([{ uid, balance: '0.000000' }]);
  });

  it('lines posted through A move the balance and totals A and B answer', async () => {
    const uid = nextUid();
    const { token, userId } = await boundMember(a, uid);
    expect((await myInfo(a, token)).content).toMatchObject({
      totalReward: '0.000000',
      totalRebate: '0.000000',
    });
    expect((await myInfo(b, token)).content).toMatchObject({
      totalReward: '0.000000',
      totalRebate: '0.000000',
    });

    const at = a.clock.now();
    await a.db.transaction(async (tx) => {
      await postJournal(tx, {
        kind: 'correction',
        key: `member-answers:cashback:${uid}`,
        at,
        lines: [
          { account: accountCode.adjustments, amount: -2_500_000n },
          { account: accountCode.cashback(BITGET, uid), amount: 2_500_000n },
        ],
      });
      await postJournal(tx, {
        kind: 'inviteBonus',
        key: `member-answers:reward:${userId}`,
        at,
        lines: [
          { account: accountCode.rewardsExpense, amount: -1_000_000n },
          { account: accountCode.rewards(userId), amount: 1_000_000n },
        ],
      });
    });

    const expected = {
      exchangeBinds: [{ uid, balance: '2.500000' }],
      totalReward: '1.000000',
      totalRebate: '2.500000',
    };
    expect((await myInfo(a, token)).content).toMatchObject(expected);
    const seenByB = await eventually(
      () => myInfo(b, token),
      (answer) => answer.content.totalReward === '1.000000',
    );
    expect(seenByB.content).toMatchObject(expected);
  });

  it('a logout through A ends the session on A at once and on B right after', async () => {
    const token = await signUp(a);
    expect((await myInfo(a, token)).state).toBe(0);
    expect((await myInfo(b, token)).state).toBe(0);

    expect((await call(a, '/elex/user/logout', {}, { token })).json()).toMatchObject({ state: 0 });

    expect((await myInfo(a, token)).state).toBe(State.SessionExpired);
    const seenByB = await eventually(
      () => myInfo(b, token),
      (answer) => answer.state === State.SessionExpired,
    );
    expect(seenByB.state).toBe(State.SessionExpired);
  });

  it('a kept session is refused once it expires, with nothing changed in the database', async () => {
    const token = await signUp(a);
    expect((await myInfo(a, token)).state).toBe(0);
    expect((await myInfo(b, token)).state).toBe(0);
    instances.clock.advance(31 * DAY_MS);
    expect((await myInfo(a, token)).state).toBe(State.SessionExpired);
    expect((await myInfo(b, token)).state).toBe(State.SessionExpired);
  });

  it('an answer read before a change but back after its notification is not kept', async () => {
    const answers = a.app.deps.memberAnswers;
    if (!answers) throw new Error('the member cache is on in this test');
    const probe = answers.of(answerKind<string>('probe', 10));
    const member = 987_654;

    // Kept when nothing happens meanwhile.
    expect(await probe.read('kept', async () => ({ member, value: 'first' }))).toBe('first');
    expect(await probe.read('kept', async () => ({ member, value: 'second' }))).toBe('first');

    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reading = probe.read('raced', async () => {
      await gate;
      return { member, value: 'before the change' };
    });
    // From A's own pool: heard by A before the statement returns.
    await a.db.execute(sql`select pg_notify(${MEMBER_CHANGES_CHANNEL}, ${String(member)})`);
    release();
    expect(await reading).toBe('before the change');
    expect(await probe.read('raced', async () => ({ member, value: 'after the change' }))).toBe(
      'after the change',
    );
    // And the notification dropped the member's other answer too.
    expect(await probe.read('kept', async () => ({ member, value: 'third' }))).toBe('third');
  });

  it('a statement posting to 700 members notifies a few times, naming each of them', async () => {
    const heard = await listenRaw(instances.handles[0] as DatabaseHandle);
    try {
      const created = await a.db.execute<{ id: number }>(sql`
        insert into users (email, user_code, invite_code, created_at)
        select 'bulk' || g || '-' || ${nextUid().toLowerCase()} || '@example.com',
          'BK' || ${nextUid()} || g, 'BI' || ${nextUid()} || g, now()
        from generate_series(1, 700) g
        returning id`);
      const members = (created as unknown as { rows: Array<{ id: number | string }> }).rows.map((row) =>
        Number(row.id),
      );
      expect(members).toHaveLength(700);
      const at = a.clock.now();
      await a.db.transaction((tx) =>
        postJournals(
          tx,
          members.map((id) => ({
            kind: 'inviteBonus',
            key: `member-answers:bulk:${id}`,
            at,
            lines: [
              { account: accountCode.rewardsExpense, amount: -1n },
              { account: accountCode.rewards(id), amount: 1n },
            ],
          })),
        ),
      );
      await until(() => members.every((id) => heard.members.has(id)));
      expect(members.filter((id) => !heard.members.has(id))).toEqual([]);
      // 300 members a notification: one per member would be 700.
      expect(heard.payloads.length).toBeLessThanOrEqual(10);
    } finally {
      await heard.close();
    }
  });
});

const profile = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/profile', {}, { token }).then((res) => res.json());
const settings = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/getSettings', {}, { token }).then((res) => res.json());
const signedToday = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/isSignTody', {}, { token }).then((res) => res.json());

/** A member signed up through `ctx`: the token and the member's id. */
async function member(ctx: TestContext): Promise<{ token: string; userId: number }> {
  const token = await signUp(ctx);
  const rows = await ctx.db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenDigest(token)));
  return { token, userId: Number(rows[0]?.userId) };
}

const inviteCode = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/getMyInviteCode', {}, { token }).then((res) => res.json());
const inviteLink = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/getInviteLink', {}, { token }).then((res) => res.json());

describe('getSettings, profile, isSignTody and the invite code on two instances (migration 0051)', () => {
  let instances: MemberInstances;
  let a: TestContext;
  let b: TestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(2);
    [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
  });
  afterAll(() => instances.close());

  it('are kept: a change the caches are not told of is not seen', async () => {
    const { token, userId } = await member(a);
    await notificationsSettled();
    expect((await settings(a, token)).content).toEqual({ marketingConsent: false });
    const shown = (await profile(a, token)).content;
    await writeUntold(a, 'users', 'users_notify_updated', (tx) =>
      tx.execute(sql`update users set marketing_consent = true, user_code = ${`U${nextUid()}`}
        where id = ${userId}`),
    );
    expect((await settings(a, token)).content).toEqual({ marketingConsent: false });
    expect((await profile(a, token)).content).toEqual(shown);
  });

  it('saved settings through A are A’s answer at once and B’s right after', async () => {
    const { token } = await member(a);
    expect((await settings(a, token)).content).toEqual({ marketingConsent: false });
    expect((await settings(b, token)).content).toEqual({ marketingConsent: false });

    const saved = await call(a, '/elex/user/saveSettings', { marketingConsent: true }, { token });
    expect(saved.json()).toMatchObject({ state: 0 });

    expect((await settings(a, token)).content).toEqual({ marketingConsent: true });
    const seenByB = await eventually(
      () => settings(b, token),
      (answer) => answer.content.marketingConsent === true,
    );
    expect(seenByB.content).toEqual({ marketingConsent: true });
  });

  it('a password change through A shows its withdrawal lock on A and B, until it passes or is lifted', async () => {
    const { token, userId } = await member(a);
    expect((await profile(a, token)).content.withdrawalLockedUntil).toBeNull();
    expect((await profile(b, token)).content.withdrawalLockedUntil).toBeNull();

    const changed = await call(
      a,
      '/elex/user/updatePass',
      { oldPasswd: PASSWORD, passwd: NEW_PASSWORD },
      { token },
    );
    const { withdrawalLockedUntil } = changed.json().content;
    expect(withdrawalLockedUntil).toEqual(expect.any(String));

    expect((await profile(a, token)).content.withdrawalLockedUntil).toBe(withdrawalLockedUntil);
    const seenByB = await eventually(
      () => profile(b, token),
      (answer) => answer.content.withdrawalLockedUntil !== null,
    );
    expect(seenByB.content.withdrawalLockedUntil).toBe(withdrawalLockedUntil);

    // An operator lifts it: the users row changes, both instances show no lock.
    await a.db.transaction((tx) => liftUserWithdrawalLock(tx, userId, a.clock.now()));
    expect((await profile(a, token)).content.withdrawalLockedUntil).toBeNull();
    const liftedOnB = await eventually(
      () => profile(b, token),
      (answer) => answer.content.withdrawalLockedUntil === null,
    );
    expect(liftedOnB.content.withdrawalLockedUntil).toBeNull();
  });

  it('a kept lock shows no more once it has passed, with nothing changed in the database', async () => {
    const { token } = await member(a);
    const changed = await call(
      a,
      '/elex/user/updatePass',
      { oldPasswd: PASSWORD, passwd: NEW_PASSWORD },
      { token },
    );
    const { withdrawalLockedUntil } = changed.json().content;
    expect((await profile(a, token)).content.withdrawalLockedUntil).toBe(withdrawalLockedUntil);
    expect(
      (
        await eventually(
          () => profile(b, token),
          (answer) => answer.content.withdrawalLockedUntil !== null,
        )
      ).content.withdrawalLockedUntil,
    ).toBe(withdrawalLockedUntil);
    instances.clock.advance(Date.parse(withdrawalLockedUntil) - instances.clock.now().getTime() + 1);
    expect((await profile(a, token)).content.withdrawalLockedUntil).toBeNull();
    expect((await profile(b, token)).content.withdrawalLockedUntil).toBeNull();
  });

  it('a suspension through A ends the member’s answers on A at once and on B right after', async () => {
    const { token, userId } = await member(a);
    expect((await profile(a, token)).state).toBe(0);
    expect((await settings(b, token)).state).toBe(0);

    await a.db.transaction((tx) =>
      suspendUser(tx, { userId, reason: 'test', operatorId: null, at: a.clock.now() }),
    );

    expect((await profile(a, token)).state).toBe(State.SessionExpired);
    expect((await settings(a, token)).state).toBe(State.SessionExpired);
    const seenByB = await eventually(
      () => profile(b, token),
      (answer) => answer.state === State.SessionExpired,
    );
    expect(seenByB.state).toBe(State.SessionExpired);
  });

  it('a check-in through A is in A’s isSignTody and points at once and in B’s right after', async () => {
    const { token } = await member(a);
    const points = (await profile(a, token)).content.points;
    expect((await profile(b, token)).content.points).toBe(points);
    expect((await signedToday(a, token)).content).toEqual({ isSignToday: false });
    expect((await signedToday(b, token)).content).toEqual({ isSignToday: false });

    const signed = await call(a, '/elex/activity/sign', {}, { token });
    expect(signed.json()).toMatchObject({ state: 0 });
    const earned = signed.json().content.pointsEarned;

    expect((await signedToday(a, token)).content).toEqual({ isSignToday: true });
    expect((await profile(a, token)).content.points).toBe(points + earned);
    const seenByB = await eventually(
      () => signedToday(b, token),
      (answer) => answer.content.isSignToday === true,
    );
    expect(seenByB.content).toEqual({ isSignToday: true });
    expect((await profile(b, token)).content.points).toBe(points + earned);
  });

  it('an XME entry booked through A is in profile on A at once and on B right after', async () => {
    const { token, userId } = await member(a);
    const before = (await profile(b, token)).content.xmeEnergy;
    expect((await profile(a, token)).content.xmeEnergy).toBe(before);
    await a.db.transaction((tx) =>
      grantPoints(tx, {
        userId,
        currency: 'xme',
        amount: 7,
        reason: 'test',
        reference: 'member-answers',
        at: a.clock.now(),
      }),
    );
    expect((await profile(a, token)).content.xmeEnergy).toBe(before + 7);
    const seenByB = await eventually(
      () => profile(b, token),
      (answer) => answer.content.xmeEnergy === before + 7,
    );
    expect(seenByB.content.xmeEnergy).toBe(before + 7);
  });

  it('a new UTC day is never served the day before’s isSignTody', async () => {
    const { token } = await member(a);
    expect((await call(a, '/elex/activity/sign', {}, { token })).json()).toMatchObject({ state: 0 });
    expect((await signedToday(a, token)).content).toEqual({ isSignToday: true });
    expect(
      (
        await eventually(
          () => signedToday(b, token),
          (answer) => answer.content.isSignToday === true,
        )
      ).content,
    ).toEqual({ isSignToday: true });

    const now = instances.clock.now().getTime();
    instances.clock.advance(DAY_MS - (now % DAY_MS));
    expect((await signedToday(a, token)).content).toEqual({ isSignToday: false });
    expect((await signedToday(b, token)).content).toEqual({ isSignToday: false });
  });

  it('keeps the invite code: a change of it the caches are not told of is not seen', async () => {
    const { token, userId } = await member(a);
    await notificationsSettled();
    const code = (await inviteCode(a, token)).content.inviteCode;
    const link = (await inviteLink(a, token)).content.link;
    expect(link).toContain(`inviteCode=${code}`);
    await writeUntold(a, 'users', 'users_notify_updated', (tx) =>
      tx.execute(sql`update users set invite_code = ${`K${nextUid()}`} where id = ${userId}`),
    );
    expect((await inviteCode(a, token)).content.inviteCode).toBe(code);
    expect((await inviteLink(a, token)).content.link).toBe(link);
  });

  it('an invite code changed through A is A’s answer at once and B’s right after, in both calls', async () => {
    const { token, userId } = await member(a);
    const before = (await inviteCode(b, token)).content.inviteCode;
    expect((await inviteLink(b, token)).content.inviteCode).toBe(before);
    expect((await inviteCode(a, token)).content.inviteCode).toBe(before);

    const changed = `K${nextUid()}`;
    await a.db.execute(sql`update users set invite_code = ${changed} where id = ${userId}`);

    expect((await inviteCode(a, token)).content.inviteCode).toBe(changed);
    expect((await inviteLink(a, token)).content.link).toContain(`inviteCode=${changed}`);
    const seenByB = await eventually(
      () => inviteLink(b, token),
      (answer) => answer.content.inviteCode === changed,
    );
    expect(seenByB.content.link).toContain(`inviteCode=${changed}`);
    expect((await inviteCode(b, token)).content.inviteCode).toBe(changed);
  });
});

/** A listener of the test's own on the channel: every payload and every member named. */
async function listenRaw(handle: DatabaseHandle) {
  const payloads: string[] = [];
  const members = new Set<number>();
  const hear = (payload: string) => {
    if (payload.startsWith('heartbeat:')) return;
    payloads.push(payload);
    for (const part of payload.split(',')) members.add(Number(part));
  };
  const client = (handle.db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    const own = new pg.Client({ ...client.options });
    own.on('error', () => {});
    await own.connect();
    own.on('notification', (message) => {
      if (message.payload) hear(message.payload);
    });
    await own.query(`LISTEN ${MEMBER_CHANGES_CHANNEL}`);
    return { payloads, members, close: () => own.end() };
  }
  const unlisten = await (client as PGlite).listen(MEMBER_CHANGES_CHANNEL, hear);
  return { payloads, members, close: () => unlisten() };
}

/**
 * Breaks the instance's listening session: on PostgreSQL its connection is terminated (reported at
 * once); PGlite's one session cannot drop, only stop listening, which the next heartbeat finds.
 */
async function breakListener(handle: DatabaseHandle) {
  if (handle.kind === 'postgres') {
    await handle.db.execute(sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and application_name = 'elex member-changes listener'`);
  } else {
    await handle.db.execute(sql.raw(`UNLISTEN ${MEMBER_CHANGES_CHANNEL}`));
  }
}

describe('a lost listener', () => {
  it('drops what was kept and keeps nothing while it is lost', async () => {
    // The first reconnection a long way off: the test sees the instance while it is lost.
    const instances = await openMemberInstances(1, { ...FINDS_A_LOSS, retryMs: 600_000 });
    try {
      const ctx = instances.contexts[0] as TestContext;
      const answers = ctx.app.deps.memberAnswers;
      const uid = nextUid();
      const { token } = await boundMember(ctx, uid);
      await notificationsSettled();
      expect((await myInfo(ctx, token)).content.exchangeBinds).toMatchObject([{ address: ADDRESS }]);
      // Listening: a change the caches are not told of is not seen (the answer is kept).
      await changeAddressUntold(ctx, uid, OTHER_ADDRESS);
      expect((await myInfo(ctx, token)).content.exchangeBinds).toMatchObject([{ address: ADDRESS }]);

      await breakListener(instances.handles[0] as DatabaseHandle);
      await until(() => answers?.usable === false);
      expect(answers?.usable).toBe(false);

      // Lost: every answer comes from the database, none is kept.
      expect((await myInfo(ctx, token)).content.exchangeBinds).toMatchObject([{ address: OTHER_ADDRESS }]);
      await changeAddressUntold(ctx, uid, ADDRESS);
      expect((await myInfo(ctx, token)).content.exchangeBinds).toMatchObject([{ address: ADDRESS }]);
      // Sessions too: a logout is refused at once whatever was kept before.
      await call(ctx, '/elex/user/logout', {}, { token });
      expect((await myInfo(ctx, token)).state).toBe(State.SessionExpired);
    } finally {
      await instances.close();
    }
  });

  it('listens again by itself, and then keeps and evicts as before', async () => {
    const instances = await openMemberInstances(2, { ...FINDS_A_LOSS, retryMs: 20 });
    try {
      const [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
      const both = [a, b].map((ctx) => ctx.app.deps.memberAnswers);
      const uid = nextUid();
      const { token } = await boundMember(a, uid);
      expect((await myInfo(b, token)).state).toBe(0);

      // Both instances' listeners go (on PGlite they share the session: the first back heals both).
      await breakListener(instances.handles[1] as DatabaseHandle);
      const lost = () => both.reduce((sum, answers) => sum + (answers?.losses ?? 0), 0);
      await until(() => lost() >= 1 && both.every((answers) => answers?.usable));
      expect(lost()).toBeGreaterThanOrEqual(1);
      expect(both.map((answers) => answers?.usable)).toEqual([true, true]);

      expect((await myInfo(b, token)).content.exchangeBinds).toMatchObject([{ address: ADDRESS }]);
      expect((await call(a, '/elex/user/logout', {}, { token })).json()).toMatchObject({ state: 0 });
      const seenByB = await eventually(
        () => myInfo(b, token),
        (answer) => answer.state === State.SessionExpired,
      );
      expect(seenByB.state).toBe(State.SessionExpired);
    } finally {
      await instances.close();
    }
  });
});
