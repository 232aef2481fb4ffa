import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { deferred } from '../../test/deferred.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { PASSWORD } from '../auth/test-support.js';
import { ADDRESS, fundedMember, registerMember, type TestMember } from '../withdrawals/test-support.js';
import { checkAllInvariants } from './cashback.check.js';
import { lockExchangeLedger } from './cashback.repository.js';
import { ingestRebates } from './ingest.service.js';
import { type CashbackTestContext, DAY_MS, figures } from './test-support.js';

/**
 * Where a new holder's view of a UID starts (the previous holder's account deletion) when the deletion
 * and what follows it run on different app instances or overlap (found in review, 2026-11-29). On
 * PostgreSQL two instances on one database; the second's host clock runs a second behind the first's.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
const BEHIND_MS = 1_000;
let race: RaceApps;
let ctx: CashbackTestContext;
let apps: App[];
beforeAll(async () => {
  race = await openRaceApps({ secondBehindMs: BEHIND_MS });
  ({ ctx, apps } = race);
});
afterAll(() => race?.close());

async function post(app: App, member: Pick<TestMember, 'token'>, url: string, body: object = {}) {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { 'content-type': 'application/json', token: member.token },
  });
  return res.json();
}

/** What the member sees of their one UID: myInfo, the records, the UID page, the trade tasks. */
async function views(member: Pick<TestMember, 'token'>, platId: number, uid: string) {
  const app = ctx.app;
  const info = await post(app, member, '/elex/user/myInfo');
  const records = await post(app, member, '/elex/user/seeRebateData', { page: 1, pageSize: 100 });
  const detail = await post(app, member, '/elex/user/seeRebateByExchangeId', { platId, uid });
  const tasks = await post(app, member, '/elex/exchange/getExchangeTaskDetail');
  return {
    balance: info.content.exchangeBinds[0]?.balance,
    totalRebate: info.content.totalRebate,
    records: records.content.total,
    detailTotal: detail.content.totalRebate,
    days: detail.content.daily.length,
    volume: tasks.content.tradingVolume,
  };
}

const deleteAccount = (member: TestMember, forfeitTotal: string) =>
  post(ctx.app, member, '/elex/user/deleteAccount', { passwd: PASSWORD, forfeitTotal });

describe(`a UID bound again right after its holder deleted the account (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('on an instance whose clock is behind: the new holder still sees none of the deleted holder’s history', async () => {
    const first = await fundedMember(ctx, { cashback: '75' });
    expect(await deleteAccount(first, '75')).toMatchObject({ state: 0 });
    ctx.clock.advance(200);
    const next = { ...(await registerMember(ctx)), platId: first.platId, uid: first.uid };
    // The bind lands on the second instance, whose clock reads 800 ms before the deletion. PGlite runs
    // one instance: its clock steps back as far (a host clock set back).
    const binder = apps[1] ?? ctx.app;
    if (!apps[1]) ctx.clock.advance(-BEHIND_MS);
    const bound = await post(binder, next, '/elex/user/bindExchangeUid', {
      platId: next.platId,
      uid: next.uid,
      address: ADDRESS,
    });
    if (!apps[1]) ctx.clock.advance(BEHIND_MS);
    expect(bound).toMatchObject({ state: 0 });
    expect(await views(next, next.platId, next.uid)).toEqual({
      balance: '0.000000',
      totalRebate: '0.000000',
      records: 0,
      detailTotal: '0.000000',
      days: 0,
      volume: '0.000000',
    });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  // PGlite is one connection: nothing there can hold the exchange's lock while the deletion runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a settlement that started before the deletion and credits after it: the next holder sees the record and total that explain the balance',
    async () => {
      const first = await fundedMember(ctx, { cashback: '0' });
      // A long import of the exchange holds its ledger lock; a sync that settles this UID's hour
      // started before the deletion (its clock read) and waits behind it.
      const held = deferred();
      const release = deferred();
      const importing = ctx.db.transaction(async (tx) => {
        await lockExchangeLedger(tx, first.platId);
        held.resolve();
        await release.promise;
      });
      await held.promise;
      const settling = ingestRebates(
        (apps[1] ?? ctx.app).deps,
        first.platId,
        // An hour three days back: settled (past the delay) and on the UID page's chart.
        [
          figures(
            first.uid,
            new Date(ctx.clock.now().getTime() - 3 * DAY_MS),
            { fee: '100', commission: '10' },
            1,
          ),
        ],
        { kind: 'api', label: 'sync' },
      );
      for (let tries = 0; ; tries += 1) {
        const waiting = await ctx.db.execute(
          sql`select 1 from pg_locks where locktype = 'advisory' and not granted`,
        );
        if ((waiting as unknown as { rows: unknown[] }).rows.length > 0) break;
        if (tries > 200) throw new Error('the sync never waited for the import');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      ctx.clock.advance(60 * 60 * 1000);
      // The holder had nothing to forfeit and leaves while the sync waits.
      expect(await deleteAccount(first, '0')).toMatchObject({ state: 0 });
      release.resolve();
      await importing;
      expect((await settling).settlement).toMatchObject({ completed: 1, creditedMicro: 10_000_000n });

      ctx.clock.advance(60 * 60 * 1000);
      const next = { ...(await registerMember(ctx)), platId: first.platId, uid: first.uid };
      expect(
        await post(ctx.app, next, '/elex/user/bindExchangeUid', {
          platId: next.platId,
          uid: next.uid,
          address: ADDRESS,
        }),
      ).toMatchObject({ state: 0 });
      // Settled after the deletion, so the UID's (docs: the next holder's); and what explains it shows.
      expect(await views(next, next.platId, next.uid)).toMatchObject({
        balance: '10.000000',
        totalRebate: '10.000000',
        records: 1,
        detailTotal: '10.000000',
        days: 1,
      });
      expect(await checkAllInvariants(ctx.db)).toEqual([]);
    },
  );
});
