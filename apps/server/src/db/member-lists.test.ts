import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, type TestContext } from '../modules/auth/test-support.js';
import { ingestRebates, ingestReferrals, settleRebates } from '../modules/cashback/ingest.service.js';
import { rebuildKeptFigures } from '../modules/cashback/kept-figures.js';
import { type CashbackTestContext, figures, nextUid } from '../modules/cashback/test-support.js';
import { updateExchange } from '../modules/exchanges/exchanges.service.js';
import { exchanges } from '../modules/exchanges/exchanges.tables.js';
import { accountCode, postJournal } from '../modules/ledger/ledger.service.js';
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
 * The member's record list (seeRebateData's first pages), a binding's detail (seeRebateByExchangeId)
 * and the pending estimates (expireRebate) kept per process, evicted by the database's notifications
 * (migrations 0028, 0053 and 0055): two app
 * instances on one database, a change made through one seen through it at once and through the other
 * right after; a change with the notifying trigger off stays unseen (they are kept); MEMBER_CACHE=off
 * reads every time.
 */

const BITGET = 4;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const api = { kind: 'api', label: 'test' } as const;
interface Page {
  records: { id: string; status: string; amount: string; uid: string }[];
  total: number;
}
interface Detail {
  pendingRebate: string;
  balance: string;
  heldUntil: string | null;
  frozen: boolean;
}

const list = (ctx: TestContext, token: string, query: Record<string, unknown> = {}) =>
  call(ctx, '/elex/user/seeRebateData', { page: 1, pageSize: 20, ...query }, { token }).then(
    (res) => res.json() as { state: number; content: Page },
  );
const myInfoOf = (ctx: TestContext, token: string) =>
  call(ctx, '/elex/user/myInfo', {}, { token }).then(
    (res) => (res.json() as { content: { exchangeBinds: { balance: string }[] } }).content,
  );
const detail = (ctx: TestContext, token: string, uid: string) =>
  call(ctx, '/elex/user/seeRebateByExchangeId', { platId: BITGET, uid }, { token }).then(
    (res) => res.json() as { state: number; content: Detail },
  );

/** expireRebate's estimate of the member's UID, by exchange asked (undefined: the UID is not listed). */
const pendingOf = (ctx: TestContext, token: string, uid: string) =>
  call(ctx, '/elex/exchange/expireRebate', { platId: BITGET }, { token }).then((res) => {
    const body = res.json() as { state: number; content: { pending: { uid: string; amount: string }[] } };
    expect(body.state, JSON.stringify(body)).toBe(0);
    return body.content.pending.find((binding) => binding.uid === uid)?.amount;
  });

/** A member signed up through `ctx`, holding a fresh roster UID (registered 100 days ago) bound through `ctx`. */
async function boundMember(ctx: TestContext, uid = nextUid()) {
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
  return { token, uid, userId: await memberOf(ctx, token) };
}

/**
 * An hour of figures of `uid` that ended an hour before the clock, imported through `ctx`: pending
 * (not due for settlement yet), estimated at the UID's rate.
 */
async function importHour(ctx: TestContext, uid: string) {
  const start = new Date(ctx.clock.now().getTime() - 2 * HOUR_MS);
  await ingestRebates(ctx.app.deps, BITGET, [figures(uid, start, { fee: '10', commission: '10' }, 1)], api);
}

for (const cache of ['on', 'off'] as const) {
  describe(`record lists with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    const kept = cache === 'on';

    beforeAll(async () => {
      instances = await openMemberInstances(2, cache === 'on' ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
    });
    afterAll(() => instances.close());

    it('records an import adds through A are in the list and the detail on A at once and on B right after', async () => {
      const { token, uid } = await boundMember(a);
      expect((await list(a, token)).content.total).toBe(0);
      expect((await list(b, token)).content.total).toBe(0);
      const before = (await detail(b, token, uid)).content;
      expect((await detail(a, token, uid)).content).toEqual(before);
      expect(await pendingOf(a, token, uid)).toBe('0.000000');
      expect(await pendingOf(b, token, uid)).toBe('0.000000');
      await importHour(a, uid);
      expect((await list(a, token)).content.total).toBe(1);
      expect((await detail(a, token, uid)).content.pendingRebate).not.toBe(before.pendingRebate);
      const estimated = await pendingOf(a, token, uid);
      expect(estimated).not.toBe('0.000000');
      expect(estimated).toBe((await detail(a, token, uid)).content.pendingRebate);
      expect(
        await eventually(
          () => pendingOf(b, token, uid),
          (amount) => amount === estimated,
        ),
      ).toBe(estimated);
      expect(
        (
          await eventually(
            () => list(b, token),
            (page) => page.content.total === 1,
          )
        ).content.total,
      ).toBe(1);
      const onB = await eventually(
        () => detail(b, token, uid),
        (answer) => answer.content.pendingRebate !== before.pendingRebate,
      );
      expect(onB.content.pendingRebate).not.toBe(before.pendingRebate);
    });

    it('a settlement through A shows the records completed and their balance on A at once and on B right after', async () => {
      const { token, uid } = await boundMember(a);
      await importHour(a, uid);
      expect((await list(a, token)).content.records[0]?.status).toBe('pending');
      expect((await list(b, token)).content.records[0]?.status).toBe('pending');
      const before = (await detail(b, token, uid)).content;
      expect(await pendingOf(a, token, uid)).not.toBe('0.000000');
      expect(await pendingOf(b, token, uid)).not.toBe('0.000000');
      a.clock.advance(DAY_MS);
      await settleRebates(a.app.deps, { platId: BITGET, uid });
      expect(await pendingOf(a, token, uid)).toBe('0.000000');
      expect(
        await eventually(
          () => pendingOf(b, token, uid),
          (amount) => amount === '0.000000',
        ),
      ).toBe('0.000000');
      const afterA = (await list(a, token)).content.records[0]?.status;
      expect(afterA).not.toBe('pending');
      expect((await detail(a, token, uid)).content.balance).not.toBe(before.balance);
      const onB = await eventually(
        () => list(b, token),
        (page) => page.content.records[0]?.status === afterA,
      );
      expect(onB.content.records[0]?.status).toBe(afterA);
      expect(
        (
          await eventually(
            () => detail(b, token, uid),
            (answer) => answer.content.balance !== before.balance,
          )
        ).content.balance,
      ).not.toBe(before.balance);
    });

    it('a binding moved to another member drops the old holder’s list and detail on A at once and on B right after', async () => {
      const { token, uid } = await boundMember(a);
      const other = await boundMember(a);
      await importHour(a, uid);
      expect((await list(a, token)).content.total).toBe(1);
      expect((await list(b, token)).content.total).toBe(1);
      expect((await detail(b, token, uid)).state).toBe(0);
      const estimated = await pendingOf(b, token, uid);
      expect(await pendingOf(a, token, uid)).toBe(estimated);
      expect(estimated).not.toBe('0.000000');
      await a.db.execute(sql`update exchange_bindings set user_id = ${other.userId} where uid = ${uid}`);
      expect(await pendingOf(a, token, uid)).toBeUndefined();
      expect(await pendingOf(a, other.token, uid)).toBe(estimated);
      expect(
        await eventually(
          () => pendingOf(b, token, uid),
          (amount) => amount === undefined,
        ),
      ).toBe(undefined);
      expect((await list(a, token)).content.total).toBe(0);
      expect((await detail(a, token, uid)).state).not.toBe(0);
      expect((await list(a, other.token)).content.total).toBe(1);
      expect(
        (
          await eventually(
            () => list(b, token),
            (page) => page.content.total === 0,
          )
        ).content.total,
      ).toBe(0);
      expect(
        (
          await eventually(
            () => detail(b, token, uid),
            (answer) => answer.state !== 0,
          )
        ).state,
      ).not.toBe(0);
    });

    it('a roster line restated and a dispute opened through A are in the answers on A at once and on B right after', async () => {
      const { token, uid, userId } = await boundMember(a);
      await importHour(a, uid);
      const amount = (await list(b, token)).content.records[0]?.amount;
      expect((await list(a, token)).content.records[0]?.amount).toBe(amount);
      expect(await pendingOf(a, token, uid)).toBe(amount);
      expect(await pendingOf(b, token, uid)).toBe(amount);
      // Registered the day before the record: in the speed-up window, the higher rate.
      await a.db.execute(
        sql`update referrals set registered_at = ${new Date(a.clock.now().getTime() - DAY_MS).toISOString()}::timestamptz
          where uid = ${uid}`,
      );
      const speedUp = (await list(a, token)).content.records[0]?.amount;
      expect(speedUp).not.toBe(amount);
      expect(await pendingOf(a, token, uid)).toBe(speedUp);
      expect(
        (
          await eventually(
            () => list(b, token),
            (page) => page.content.records[0]?.amount !== amount,
          )
        ).content.records[0]?.amount,
      ).not.toBe(amount);
      expect(
        await eventually(
          () => pendingOf(b, token, uid),
          (pending) => pending === speedUp,
        ),
      ).toBe(speedUp);
      expect((await detail(b, token, uid)).content.frozen).toBe(false);
      const claimant = await memberOf(a, await signUp(a));
      const now = a.clock.now().toISOString();
      await a.db.execute(sql`insert into support_requests (user_id, kind, plat_id, uid, status, created_at, updated_at)
        values (${claimant}, 'uidBoundByOther', ${BITGET}, ${uid}, 'open', ${now}::timestamptz, ${now}::timestamptz)`);
      expect((await detail(a, token, uid)).content.frozen).toBe(true);
      expect(
        (
          await eventually(
            () => detail(b, token, uid),
            (answer) => answer.content.frozen,
          )
        ).content.frozen,
      ).toBe(true);
      expect(userId).toBeGreaterThan(0);
    });

    it('new partner rates show in the pending estimate at once on both', async () => {
      const { token, uid } = await boundMember(a);
      await importHour(a, uid);
      const before = await pendingOf(a, token, uid);
      expect(await pendingOf(b, token, uid)).toBe(before);
      const [rates] = await a.db
        .select({ cash: exchanges.cashRateBps, speedUp: exchanges.speedUpCashRateBps })
        .from(exchanges)
        .where(eq(exchanges.id, BITGET));
      if (!rates) throw new Error('no Bitget in the catalog');
      try {
        await updateExchange(a.app.deps, BITGET, { cashRateBps: rates.cash - 1000 });
        const after = await pendingOf(a, token, uid);
        expect(Number(after)).toBeLessThan(Number(before));
        expect(await pendingOf(b, token, uid)).toBe(after);
      } finally {
        await updateExchange(a.app.deps, BITGET, { cashRateBps: rates.cash });
      }
      expect(await pendingOf(a, token, uid)).toBe(before);
    });

    it('an ownership hold shown ends when it passes, with nothing changed in the database', async () => {
      const { token, uid } = await boundMember(a);
      const held = (await detail(a, token, uid)).content.heldUntil;
      expect(held).not.toBeNull();
      const end = Date.parse(held as string);
      // Just before the hold's end, then just after: the same UTC day unless the end is at midnight.
      a.clock.set(new Date(end - 60_000));
      expect((await detail(a, token, uid)).content.heldUntil).toBe(held);
      expect((await detail(b, token, uid)).content.heldUntil).toBe(held);
      a.clock.set(new Date(end + 60_000));
      expect((await detail(a, token, uid)).content.heldUntil).toBeNull();
      expect((await detail(b, token, uid)).content.heldUntil).toBeNull();
    });

    it(
      kept
        ? 'are kept: a change the caches are not told of is not seen'
        : 'are read every time: a change no trigger tells is seen',
      async () => {
        const { token, uid } = await boundMember(a);
        await importHour(a, uid);
        await notificationsSettled();
        const shown = (await list(a, token)).content;
        const shownDetail = (await detail(a, token, uid)).content;
        const shownPending = await pendingOf(a, token, uid);
        expect(shownPending).not.toBe('0.000000');
        await writeUntold(a, 'rebates', 'rebates_notify_updated', (tx) =>
          tx.execute(sql`update rebates set status = 'failed', failure_reason = 'uidNotReferred',
            settled_at = ${a.clock.now().toISOString()}::timestamptz where uid = ${uid} and status = 'pending'`),
        );
        if (kept) {
          expect((await list(a, token)).content).toEqual(shown);
          expect((await detail(a, token, uid)).content).toEqual(shownDetail);
          expect(await pendingOf(a, token, uid)).toBe(shownPending);
        } else {
          expect(await pendingOf(a, token, uid)).toBe('0.000000');
          expect(await pendingOf(b, token, uid)).toBe('0.000000');
          expect((await list(a, token)).content.records[0]?.status).toBe('failed');
          expect((await list(b, token)).content.records[0]?.status).toBe('failed');
          expect((await detail(a, token, uid)).content.pendingRebate).not.toBe(shownDetail.pendingRebate);
        }
      },
    );
  });
}

/**
 * A writer's triggers name the UIDs' holders when its statements run, not at its commit. An import
 * in flight (holding its exchange's ledger lock) when a member binds one of its UIDs would name nobody
 * for it; what the member reads meanwhile is answered but not kept (review, session 38).
 */
describe('answers read while a writer of the member’s exchange is in flight', () => {
  let instances: MemberInstances;
  let a: TestContext;
  let b: TestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(2);
    [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
  });
  afterAll(() => instances.close());

  // Two sessions at once: a second connection holds the import open while the member acts.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'are not kept: the records, balance and withdrawable show at the import’s commit on both instances',
    async () => {
      const uid = nextUid();
      const token = await signUp(a);
      await ingestReferrals(
        a.app.deps,
        BITGET,
        [{ uid, registeredAt: new Date(a.clock.now().getTime() - 100 * DAY_MS) }],
        api,
      );
      // Its own connection, not one of A's pool: a pooled one listens, and would hand A the binding's
      // notification again at its commit.
      const { connectionString } = (a.db as unknown as { $client: pg.Pool }).$client.options;
      const importer = new pg.Client({ connectionString });
      await importer.connect();
      try {
        // What an import does (rebate-import.ts): the exchange's ledger lock, then its records.
        await importer.query('begin');
        await importer.query("select pg_advisory_xact_lock(hashtextextended('cashback|' || $1, 0))", [
          BITGET,
        ]);
        const start = new Date(a.clock.now().getTime() - 2 * HOUR_MS);
        await importer.query(
          `insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
             commission_micro, source, source_label, created_at)
           values ($1, $2, $3, $4, 1000000000, 10000000, 10000000, 'api', 'test', now())`,
          [BITGET, uid, start.toISOString(), new Date(start.getTime() + HOUR_MS).toISOString()],
        );
        const bound = await call(
          a,
          '/elex/user/bindExchangeUid',
          { platId: BITGET, uid, address: ADDRESS },
          { token },
        );
        expect(bound.json()).toMatchObject({ state: 0 });
        // Or the binding's late second notification drops what is read next and hides the race.
        await notificationsSettled();
        expect((await list(a, token)).content.total).toBe(0);
        expect((await detail(a, token, uid)).content.pendingRebate).toBe('0.000000');
        await importer.query('commit');
      } finally {
        await importer.end();
      }
      // Read on A right after the commit: nothing was kept, so nothing waits for a notification.
      expect((await list(a, token)).content.total).toBe(1);
      expect((await detail(a, token, uid)).content.pendingRebate).not.toBe('0.000000');
      expect((await list(b, token)).content.total).toBe(1);
    },
  );

  // Two sessions at once. A short writer holds no ledger lock (an operator's correction of a cashback
  // account, a dispute, a restated roster line): its statements run before the member binds the UID,
  // naming no holder; its commit names the UID (migration 0055), which drops every answer covering it.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a correction, a dispute and a roster line written before a member binds the UID, committed after the member read, show on both instances',
    async () => {
      const uid = nextUid();
      const token = await signUp(a);
      await ingestReferrals(
        a.app.deps,
        BITGET,
        [{ uid, registeredAt: new Date(a.clock.now().getTime() - 100 * DAY_MS) }],
        api,
      );
      // A pending record of the UID, and its cashback and the adjustments accounts (an earlier correction).
      await importHour(a, uid);
      await a.db.transaction((tx) =>
        postJournal(tx, {
          kind: 'correction',
          key: `member-lists:uid:${uid}:first`,
          at: a.clock.now(),
          lines: [
            { account: accountCode.cashback(BITGET, uid), amount: 1_000_000n },
            { account: accountCode.adjustments, amount: -1_000_000n },
          ],
        }),
      );
      // Its own connection, not one of A's pool: a pooled one listens, and would hand A the binding's
      // notification again at its commit.
      const { connectionString } = (a.db as unknown as { $client: pg.Pool }).$client.options;
      const writer = new pg.Client({ connectionString });
      await writer.connect();
      const claimant = await memberOf(a, await signUp(a));
      const now = a.clock.now().toISOString();
      try {
        await writer.query('begin');
        // An operator's correction of the UID's cashback: 5 USDT more (no exchange's ledger lock).
        await writer.query(
          `with journal as (
             insert into ledger_journals (kind, idempotency_key, memo, created_at)
             values ('correction', $1, null, now()) returning id)
           insert into ledger_lines (journal_id, account_id, amount)
           select journal.id, a.id, case when a.code = $2 then 5000000 else -5000000 end
           from journal, ledger_accounts a where a.code in ($2, 'adjustments')`,
          [`member-lists:uid:${uid}:second`, accountCode.cashback(BITGET, uid)],
        );
        // Another member's dispute of the UID, and the roster line restated (the speed-up window).
        await writer.query(
          `insert into support_requests (user_id, kind, plat_id, uid, status, created_at, updated_at)
           values ($1, 'uidBoundByOther', $2, $3, 'open', $4::timestamptz, $4::timestamptz)`,
          [claimant, BITGET, uid, now],
        );
        await writer.query('update referrals set registered_at = $1::timestamptz where uid = $2', [
          new Date(a.clock.now().getTime() - DAY_MS).toISOString(),
          uid,
        ]);
        const bound = await call(
          a,
          '/elex/user/bindExchangeUid',
          { platId: BITGET, uid, address: ADDRESS },
          { token },
        );
        expect(bound.json()).toMatchObject({ state: 0 });
        // Or the binding's late second notification drops what is read next and hides the race.
        await notificationsSettled();
        for (const ctx of [a, b]) {
          expect((await myInfoOf(ctx, token)).exchangeBinds[0]?.balance).toBe('1.000000');
          expect((await detail(ctx, token, uid)).content).toMatchObject({
            balance: '1.000000',
            frozen: false,
          });
        }
        const amount = (await list(a, token)).content.records[0]?.amount;
        expect((await list(b, token)).content.records[0]?.amount).toBe(amount);
        // Kept: read again, the same (nothing in flight holds the exchange's ledger lock).
        expect((await list(a, token)).content.records[0]?.amount).toBe(amount);
        await writer.query('commit');
        for (const ctx of [a, b]) {
          const info = await eventually(
            () => myInfoOf(ctx, token),
            (answer) => answer.exchangeBinds[0]?.balance === '6.000000',
          );
          expect(info.exchangeBinds[0]?.balance).toBe('6.000000');
          const shown = await eventually(
            () => detail(ctx, token, uid),
            (answer) => answer.content.frozen,
          );
          expect(shown.content).toMatchObject({ balance: '6.000000', frozen: true });
          const page = await eventually(
            () => list(ctx, token),
            (answer) => answer.content.records[0]?.amount !== amount,
          );
          expect(page.content.records[0]?.amount).not.toBe(amount);
        }
      } finally {
        await writer.query('rollback').catch(() => {});
        await writer.end();
      }
    },
  );

  it('with no writer in flight, they are kept (a change no trigger tells stays unseen)', async () => {
    const { token, uid } = await boundMember(a);
    await importHour(a, uid);
    await notificationsSettled();
    const shown = (await list(a, token)).content;
    await writeUntold(a, 'rebates', 'rebates_notify_updated', (tx) =>
      tx.execute(sql`update rebates set status = 'failed', failure_reason = 'uidNotReferred',
        settled_at = ${a.clock.now().toISOString()}::timestamptz where uid = ${uid} and status = 'pending'`),
    );
    expect((await list(a, token)).content).toEqual(shown);
  });

  // A second database on the same server: its advisory keys are not this database's.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a writer of the same exchange in another database on the server does not stop keeping',
    async () => {
      const { token, uid } = await boundMember(a);
      const elsewhere = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await elsewhere.connect();
      try {
        await elsewhere.query('begin');
        await elsewhere.query("select pg_advisory_xact_lock(hashtextextended('cashback|' || $1, 0))", [
          BITGET,
        ]);
        await importHour(a, uid);
        await notificationsSettled();
        const shown = (await list(a, token)).content;
        await writeUntold(a, 'rebates', 'rebates_notify_updated', (tx) =>
          tx.execute(sql`update rebates set status = 'failed', failure_reason = 'uidNotReferred',
            settled_at = ${a.clock.now().toISOString()}::timestamptz where uid = ${uid} and status = 'pending'`),
        );
        expect((await list(a, token)).content).toEqual(shown);
      } finally {
        await elsewhere.query('rollback');
        await elsewhere.end();
      }
    },
  );

  it('an operator’s kept:rebuild drops every kept list on every instance (the kept totals notify no one)', async () => {
    const { token, uid } = await boundMember(a);
    await importHour(a, uid);
    // A kept total gone wrong (what ledger:check would name), shown and kept, then the operator's repair.
    await a.db.execute(sql`update rebate_uid_totals set records = records + 5 where uid = ${uid}`);
    expect((await list(b, token)).content.total).toBe(6);
    await a.db.transaction((tx) => rebuildKeptFigures(tx));
    const after = await eventually(
      () => list(b, token),
      (answer) => answer.content.total === 1 && answer.content.records.length === 1,
    );
    expect(after.content.total).toBe(1);
  });
});
