import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { runMigrationAgain } from '../../test/migrations-before.js';
import { runCommandAs } from '../../test/ops-command.js';
import { call, PASSWORD } from '../auth/test-support.js';
import { ADDRESS, fundedMember, registerMember, type TestMember } from '../withdrawals/test-support.js';
import { ledgerCheck } from './cashback.commands.js';
import { type CashbackTestContext, createCashbackTestApp } from './test-support.js';

/**
 * A UID's bindings stored overlapping before bindings were made never to (2026-11-29): what the next
 * holder saw, what `ledger:check` says of it, and what migration 0044's repair leaves (docs/ledger.md,
 * "Invariants", 9).
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

async function ledgerCheckOutput() {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommandAs(ledgerCheck, ctx.deps, [], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** What the member sees of their one UID: myInfo, the records, the UID page, the trade tasks. */
async function views(member: Pick<TestMember, 'token' | 'platId' | 'uid'>) {
  const ask = async (url: string, body: object = {}) =>
    (await call(ctx, url, body, { token: member.token })).json().content;
  const info = await ask('/elex/user/myInfo');
  const records = await ask('/elex/user/seeRebateData', { page: 1, pageSize: 100 });
  const detail = await ask('/elex/user/seeRebateByExchangeId', { platId: member.platId, uid: member.uid });
  const tasks = await ask('/elex/exchange/getExchangeTaskDetail');
  return {
    totalRebate: info.totalRebate,
    records: records.total,
    detailTotal: detail.totalRebate,
    volume: tasks.tradingVolume,
  };
}

const NOTHING = { totalRebate: '0.000000', records: 0, detailTotal: '0.000000', volume: '0.000000' };

/** The member deletes their account, forfeiting this balance; the call must succeed. */
async function deleteAccount(member: Pick<TestMember, 'token'>, forfeitTotal: string) {
  const answer = await call(
    ctx,
    '/elex/user/deleteAccount',
    { passwd: PASSWORD, forfeitTotal },
    { token: member.token },
  );
  expect(answer.json()).toMatchObject({ state: 0 });
}

/** The member binds their UID (the previous holder's); the call must succeed. */
async function bindUid(member: Pick<TestMember, 'token' | 'platId' | 'uid'>) {
  const answer = await call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: member.platId, uid: member.uid, address: ADDRESS },
    { token: member.token },
  );
  expect(answer.json()).toMatchObject({ state: 0 });
}

describe('bindings of one UID that overlap in time', () => {
  it('ledger:check holds while none do, names one that starts before the previous holder’s ended, and holds again once the migration’s repair ran', async () => {
    const first = await fundedMember(ctx, { cashback: '75' });
    ctx.clock.advance(60_000);
    await deleteAccount(first, '75');
    ctx.clock.advance(200);
    const next = { ...(await registerMember(ctx)), platId: first.platId, uid: first.uid };
    await bindUid(next);
    expect(await views(next)).toEqual(NOTHING);
    const sound = await ledgerCheckOutput();
    expect(sound).toMatchObject({ code: 0, err: '' });
    expect(sound.out).toMatch(/^Ledger OK/);

    // As a bind stored it before 2026-11-29 on an instance whose clock ran a second behind: 800 ms
    // before the deletion ended. The next holder saw the deleted holder's history.
    const [binding] = rowsOf<{ id: string; bound_at: string }>(
      await ctx.db.execute(sql`
        update exchange_bindings set bound_at = bound_at - interval '1 second'
        where plat_id = ${next.platId} and uid = ${next.uid} and unbound_at is null
        returning id, to_char(bound_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as bound_at`),
    );
    expect(await views(next)).toEqual({
      totalRebate: '75.000000',
      records: 1,
      detailTotal: '75.000000',
      volume: '1000.000000',
    });
    const broken = await ledgerCheckOutput();
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('Ledger check failed: 1 invariant(s) broken.');
    expect(broken.err).toContain(
      "one UID's bindings never overlap in time: none starts before an earlier binding of the UID ended " +
        '(or while it is live), none ends before it starts: 1 found: ' +
        `UID ${next.platId}:${next.uid} binding ${binding?.id} (member ${next.userId}) starts ${binding?.bound_at}, ` +
        'before an earlier binding ended ',
    );

    await runMigrationAgain(ctx.db, 'binding_overlaps');
    expect(await views(next)).toEqual(NOTHING);
    expect((await ledgerCheckOutput()).code).toBe(0);
  });

  it('a deletion on an instance whose clock is behind the bind never ends the binding before it began', async () => {
    const holder = await fundedMember(ctx, { cashback: '20' });
    // The deletion's instance runs five seconds behind the one that stored the bind.
    ctx.clock.advance(-5_000);
    await deleteAccount(holder, '20');
    const [ended] = rowsOf<{ ends_before_start: boolean }>(
      await ctx.db.execute(sql`
        select unbound_at < bound_at as ends_before_start from exchange_bindings
        where plat_id = ${holder.platId} and uid = ${holder.uid} and user_id = ${holder.userId}`),
    );
    expect(ended).toEqual({ ends_before_start: false });
    ctx.clock.advance(5_200);
    const next = { ...(await registerMember(ctx)), platId: holder.platId, uid: holder.uid };
    await bindUid(next);
    expect(await views(next)).toEqual(NOTHING);
    expect(await ledgerCheckOutput()).toMatchObject({ code: 0, err: '' });
  });
});
