import { forfeitOnDeletion, type Task, type TaskDetail } from '@elex/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { adminCall, newOperator } from '../admin/test-support.js';
import { users } from '../auth/auth.tables.js';
import { call, nextEmail, PASSWORD, signUp } from '../auth/test-support.js';
import { unbindUid } from '../bindings/bindings.service.js';
import { ingestRebates, ingestReferrals } from '../cashback/ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from '../cashback/test-support.js';
import { supportRequests } from '../support/support.tables.js';
import { openDispute } from '../withdrawals/test-support.js';
import { listTaskDefinitions, updateTaskDefinition } from './tasks.service.js';
import { taskPayouts } from './tasks.tables.js';

let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-03-20T12:00:00Z'));
});
afterAll(() => ctx.close());

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const api = { kind: 'api', label: 'test' } as const;

const detail = async (token: string): Promise<TaskDetail> => {
  const body = (await call(ctx, '/elex/exchange/getExchangeTaskDetail', {}, { token })).json();
  expect(body.state).toBe(0);
  return body.content;
};
const taskOf = (tasks: TaskDetail, taskId: string): Task => {
  const task = tasks.groups.flatMap((group) => group.tasks).find((item) => item.taskId === taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  return task;
};
const claim = (token: string, taskId: string, lang?: string) =>
  call(ctx, '/elex/exchange/receiveScore', { taskId }, { token, ...(lang ? { lang } : {}) }).then((res) =>
    res.json(),
  );
const points = async (token: string) =>
  (await call(ctx, '/elex/user/profile', {}, { token })).json().content.points as number;

/** A UID in Bitget's roster, bound by the member. */
async function bindReferredUid(token: string): Promise<string> {
  const uid = nextUid('T');
  await ingestReferrals(
    ctx.deps,
    BITGET,
    [{ uid, registeredAt: new Date(ctx.clock.now().getTime() - 30 * DAY_MS) }],
    api,
  );
  const bound = (
    await call(ctx, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }, { token })
  ).json();
  expect(bound.state).toBe(0);
  return uid;
}

/** Binds a UID already in the roster (one an earlier holder had). */
const bindAgain = (token: string, uid: string) =>
  call(ctx, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }, { token }).then((res) =>
    res.json(),
  );

/** Daily figures with this trading volume each, ending before now. */
async function trade(uid: string, volumes: string[]) {
  const first = ctx.clock.now().getTime() - (volumes.length + 2) * DAY_MS;
  const rows = volumes.map((volume, day) =>
    figures(uid, new Date(first + day * DAY_MS), { fee: '1', commission: '2', volume }),
  );
  await ingestRebates(ctx.deps, BITGET, rows, api);
}

describe('task list', () => {
  it('shows the three groups with their default tasks, nothing done by a new member', async () => {
    const token = await signUp(ctx, nextEmail('tasks'));
    const tasks = await detail(token);
    expect(tasks.groups.map((group) => [group.group, group.tasks.map((task) => task.taskId)])).toEqual([
      ['social', ['telegram', 'discord', 'x']],
      ['binding', ['bindUid', 'bindXme']],
      ['trade', ['tradeTier1', 'tradeTier2', 'tradeTier3']],
    ]);
    expect(tasks.tradingVolume).toBe('0.000000');
    expect(taskOf(tasks, 'telegram')).toMatchObject({
      state: 'unbound',
      points: 50,
      verification: 'unconfigured',
      link: 'https://t.me/elexcashback',
      appLink: 'tg://resolve?domain=elexcashback',
      accountId: null,
    });
    // X: no free API tells who follows an account, so the task pays nothing and says so.
    expect(taskOf(tasks, 'x')).toMatchObject({ state: 'unbound', points: 0, verification: 'none' });
    expect(taskOf(tasks, 'bindUid')).toMatchObject({
      state: 'unbound',
      verification: 'account',
      points: 100,
    });
    expect(taskOf(tasks, 'tradeTier1')).toMatchObject({
      state: 'unfinished',
      threshold: '10000.000000',
      progress: '0.000000',
    });
  });

  it('answers -5000 to every task call without a session', async () => {
    for (const path of [
      '/elex/exchange/getExchangeTaskDetail',
      '/elex/exchange/receiveScore',
      '/elex/exchange/fetchMetiaTaskStatus',
    ]) {
      expect((await call(ctx, path, { taskId: 'bindXme' })).json().state).toBe(-5000);
    }
  });
});

describe('binding tasks', () => {
  it('bind the XME account: Bind, then Claim, then Bound; the points are paid once', async () => {
    const token = await signUp(ctx, nextEmail('xme'));
    const before = await points(token);
    expect(await claim(token, 'bindXme')).toMatchObject({
      state: 1002,
      message: 'Claim Failed: complete the task first',
    });

    expect(
      (await call(ctx, '/elex/user/bindXmeUid', { xmeUid: `xme-${nextUid()}` }, { token })).json().state,
    ).toBe(0);
    expect(taskOf(await detail(token), 'bindXme').state).toBe('claim');

    expect(await claim(token, 'bindXme', 'zh')).toMatchObject({
      state: 0,
      message: '领取成功',
      content: { taskId: 'bindXme', pointsEarned: 50, points: before + 50, state: 'claimed' },
    });
    expect(taskOf(await detail(token), 'bindXme').state).toBe('claimed');
    expect(await claim(token, 'bindXme')).toMatchObject({
      state: 1002,
      message: 'Claim Failed: the points were already claimed',
    });
    expect(await points(token)).toBe(before + 50);
  });

  it('bind a first UID: racing claims pay once', async () => {
    const token = await signUp(ctx, nextEmail('uid'));
    await bindReferredUid(token);
    expect(taskOf(await detail(token), 'bindUid').state).toBe('claim');
    const before = await points(token);

    const answers = await Promise.all(Array.from({ length: 8 }, () => claim(token, 'bindUid')));
    expect(answers.filter((answer) => answer.state === 0)).toHaveLength(1);
    expect(
      answers
        .filter((answer) => answer.state !== 0)
        .every((answer) => answer.message.startsWith('Claim Failed')),
    ).toBe(true);
    expect(await points(token)).toBe(before + 100);
    const history = (await call(ctx, '/elex/activity/pointsHistory', {}, { token })).json().content;
    expect(history.entries.filter((entry: { reason: string }) => entry.reason === 'task')).toEqual([
      expect.objectContaining({
        amount: 100,
        reference: 'bindUid',
        task: { kind: 'bindUid', threshold: null },
      }),
    ]);
  });

  it('an XME account that earned the task stays with its member and never pays a second member', async () => {
    const memberA = await signUp(ctx, nextEmail('xme-a'));
    const memberB = await signUp(ctx, nextEmail('xme-b'));
    const bindXme = (token: string, xmeUid: string, lang?: string) =>
      call(ctx, '/elex/user/bindXmeUid', { xmeUid }, { token, ...(lang ? { lang } : {}) }).then((res) =>
        res.json(),
      );
    const paid = `xme-${nextUid()}`;
    expect((await bindXme(memberA, paid)).state).toBe(0);
    expect((await claim(memberA, 'bindXme')).state).toBe(0);

    // A cannot swap it away now; binding the same account again is harmless.
    expect(await bindXme(memberA, `xme-${nextUid()}`)).toMatchObject({
      state: 1002,
      message: 'Your XME account has earned the points of the binding task and can no longer be changed',
    });
    expect((await bindXme(memberA, paid, 'zh')).state).toBe(0);
    expect(await bindXme(memberA, `xme-${nextUid()}`, 'zh')).toMatchObject({
      message: '您的 XME 账户已领取绑定任务积分，不能再更改',
    });
    // B cannot take it, in any case.
    for (const variant of [paid, paid.toUpperCase()]) {
      expect(await bindXme(memberB, variant)).toMatchObject({
        state: 1002,
        message: 'This account is already bound!',
      });
    }

    // Even if the account were freed (here behind the service's back), it has paid once and for all.
    await ctx.db.execute(sql`update xme_bindings set xme_uid = 'moved-away' where xme_uid = ${paid}`);
    expect((await bindXme(memberB, paid.toUpperCase())).state).toBe(0);
    expect(taskOf(await detail(memberB), 'bindXme').state).toBe('unbound');
    const before = await points(memberB);
    expect(await claim(memberB, 'bindXme', 'ko')).toMatchObject({
      state: 1002,
      message: '수령 실패: 이 계정은 이미 다른 회원의 과제 포인트를 받았습니다',
    });
    expect(await points(memberB)).toBe(before);
    // A refused claim does not lock: B can still bind an account of their own, which pays.
    expect((await bindXme(memberB, `xme-${nextUid()}`)).state).toBe(0);
    expect((await claim(memberB, 'bindXme')).content.pointsEarned).toBe(50);
  });

  it('refuses an XME UID that cannot be one', async () => {
    const token = await signUp(ctx, nextEmail('xme-format'));
    for (const xmeUid of ['----', 'ab', 'me@example.com', `x${'1'.repeat(32)}`]) {
      expect((await call(ctx, '/elex/user/bindXmeUid', { xmeUid }, { token })).json()).toEqual({
        state: 1001,
        message: 'xmeUid: Please enter a valid XME UID (4 to 32 letters, digits, - or _)',
        content: null,
      });
    }
    expect(taskOf(await detail(token), 'bindXme').state).toBe('unbound');
  });

  it('an exchange UID pays the binding task once: after an unbinding, its next member binds another UID to earn it', async () => {
    const memberA = await signUp(ctx, nextEmail('uid-a'));
    const memberB = await signUp(ctx, nextEmail('uid-b'));
    const uid = await bindReferredUid(memberA);
    expect((await claim(memberA, 'bindUid')).state).toBe(0);
    await ctx.db.transaction((tx) =>
      unbindUid(tx, { platId: BITGET, uid, reason: 'kycTransfer', operatorId: null, at: ctx.clock.now() }),
    );
    expect((await bindAgain(memberB, uid)).state).toBe(0);

    expect(taskOf(await detail(memberB), 'bindUid').state).toBe('unbound');
    const before = await points(memberB);
    expect(await claim(memberB, 'bindUid')).toMatchObject({
      state: 1002,
      message: 'Claim Failed: this account has already earned these points for another member',
    });
    expect(await points(memberB)).toBe(before);

    await bindReferredUid(memberB);
    expect(taskOf(await detail(memberB), 'bindUid').state).toBe('claim');
    expect((await claim(memberB, 'bindUid')).content).toMatchObject({
      pointsEarned: 100,
      points: before + 100,
    });
  });

  it('keeps the record of paid accounts for good', async () => {
    await expect(ctx.db.execute(sql`delete from task_payouts`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`update task_payouts set user_id = user_id`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`truncate task_payouts`)).rejects.toThrow();
  });

  it('finds the payouts of an account through an index led by the account (a million members)', async () => {
    // Every task list, claim and membership check asks which of the member's accounts another member
    // was paid for, by account alone. The primary key (task, account) cannot seek on it: without an
    // index led by the account, PostgreSQL reads every payout of every member on each of those calls.
    const plan = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained = rowsOf<{ 'QUERY PLAN': unknown }>(
        await tx.execute(
          sql`explain (format json) select task_id, account, user_id from task_payouts
            where account in ('1:probe', 'xme:probe')`,
        ),
      );
      return JSON.stringify(explained[0]?.['QUERY PLAN']);
    });
    const used = [...plan.matchAll(/"Index Name":\s*"([^"]+)"/g)].map((match) => match[1]);
    const definitions = rowsOf<{ indexname: string; indexdef: string }>(
      await ctx.db.execute(sql`select indexname, indexdef from pg_indexes where tablename = 'task_payouts'`),
    );
    const ledByAccount = definitions
      .filter((row) => /\(account[,)]/.test(row.indexdef))
      .map((row) => row.indexname);
    expect(used.length).toBeGreaterThan(0);
    expect(used.every((name) => ledByAccount.includes(name ?? ''))).toBe(true);
  });

  it('refuses an unknown or disabled task as not found', async () => {
    const token = await signUp(ctx, nextEmail('unknown'));
    expect((await claim(token, 'nope')).state).toBe(1004);
    expect((await claim(token, '')).state).toBe(1001);
  });
});

describe('trade tasks', () => {
  it('measures the cumulative volume of the bound UIDs from the rebate data', async () => {
    const token = await signUp(ctx, nextEmail('trade'));
    const first = await bindReferredUid(token);
    await trade(first, ['4000', '3000.5']);
    let tasks = await detail(token);
    expect(tasks.tradingVolume).toBe('7000.500000');
    expect(taskOf(tasks, 'tradeTier1')).toMatchObject({ state: 'unfinished', progress: '7000.500000' });
    expect(await claim(token, 'tradeTier1', 'ko')).toMatchObject({
      state: 1002,
      message: '수령 실패: 미달성',
    });
    expect(await claim(token, 'tradeTier1')).toMatchObject({ message: 'Claim Failed: Not Achieved' });

    // A second UID's volume adds up; another member's UID does not.
    const second = await bindReferredUid(token);
    await trade(second, ['2999.5']);
    const other = await signUp(ctx, nextEmail('other'));
    await trade(await bindReferredUid(other), ['500000']);
    tasks = await detail(token);
    expect(tasks.tradingVolume).toBe('10000.000000');
    expect(taskOf(tasks, 'tradeTier1').state).toBe('claim');
    expect(taskOf(tasks, 'tradeTier2').state).toBe('unfinished');

    const before = await points(token);
    expect((await claim(token, 'tradeTier1')).content).toMatchObject({
      pointsEarned: 100,
      points: before + 100,
    });
    expect(taskOf(await detail(token), 'tradeTier1').state).toBe('claimed');
    expect(taskOf(await detail(other), 'tradeTier2').state).toBe('claim');
  });
});

describe('a UID bound after its holder deleted the account', () => {
  // Found while repairing overlapping bindings (2026-11-29): the claim read where the new holder's
  // history starts from a subquery whose columns named its own row, so it never found the deletion and
  // paid the trade tiers on the deleted holder's volume, while the task list showed none of it.
  it('pays no trade points on the deleted holder’s volume: the claim counts what the list shows', async () => {
    const first = await signUp(ctx, nextEmail('leaver'));
    const uid = await bindReferredUid(first);
    await trade(uid, ['20000']);
    expect((await detail(first)).tradingVolume).toBe('20000.000000');
    // Held for a day: the binding ends after it began (a deletion at the very moment hid the fault).
    ctx.clock.advance(DAY_MS);
    const info = (await call(ctx, '/elex/user/myInfo', {}, { token: first })).json().content;
    const deleted = await call(
      ctx,
      '/elex/user/deleteAccount',
      { passwd: PASSWORD, forfeitTotal: info.exchangeBinds[0].balance },
      { token: first },
    );
    expect(deleted.json()).toMatchObject({ state: 0 });
    ctx.clock.advance(60_000);

    const next = await signUp(ctx, nextEmail('next-holder'));
    const bound = { platId: BITGET, uid, address: ADDRESS };
    expect((await call(ctx, '/elex/user/bindExchangeUid', bound, { token: next })).json()).toMatchObject({
      state: 0,
    });
    const tasks = await detail(next);
    expect(tasks.tradingVolume).toBe('0.000000');
    expect(taskOf(tasks, 'tradeTier1').state).toBe('unfinished');
    const before = await points(next);
    expect(await claim(next, 'tradeTier1')).toMatchObject({ state: 1002 });
    expect(await points(next)).toBe(before);
  });
});

describe('a UID its owner disputes', () => {
  it('pays no binding or trade points on it until support has decided', async () => {
    const squatter = await signUp(ctx, nextEmail('squatter'));
    const uid = await bindReferredUid(squatter);
    await trade(uid, ['20000']);
    const ownerEmail = nextEmail('owner');
    const ownerToken = await signUp(ctx, ownerEmail);
    const [owner] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, ownerEmail));
    const at = ctx.clock.now();
    const [dispute] = await ctx.db
      .insert(supportRequests)
      .values({
        userId: owner?.id ?? 0,
        kind: 'uidBoundByOther',
        platId: BITGET,
        uid,
        status: 'open',
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: supportRequests.id });

    // The task list says so before the member clicks: Claim waits for support's decision.
    const listed = await detail(squatter);
    for (const taskId of ['bindUid', 'tradeTier1']) {
      expect(taskOf(listed, taskId)).toMatchObject({ state: 'claim', awaitsDispute: true });
    }
    expect(taskOf(listed, 'bindXme').awaitsDispute).toBe(false);
    expect(taskOf(listed, 'telegram').awaitsDispute).toBe(false);
    // The owner, who opened the dispute, holds no UID under it.
    expect(taskOf(await detail(ownerToken), 'bindUid').awaitsDispute).toBe(false);

    const before = await points(squatter);
    for (const taskId of ['bindUid', 'tradeTier1']) {
      expect(await claim(squatter, taskId)).toMatchObject({
        state: 1002,
        message: 'Claim Failed: a UID of yours is under dispute; claim again once support has decided',
      });
    }
    expect(await claim(squatter, 'bindUid', 'zh')).toMatchObject({ state: 1002 });
    expect(await claim(squatter, 'bindUid', 'ko')).toMatchObject({ state: 1002 });
    expect(await points(squatter)).toBe(before);
    // The UID did not earn the binding task for anyone: whoever holds it after the decision can.
    expect(
      await ctx.db
        .select()
        .from(taskPayouts)
        .where(eq(taskPayouts.account, `${BITGET}:${uid}`)),
    ).toEqual([]);

    // Decided in the holder's favour (closed without a move): the claims pay.
    await ctx.db
      .update(supportRequests)
      .set({ status: 'closed', resolution: 'closed', closedAt: ctx.clock.now(), updatedAt: ctx.clock.now() })
      .where(eq(supportRequests.id, dispute?.id ?? 0));
    expect(taskOf(await detail(squatter), 'bindUid')).toMatchObject({ state: 'claim', awaitsDispute: false });
    expect((await claim(squatter, 'bindUid')).state).toBe(0);
    expect((await claim(squatter, 'tradeTier1')).state).toBe(0);
    expect(await points(squatter)).toBe(before + 200);
  });
});

describe('task definitions (operator console)', () => {
  it('changes points and thresholds; new claims pay the new value, a task with no points shows bound', async () => {
    const defaults = await listTaskDefinitions(ctx.db);
    expect(defaults.map((task) => task.id)).toContain('tradeTier3');

    const token = await signUp(ctx, nextEmail('operator'));
    await call(ctx, '/elex/user/bindXmeUid', { xmeUid: `xme-${nextUid()}` }, { token });
    await updateTaskDefinition(ctx.deps, 'bindXme', { points: 0 });
    expect(taskOf(await detail(token), 'bindXme').state).toBe('bound');
    expect(await claim(token, 'bindXme')).toMatchObject({
      message: 'Claim Failed: this task pays no points',
    });

    await updateTaskDefinition(ctx.deps, 'bindXme', { points: 75 });
    expect((await claim(token, 'bindXme')).content.pointsEarned).toBe(75);

    const uid = await bindReferredUid(token);
    await trade(uid, ['20']);
    await updateTaskDefinition(ctx.deps, 'tradeTier3', { threshold: '19.5' });
    expect(taskOf(await detail(token), 'tradeTier3')).toMatchObject({
      state: 'claim',
      threshold: '19.500000',
    });

    await updateTaskDefinition(ctx.deps, 'tradeTier3', { enabled: false });
    expect((await detail(token)).groups[2]?.tasks.map((task) => task.taskId)).toEqual([
      'tradeTier1',
      'tradeTier2',
    ]);
    expect((await claim(token, 'tradeTier3')).state).toBe(1004);

    await expect(updateTaskDefinition(ctx.deps, 'bindUid', { threshold: '10' })).rejects.toThrow();
    // An app link that would run script in the page is refused by the service itself, not only the console.
    for (const appLink of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x']) {
      await expect(updateTaskDefinition(ctx.deps, 'telegram', { appLink })).rejects.toThrow();
    }
    expect((await listTaskDefinitions(ctx.db)).find((task) => task.id === 'telegram')?.appLink).toBe(
      'tg://resolve?domain=elexcashback',
    );
    await expect(updateTaskDefinition(ctx.deps, 'tradeTier1', { threshold: '0' })).rejects.toThrow();
    await expect(
      updateTaskDefinition(ctx.deps, 'telegram', { link: 'javascript:alert(1)' }),
    ).rejects.toThrow();
    await expect(updateTaskDefinition(ctx.deps, 'telegram', { points: -1 })).rejects.toThrow();
    await expect(updateTaskDefinition(ctx.deps, 'missing', { points: 1 })).rejects.toThrow();
    // Restore for the other tests of this file.
    await updateTaskDefinition(ctx.deps, 'tradeTier3', { enabled: true, threshold: '1000000' });
    await updateTaskDefinition(ctx.deps, 'bindXme', { points: 50 });
  });
});

describe('a trade tier claimed before the operator changed it', () => {
  const historyTask = async (token: string, taskId: string) => {
    const body = (await call(ctx, '/elex/activity/pointsHistory', {}, { token })).json();
    expect(body.state).toBe(0);
    const entry = (
      body.content.entries as { reference: string | null; amount: number; task: unknown }[]
    ).find((item) => item.reference === taskId);
    return entry && { amount: entry.amount, task: entry.task };
  };

  it('keeps the threshold it was claimed under in the points history', async () => {
    const token = await signUp(ctx, nextEmail('tier-kept'));
    await trade(await bindReferredUid(token), ['10000']);
    expect((await claim(token, 'tradeTier1')).content.pointsEarned).toBe(100);

    // Found in red-team review (2026-11-29): the entry was labelled with the live definition, so raising
    // the tier to 50,000 made this member's history read "traded 50,000 USDT".
    await updateTaskDefinition(ctx.deps, 'tradeTier1', { threshold: '50000', points: 300 });
    try {
      expect(await historyTask(token, 'tradeTier1')).toEqual({
        amount: 100,
        task: { kind: 'tradingVolume', threshold: '10000.000000' },
      });
      // A claim under the new definition is labelled with it.
      const later = await signUp(ctx, nextEmail('tier-new'));
      await trade(await bindReferredUid(later), ['50000']);
      expect((await claim(later, 'tradeTier1')).content.pointsEarned).toBe(300);
      expect(await historyTask(later, 'tradeTier1')).toEqual({
        amount: 300,
        task: { kind: 'tradingVolume', threshold: '50000.000000' },
      });
    } finally {
      await updateTaskDefinition(ctx.deps, 'tradeTier1', { threshold: '10000', points: 100 });
    }
  });

  it('shows the claimed card with what the member was paid and the threshold it was claimed under', async () => {
    const token = await signUp(ctx, nextEmail('card-kept'));
    await trade(await bindReferredUid(token), ['12000']);
    expect((await claim(token, 'tradeTier1')).content.pointsEarned).toBe(100);
    expect((await claim(token, 'bindUid')).content.pointsEarned).toBe(100);

    // Found in red-team review (2026-11-29): the card read the live definition, so raising tier 1 to
    // 50,000 USDT / 300 points made a member paid 100 points for 10,000 look short-paid.
    await updateTaskDefinition(ctx.deps, 'tradeTier1', { threshold: '50000', points: 300 });
    await updateTaskDefinition(ctx.deps, 'bindUid', { points: 150 });
    try {
      const tasks = await detail(token);
      expect(taskOf(tasks, 'tradeTier1')).toMatchObject({
        state: 'claimed',
        points: 100,
        threshold: '10000.000000',
        progress: '12000.000000',
      });
      expect(taskOf(tasks, 'bindUid')).toMatchObject({ state: 'claimed', points: 100, threshold: null });
      // The tiers not claimed show what a claim pays now.
      expect(taskOf(tasks, 'tradeTier2')).toMatchObject({ state: 'unfinished', points: 300 });

      // A member who has not claimed it sees the new definition, and once paid under it, that.
      const later = await signUp(ctx, nextEmail('card-new'));
      await trade(await bindReferredUid(later), ['50000']);
      expect(taskOf(await detail(later), 'tradeTier1')).toMatchObject({
        state: 'claim',
        points: 300,
        threshold: '50000.000000',
      });
      await claim(later, 'tradeTier1');
      expect(taskOf(await detail(later), 'tradeTier1')).toMatchObject({
        state: 'claimed',
        points: 300,
        threshold: '50000.000000',
      });
    } finally {
      await updateTaskDefinition(ctx.deps, 'tradeTier1', { threshold: '10000', points: 100 });
      await updateTaskDefinition(ctx.deps, 'bindUid', { points: 100 });
    }
  });
});

describe('social tasks without a bot configured', () => {
  it('stores the account id but never verifies or pays', async () => {
    const token = await signUp(ctx, nextEmail('nobot'));
    const answer = (
      await call(
        ctx,
        '/elex/exchange/fetchMetiaTaskStatus',
        { taskId: 'telegram', accountId: '123456789' },
        { token },
      )
    ).json();
    expect(answer).toMatchObject({
      state: 0,
      content: { taskId: 'telegram', status: 'unavailable', state: 'unbound', accountId: '123456789' },
    });
    expect(taskOf(await detail(token), 'telegram')).toMatchObject({
      accountId: '123456789',
      state: 'unbound',
    });
    expect(await claim(token, 'telegram')).toMatchObject({
      message: 'Claim Failed: complete the task first',
    });
    expect(await claim(token, 'x')).toMatchObject({ message: 'Claim Failed: complete the task first' });
    expect(
      (await call(ctx, '/elex/exchange/fetchMetiaTaskStatus', { taskId: 'x' }, { token })).json(),
    ).toMatchObject({ state: 1002, message: 'This task cannot be verified automatically' });
  });
});

describe('trade tasks after a deletion', () => {
  it("pays the tiers once on a deleted holder's volume: the next holder counts only what came after", async () => {
    const first = await signUp(ctx, nextEmail('farmer'));
    const uid = await bindReferredUid(first);
    // Yesterday's trades, imported but not yet due for settlement (pending).
    const start = new Date(ctx.clock.now().getTime() - 30 * 60 * 60_000);
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, start, { fee: '1', commission: '2', volume: '20000' })],
      api,
    );
    expect((await claim(first, 'tradeTier1')).state).toBe(0);

    const withdrawable = (await call(ctx, '/elex/user/withdrawable', {}, { token: first })).json();
    const deleted = (
      await call(
        ctx,
        '/elex/user/deleteAccount',
        { passwd: PASSWORD, forfeitTotal: forfeitOnDeletion(withdrawable.content) },
        { token: first },
      )
    ).json();
    expect(deleted.state).toBe(0);

    // The same UID bound again under a new e-mail: the volume the first holder was paid for is not new.
    ctx.clock.set(new Date(ctx.clock.now().getTime() + 60_000));
    const second = await signUp(ctx, nextEmail('farmer-again'));
    expect((await bindAgain(second, uid)).state).toBe(0);
    expect(taskOf(await detail(second), 'tradeTier1')).toMatchObject({
      state: 'unfinished',
      progress: '0.000000',
    });
    expect(await claim(second, 'tradeTier1')).toMatchObject({ message: 'Claim Failed: Not Achieved' });

    // Trades after the deletion count for the new holder.
    ctx.clock.set(new Date(ctx.clock.now().getTime() + 3 * 60 * 60_000));
    const later = new Date(ctx.clock.now().getTime() - 2 * 60 * 60_000);
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, later, { fee: '1', commission: '2', volume: '10000' }, 1)],
      api,
    );
    expect(taskOf(await detail(second), 'tradeTier1')).toMatchObject({
      state: 'claim',
      progress: '10000.000000',
    });
    expect((await claim(second, 'tradeTier1')).state).toBe(0);
  });
});

describe('trade tasks after an operator moves the UID', () => {
  const tier1 = async (token: string) => taskOf(await detail(token), 'tradeTier1');

  /** A member who bound a UID, traded 20,000 USDT on it and was paid tier 1 for it. */
  async function paidHolder(prefix: string) {
    const email = nextEmail(prefix);
    const token = await signUp(ctx, email);
    const uid = await bindReferredUid(token);
    await trade(uid, ['20000']);
    expect((await claim(token, 'tradeTier1')).state).toBe(0);
    const [member] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return { token, uid, userId: Number(member?.id) };
  }

  it("does not pay the owner's tiers again on the volume the squatter was paid for (support.moveBinding)", async () => {
    const operator = await newOperator(ctx);
    const squatter = await paidHolder('squatter');
    const owner = await signUp(ctx, nextEmail('owner'));
    const opened = await openDispute(ctx, { token: owner }, { platId: BITGET, uid: squatter.uid });
    expect(opened.state).toBe(0);
    expect(await adminCall(ctx, operator, 'support/moveBinding', { id: opened.content.id })).toMatchObject({
      state: 0,
      content: { resolution: 'moved' },
    });

    expect(await tier1(owner)).toMatchObject({ state: 'unfinished', progress: '0.000000' });
    expect((await detail(owner)).tradingVolume).toBe('0.000000');
    const before = await points(owner);
    expect(await claim(owner, 'tradeTier1')).toMatchObject({ message: 'Claim Failed: Not Achieved' });
    expect(await points(owner)).toBe(before);

    // What the owner trades once the UID is theirs counts.
    ctx.clock.advance(4 * DAY_MS);
    await trade(squatter.uid, ['10000']);
    expect(await tier1(owner)).toMatchObject({ state: 'claim', progress: '10000.000000' });
    expect((await claim(owner, 'tradeTier1')).state).toBe(0);
  });

  it("does not pay the next member's tiers again after an operator's unbind; the same member's own volume stays theirs", async () => {
    const operator = await newOperator(ctx);
    const first = await paidHolder('unbound');
    const { userId } = first;
    const unbind = (holder: number) =>
      adminCall(ctx, operator, 'unbindUid', {
        userId: holder,
        platId: BITGET,
        uid: first.uid,
        reason: 'Disputed',
      });
    expect(await unbind(userId)).toMatchObject({ state: 0 });

    // Bound again by the member who had it: their own trades, already paid to them, still count.
    ctx.clock.advance(60_000);
    expect((await bindAgain(first.token, first.uid)).state).toBe(0);
    expect(await tier1(first.token)).toMatchObject({ state: 'claimed', progress: '20000.000000' });
    expect(await unbind(userId)).toMatchObject({ state: 0 });

    ctx.clock.advance(60_000);
    const next = await signUp(ctx, nextEmail('next-holder'));
    expect((await bindAgain(next, first.uid)).state).toBe(0);
    expect(await tier1(next)).toMatchObject({ state: 'unfinished', progress: '0.000000' });
    expect(await claim(next, 'tradeTier1')).toMatchObject({ message: 'Claim Failed: Not Achieved' });
  });
});
