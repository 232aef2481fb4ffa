import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { rowsOf } from '../../db/rows.js';
import { deferred } from '../../test/deferred.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { listAudit } from '../admin/audit.service.js';
import { type Caller, newOperator } from '../admin/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { fundedMember, moneyOf, usdt } from '../withdrawals/test-support.js';

/**
 * Approvals racing: on PGlite one app (one process by construction); on PostgreSQL
 * (TEST_DATABASE_URL) TWO app instances, each with its own connection pool, on one database.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let ctx: CashbackTestContext;
let apps: App[];
let race: RaceApps;
let proposer: Caller;
let approvers: Caller[];

beforeAll(async () => {
  race = await openRaceApps();
  ({ ctx, apps } = race);
  proposer = await newOperator(ctx);
  approvers = [await newOperator(ctx), await newOperator(ctx)];
});

afterAll(() => race?.close());

/** A console call on the n-th instance (they alternate). */
function consoleCall(n: number, operator: Caller, path: string, payload: object) {
  return (apps[n % apps.length] as App)
    .inject({
      method: 'POST',
      url: `/elex/admin/corrections/${path}`,
      headers: { 'content-type': 'application/json', token: operator.token },
      payload,
    })
    .then((res) => res.json() as { state: number; message: string; content: { id: number } | null });
}

describe(`corrections racing (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('two operators approving at once post the correction once: one success, one “already decided”', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    for (let round = 0; round < 10; round += 1) {
      const proposed = await consoleCall(round, proposer, 'propose', {
        userId: member.userId,
        account: 'cashback',
        platId: member.platId,
        uid: member.uid,
        amount: '101',
        reason: `round ${round}`,
      });
      const id = proposed.content?.id as number;
      const answers = await Promise.all(
        approvers.map((operator, n) => consoleCall(round + n, operator, 'approve', { id })),
      );
      expect(answers.map((answer) => answer.state).sort()).toEqual([0, State.Refused].sort());
      expect(answers.find((answer) => answer.state !== 0)?.message).toBe(
        'This correction has already been decided',
      );
      const journals = rowsOf<{ id: string }>(
        await ctx.db.execute(
          sql`select id from ledger_journals where idempotency_key = ${`correction:${id}`}`,
        ),
      );
      expect(journals).toHaveLength(1);
      const audit = await listAudit(ctx.db, { target: `correction:${id}`, page: 1, pageSize: 10 });
      expect(audit.rows.map((entry) => entry.action).sort()).toEqual(
        ['correction.approve', 'correction.post', 'correction.propose'].sort(),
      );
    }
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('10') + 10n * usdt('101'));
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('an approval and a rejection racing: exactly one wins, every time', async () => {
    const member = await fundedMember(ctx, { cashback: '10' });
    let posted = 0n;
    for (let round = 0; round < 10; round += 1) {
      const proposed = await consoleCall(round, proposer, 'propose', {
        userId: member.userId,
        account: 'rewards',
        amount: '200',
        reason: `round ${round}`,
      });
      const id = proposed.content?.id as number;
      const [approved, rejected] = await Promise.all([
        consoleCall(round, approvers[0] as Caller, 'approve', { id }),
        consoleCall(round + 1, approvers[1] as Caller, 'reject', { id, reason: 'racing' }),
      ]);
      expect([approved.state, rejected.state].filter((state) => state === 0)).toHaveLength(1);
      if (approved.state === 0) posted += usdt('200');
    }
    expect((await moneyOf(ctx, member)).rewards).toBe(posted);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  // PGlite is one connection: nothing there can hold a lock while a request waits for it.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'an approval waits for the account a withdrawal holds, holding nothing the withdrawal needs next',
    async () => {
      const member = await fundedMember(ctx, { cashback: '30' });
      const proposed = await consoleCall(0, proposer, 'propose', {
        userId: member.userId,
        account: 'cashback',
        platId: member.platId,
        uid: member.uid,
        amount: '101',
        reason: 'lock order',
      });
      const id = proposed.content?.id as number;
      // What a withdrawal request does in its transaction: the UID's account first, then the member's
      // row FOR SHARE (its password-change lock). A deletion takes the same order.
      const holding = deferred();
      const withdrawal = (apps.at(-1) as App).deps.db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '4s'`);
        await tx.execute(
          sql`select id from ledger_accounts where code = ${`cashback:${member.platId}:${member.uid}`} for update`,
        );
        holding.resolve();
        await new Promise((resolve) => setTimeout(resolve, 400));
        await tx.execute(sql`select id from users where id = ${member.userId} for share`);
      });
      await holding.promise;
      const approving = consoleCall(0, approvers[0] as Caller, 'approve', { id });
      // The member's row was free while the approval waited: the withdrawal went through, then the approval.
      await expect(withdrawal).resolves.toBeUndefined();
      expect(await approving).toMatchObject({ state: 0 });
      expect((await moneyOf(ctx, member)).cashback).toBe(usdt('131'));
    },
  );
});
