import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../modules/auth/test-support.js';
import { ingestReferrals } from '../modules/cashback/ingest.service.js';
import { type CashbackTestContext, nextUid } from '../modules/cashback/test-support.js';
import { accountCode, postJournal } from '../modules/ledger/ledger.service.js';
import { eventually, type MemberInstances, openMemberInstances } from '../test/member-instances.js';
import type { DatabaseHandle } from './client.js';
import { answerKind, parseMemberChange, uidKey } from './member-answers.js';
import { MEMBER_CHANGES_CHANNEL } from './member-changes-channel.js';

/**
 * Kept answers evicted by UID too (migration 0055; docs/decisions.md, "Kept answers evicted by UID
 * too (migration 0055)"): the tokens' reading, an answer filed under its UIDs, and what the triggers
 * send. The race it closes (a short writer's statement before the member's binding, its commit after
 * the member read) needs two sessions at once: db/member-lists.test.ts, PostgreSQL.
 */

const BITGET = 4;
const DAY_MS = 24 * 60 * 60_000;
const api = { kind: 'api', label: 'test' } as const;

describe('parseMemberChange', () => {
  it('reads members, UIDs as is and UIDs in hex, and * as everything', () => {
    expect(parseMemberChange('12,7')).toEqual({ all: false, members: [12, 7], uids: [] });
    expect(parseMemberChange('u4:AB-c_9,3,u12:0042')).toEqual({
      all: false,
      members: [3],
      uids: ['4:AB-c_9', '12:0042'],
    });
    const odd = 'a,b c:é';
    const hex = Buffer.from(odd, 'utf8').toString('hex');
    expect(parseMemberChange(`x4:${hex}`)).toEqual({ all: false, members: [], uids: [uidKey(4, odd)] });
    expect(parseMemberChange('u4:ABCD,*')).toEqual({ all: true });
    expect(parseMemberChange('*')).toEqual({ all: true });
  });

  it('skips what is no token: no member is read out of a UID', () => {
    expect(parseMemberChange('u4,u:ABC,uX:ABC,u4:,x4:abc,x4:zz,1.5,abc')).toEqual({
      all: false,
      members: [],
      uids: [],
    });
  });
});

describe('answers filed under their UIDs', () => {
  let instances: MemberInstances;
  let a: TestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(1);
    [a] = instances.contexts as [CashbackTestContext];
  });
  afterAll(() => instances.close());

  const notify = (payload: string) =>
    // From A's own connection: heard by A before the statement returns (PGlite: its one session).
    a.db.execute(sql`select pg_notify(${MEMBER_CHANGES_CHANNEL}, ${payload})`);

  it('a token for one of its UIDs drops a kept answer; one for another UID does not', async () => {
    const answers = a.app.deps.memberAnswers;
    if (!answers) throw new Error('the member cache is on in this test');
    const probe = answers.of(answerKind<string>('uid-probe', 10));
    const member = 987_001;
    const uid = nextUid();
    const covering = { member, uids: [uidKey(BITGET, uid)] };
    expect(await probe.read('covers', async () => ({ ...covering, value: 'first' }))).toBe('first');
    expect(await probe.read('covers', async () => ({ ...covering, value: 'second' }))).toBe('first');
    await notify(`u${BITGET}:${uid}x,u${BITGET + 1}:${uid}`);
    expect(await probe.read('covers', async () => ({ ...covering, value: 'third' }))).toBe('first');
    await notify(`u${BITGET}:${uid}`);
    expect(await probe.read('covers', async () => ({ ...covering, value: 'fourth' }))).toBe('fourth');
    // The hex spelling names the same UID.
    await notify(`x${BITGET}:${Buffer.from(uid).toString('hex')}`);
    expect(await probe.read('covers', async () => ({ ...covering, value: 'fifth' }))).toBe('fifth');
  });

  it('an answer read while a token for one of its UIDs arrives is answered but not kept', async () => {
    const answers = a.app.deps.memberAnswers;
    if (!answers) throw new Error('the member cache is on in this test');
    const probe = answers.of(answerKind<string>('uid-race', 10));
    const member = 987_002;
    const uid = nextUid();
    const covering = { member, uids: [uidKey(BITGET, nextUid()), uidKey(BITGET, uid)] };
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reading = probe.read('raced', async () => {
      await gate;
      return { ...covering, value: 'before the change' };
    });
    await notify(`u${BITGET}:${uid}`);
    release();
    expect(await reading).toBe('before the change');
    expect(await probe.read('raced', async () => ({ ...covering, value: 'after the change' }))).toBe(
      'after the change',
    );
    // Read after the token: kept.
    expect(await probe.read('raced', async () => ({ ...covering, value: 'later' }))).toBe('after the change');
  });
});

describe('what the triggers send (migrations 0055 and 0057)', () => {
  let instances: MemberInstances;
  let a: TestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(1);
    [a] = instances.contexts as [CashbackTestContext];
  });
  afterAll(() => instances.close());

  it('a correction of an unbound UID, its dispute and its roster line each name the UID', async () => {
    const heard = await listenRaw(instances.handles[0] as DatabaseHandle);
    try {
      const uid = nextUid();
      const key = uidKey(BITGET, uid);
      await ingestReferrals(
        a.app.deps,
        BITGET,
        [{ uid, registeredAt: new Date(a.clock.now().getTime() - 100 * DAY_MS) }],
        api,
      );
      await until(() => heard.uids.has(key));
      heard.uids.clear();
      await a.db.transaction((tx) =>
        postJournal(tx, {
          kind: 'correction',
          key: `member-uids:${uid}`,
          at: a.clock.now(),
          lines: [
            { account: accountCode.cashback(BITGET, uid), amount: 1_000_000n },
            { account: accountCode.adjustments, amount: -1_000_000n },
          ],
        }),
      );
      await until(() => heard.uids.has(key));
      heard.uids.clear();
      const now = a.clock.now().toISOString();
      const claimant = await a.db.execute(sql`
        insert into users (email, user_code, invite_code, created_at)
        values (${`${uid.toLowerCase()}@example.com`}, ${`UC${uid}`}, ${`UI${uid}`}, now()) returning id`);
      const claimantId = (claimant as unknown as { rows: Array<{ id: number }> }).rows[0]?.id;
      await a.db.execute(sql`insert into support_requests (user_id, kind, plat_id, uid, status, created_at, updated_at)
        values (${claimantId}, 'uidBoundByOther', ${BITGET}, ${uid}, 'open', ${now}::timestamptz, ${now}::timestamptz)`);
      await until(() => heard.uids.has(key));
      expect(heard.uids.has(key)).toBe(true);
    } finally {
      await heard.close();
    }
  });

  it('UIDs of any text arrive whole; many arrive in notifications under 8,000 bytes', async () => {
    const heard = await listenRaw(instances.handles[0] as DatabaseHandle);
    try {
      const odd = `${nextUid()},odd uid:é`;
      const many = Array.from({ length: 600 }, () => `${nextUid()}${'Z'.repeat(20)}`);
      const registeredAt = new Date(a.clock.now().getTime() - 100 * DAY_MS).toISOString();
      await a.db.execute(sql`insert into referrals (plat_id, uid, registered_at, source, source_label, first_seen_at)
        select ${BITGET}, u, ${registeredAt}::timestamptz, 'api', 'test', now()
        from unnest(string_to_array(${[odd, ...many].join('|')}, '|')) u`);
      const keys = [odd, ...many].map((uid) => uidKey(BITGET, uid));
      await until(() => keys.every((key) => heard.uids.has(key)));
      expect(keys.filter((key) => !heard.uids.has(key))).toEqual([]);
      expect(heard.payloads.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...heard.payloads.map((payload) => Buffer.byteLength(payload)))).toBeLessThan(8000);
    } finally {
      await heard.close();
    }
  });

  it("one statement over bindings of several exchanges names each binding's own exchange and UID", async () => {
    const member = await a.db.execute(sql`
      insert into users (email, user_code, invite_code, created_at)
      values (${`pairs-${nextUid().toLowerCase()}@example.com`}, ${`UC${nextUid()}`}, ${`UI${nextUid()}`}, now())
      returning id`);
    const userId = (member as unknown as { rows: Array<{ id: number }> }).rows[0]?.id;
    // Exchanges 1, 2 and 3 with UIDs in the other order: a pair zipped from two scans in different
    // orders would name an exchange with another binding's UID.
    const bound = [1, 2, 3].map((platId) => ({ platId, uid: `${nextUid()}P${4 - platId}` }));
    const expected = bound.map(({ platId, uid }) => uidKey(platId, uid));
    const crossed = bound.flatMap(({ platId }) =>
      bound.filter((other) => other.platId !== platId).map(({ uid }) => uidKey(platId, uid)),
    );
    const heard = await listenRaw(instances.handles[0] as DatabaseHandle);
    try {
      await a.db.execute(sql`
        insert into exchange_bindings (user_id, plat_id, uid, address, bound_at)
        select ${userId}, p, u, ${'0x52908400098527886E0F7030069857D2E4169EE7'}, now()
        from unnest(${`{${bound.map(({ platId }) => platId).join(',')}}`}::int[],
                    ${`{${bound.map(({ uid }) => uid).join(',')}}`}::text[]) as t(p, u)
        order by u desc`);
      await until(() => expected.every((key) => heard.uids.has(key)));
      heard.uids.clear();
      await a.db.execute(sql`update exchange_bindings set unbound_at = now(), unbind_reason = 'test'
        where user_id = ${userId}`);
      await until(() => expected.every((key) => heard.uids.has(key)));
      heard.uids.clear();
      await a.db.execute(sql`delete from exchange_bindings where user_id = ${userId}`);
      await until(() => expected.every((key) => heard.uids.has(key)));
      expect(crossed.filter((key) => heard.uids.has(key))).toEqual([]);
    } finally {
      await heard.close();
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  await eventually(
    async () => condition(),
    (done) => done,
  );
}

/** A listener of the test's own on the channel: every payload with a UID, and every UID named. */
async function listenRaw(handle: DatabaseHandle) {
  const payloads: string[] = [];
  const uids = new Set<string>();
  const hear = (payload: string) => {
    if (payload.startsWith('heartbeat:')) return;
    const change = parseMemberChange(payload);
    if (change.all || change.uids.length === 0) return;
    payloads.push(payload);
    for (const uid of change.uids) uids.add(uid);
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
    return { payloads, uids, close: () => own.end() };
  }
  const unlisten = await (client as PGlite).listen(MEMBER_CHANGES_CHANNEL, hear);
  return { payloads, uids, close: () => unlisten() };
}
