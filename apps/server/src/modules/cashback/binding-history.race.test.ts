import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { PASSWORD } from '../auth/test-support.js';
import { ADDRESS, fundedMember, registerMember, type TestMember } from '../withdrawals/test-support.js';
import { checkAllInvariants } from './cashback.check.js';
import type { CashbackTestContext } from './test-support.js';

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
});
