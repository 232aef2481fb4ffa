import type { Task, TaskDetail } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nextEmail, signUp, type TestContext } from '../modules/auth/test-support.js';
import { ingestRebates, ingestReferrals } from '../modules/cashback/ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  DAY_MS,
  figures,
  nextUid,
} from '../modules/cashback/test-support.js';
import { updateTaskDefinition } from '../modules/tasks/tasks.service.js';
import { openDispute } from '../modules/withdrawals/test-support.js';
import {
  eventually,
  type MemberInstances,
  memberOf,
  notificationsSettled,
  openMemberInstances,
  QUIET,
  writeUntold,
} from '../test/member-instances.js';

/**
 * getExchangeTaskDetail kept per process, evicted by the database's notifications (migration
 * 0058_member_notify_tasks and the earlier ones it relies on): two app instances on one database, each
 * kind of change to what the list shows made through one, seen through it at once and through the
 * other right after; a change with its notifying trigger off stays unseen while kept, and is seen at
 * once with MEMBER_CACHE=off.
 */

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const api = { kind: 'api', label: 'test' } as const;

async function content<T>(response: Promise<{ json(): unknown }>): Promise<T> {
  const body = (await response).json() as { state: number; content: T };
  expect(body.state, JSON.stringify(body)).toBe(0);
  return body.content;
}

const detailOf = (ctx: TestContext, token: string) =>
  content<TaskDetail>(call(ctx, '/elex/exchange/getExchangeTaskDetail', {}, { token }));
const taskOf = (detail: TaskDetail, taskId: string): Task => {
  const task = detail.groups.flatMap((group) => group.tasks).find((item) => item.taskId === taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  return task;
};

for (const cache of ['on', 'off'] as const) {
  describe(`getExchangeTaskDetail with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    const kept = cache === 'on';
    const cashback = () => instances.contexts[0] as CashbackTestContext;

    beforeAll(async () => {
      instances = await openMemberInstances(2, kept ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as unknown as [TestContext, TestContext];
      instances.clock.set(new Date('2026-03-20T12:00:00Z'));
    });
    afterAll(() => instances.close());

    /** The member's list through A satisfies `check` now, and through B right after. */
    async function seenByBoth(token: string, check: (detail: TaskDetail) => boolean) {
      const onA = await detailOf(a, token);
      expect(check(onA), JSON.stringify(onA)).toBe(true);
      const onB = await eventually(() => detailOf(b, token), check);
      expect(check(onB), JSON.stringify(onB)).toBe(true);
    }

    /** Reads through both instances (after pending notifications), so each keeps the answer. */
    async function readOnBoth(token: string): Promise<TaskDetail> {
      await notificationsSettled();
      const onA = await detailOf(a, token);
      expect(await detailOf(b, token)).toEqual(onA);
      return onA;
    }

    async function member() {
      const token = await signUp(a, nextEmail('tasks'));
      return { token, id: await memberOf(a, token) };
    }

    /** A UID in Bitget's roster, bound by the member through A. */
    async function bindUid(token: string): Promise<string> {
      const uid = nextUid('K');
      const registeredAt = new Date(instances.clock.now().getTime() - 30 * DAY_MS);
      await ingestReferrals(cashback().deps, BITGET, [{ uid, registeredAt }], api);
      const bound = (
        await call(a, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }, { token })
      ).json();
      expect(bound.state, JSON.stringify(bound)).toBe(0);
      return uid;
    }

    /** Another member paid `taskId` for `account` (as a claim records it). */
    async function paidToOther(taskId: string, account: string) {
      const other = await member();
      await a.db.execute(sql`
        insert into task_payouts (task_id, account, user_id, paid_at)
        values (${taskId}, ${account}, ${other.id}, now())`);
    }

    it('a UID bound, its trading imported, a dispute opened and a claim show on A at once and on B right after', async () => {
      const m = await member();
      expect(taskOf(await readOnBoth(m.token), 'bindUid').state).toBe('unbound');
      const uid = await bindUid(m.token);
      await seenByBoth(m.token, (d) => taskOf(d, 'bindUid').state === 'claim');

      await readOnBoth(m.token);
      const day = instances.clock.now().getTime() - 3 * DAY_MS;
      await ingestRebates(
        cashback().deps,
        BITGET,
        [figures(uid, new Date(day), { fee: '1', commission: '2', volume: '12000' })],
        api,
      );
      await seenByBoth(
        m.token,
        (d) => d.tradingVolume === '12000.000000' && taskOf(d, 'tradeTier1').state === 'claim',
      );

      await readOnBoth(m.token);
      const claimed = (
        await call(a, '/elex/exchange/receiveScore', { taskId: 'bindUid' }, { token: m.token })
      ).json();
      expect(claimed.state, JSON.stringify(claimed)).toBe(0);
      await seenByBoth(m.token, (d) => taskOf(d, 'bindUid').state === 'claimed' && d.points === 100);

      await readOnBoth(m.token);
      const owner = await member();
      const opened = await openDispute(cashback(), owner, { platId: BITGET, uid });
      expect(opened.state, JSON.stringify(opened)).toBe(0);
      await seenByBoth(m.token, (d) => taskOf(d, 'tradeTier1').awaitsDispute);
    });

    it('an XME UID and a social account bound show at once on A and right after on B', async () => {
      const m = await member();
      await readOnBoth(m.token);
      const xmeUid = `Xme-${nextUid()}`;
      const bound = (await call(a, '/elex/user/bindXmeUid', { xmeUid }, { token: m.token })).json();
      expect(bound.state, JSON.stringify(bound)).toBe(0);
      await seenByBoth(m.token, (d) => taskOf(d, 'bindXme').state === 'claim');

      await readOnBoth(m.token);
      const accountId = `${Date.now()}${cache === 'on' ? 1 : 2}`;
      await a.db.execute(sql`
        insert into social_accounts (user_id, network, account_id, verified_at, updated_at)
        values (${m.id}, 'telegram', ${accountId}, now(), now())`);
      await seenByBoth(
        m.token,
        (d) => taskOf(d, 'telegram').state === 'claim' && taskOf(d, 'telegram').accountId === accountId,
      );
    });

    it('a payout to another member for one of the member’s accounts shows at once on A and right after on B', async () => {
      const m = await member();
      const uid = await bindUid(m.token);
      const xmeUid = `Xme-${nextUid()}`;
      expect((await call(a, '/elex/user/bindXmeUid', { xmeUid }, { token: m.token })).json().state).toBe(0);
      const accountId = `${Date.now()}${cache === 'on' ? 3 : 4}`;
      await a.db.execute(sql`
        insert into social_accounts (user_id, network, account_id, verified_at, updated_at)
        values (${m.id}, 'discord', ${accountId}, now(), now())`);
      const before = await readOnBoth(m.token);
      expect(['bindUid', 'bindXme', 'discord'].map((id) => taskOf(before, id).state)).toEqual([
        'claim',
        'claim',
        'claim',
      ]);

      await paidToOther('bindUid', `${BITGET}:${uid}`);
      await seenByBoth(m.token, (d) => taskOf(d, 'bindUid').state === 'unbound');
      await readOnBoth(m.token);
      await paidToOther('bindXme', `xme:${xmeUid.toLowerCase()}`);
      await seenByBoth(m.token, (d) => taskOf(d, 'bindXme').state === 'unbound');
      await readOnBoth(m.token);
      await paidToOther('discord', `discord:${accountId}`);
      await seenByBoth(m.token, (d) => taskOf(d, 'discord').state === 'unbound');
    });

    it('an operator changing a task’s link, points, order or enabled shows at once on A and right after on B', async () => {
      const m = await member();
      await readOnBoth(m.token);
      const link = `https://t.me/elex${cache}`;
      await updateTaskDefinition(cashback().deps, 'telegram', { link });
      await seenByBoth(m.token, (d) => taskOf(d, 'telegram').link === link);

      await readOnBoth(m.token);
      await updateTaskDefinition(cashback().deps, 'discord', { points: 77 });
      await seenByBoth(m.token, (d) => taskOf(d, 'discord').points === 77);

      await readOnBoth(m.token);
      await updateTaskDefinition(cashback().deps, 'x', { enabled: false });
      const hidden = (d: TaskDetail) => !d.groups.some((g) => g.tasks.some((t) => t.taskId === 'x'));
      await seenByBoth(m.token, hidden);
      await updateTaskDefinition(cashback().deps, 'x', { enabled: true });
      await seenByBoth(m.token, (d) => !hidden(d));

      await readOnBoth(m.token);
      await updateTaskDefinition(cashback().deps, 'telegram', { sortOrder: 1_000 });
      await seenByBoth(
        m.token,
        (d) => d.groups.find((g) => g.group === 'social')?.tasks.at(-1)?.taskId === 'telegram',
      );
    });

    it(`a change with its trigger off is ${kept ? 'unseen (the answer is kept)' : 'seen at once'}`, async () => {
      const m = await member();
      const before = await readOnBoth(m.token);
      expect(taskOf(before, 'telegram').accountId).toBeNull();
      await writeUntold(a, 'social_accounts', 'social_accounts_notify_inserted', (tx) =>
        tx.execute(sql`
          insert into social_accounts (user_id, network, account_id, verified_at, updated_at)
          values (${m.id}, 'telegram', ${`${Date.now()}9${cache}`}, now(), now())`),
      );
      await notificationsSettled();
      for (const ctx of [a, b]) {
        const now = await detailOf(ctx, m.token);
        expect(taskOf(now, 'telegram').state).toBe(kept ? 'unbound' : 'claim');
      }
    });
  });
}
