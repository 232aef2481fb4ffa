import { randomUUID } from 'node:crypto';
import { CodeModule, State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { buildApp } from '../../app.js';
import { rowsOf } from '../../db/rows.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { type Caller, newOperator } from '../admin/test-support.js';
import { PASSWORD } from '../auth/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { accountCode, balancesOf } from '../ledger/ledger.service.js';
import {
  ADDRESS,
  fundedMember,
  OTHER_ADDRESS,
  openDispute,
  registerMember,
  type TestMember,
  usdt,
} from '../withdrawals/test-support.js';

// As in withdrawals.race.test.ts: every withdrawal code (module 3) is accepted and never used up, so
// the requests really race and only the locks stand between them and paying frozen money.
const ACCEPTED_CODE_ID = -1;
vi.mock('../auth/codes.service.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../auth/codes.service.js')>();
  return {
    ...actual,
    checkCode: async (...args: Parameters<typeof actual.checkCode>) =>
      args[1].module === CodeModule.OwnAddress ? ACCEPTED_CODE_ID : actual.checkCode(...args),
    useCode: async (...args: Parameters<typeof actual.useCode>) =>
      args[2] === ACCEPTED_CODE_ID ? true : actual.useCode(...args),
  };
});

// A request is created after the route checked the session and the exchange was looked up: the gate
// runs something (the member's deletion) in that moment, on PGlite and PostgreSQL alike.
const gate = vi.hoisted(() => ({ beforePartners: null as null | (() => Promise<void>) }));
vi.mock('../cashback/partners.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../cashback/partners.js')>();
  return {
    ...actual,
    loadPartners: async (...args: Parameters<typeof actual.loadPartners>) => {
      const hook = gate.beforePartners;
      gate.beforePartners = null;
      if (hook) await hook();
      return actual.loadPartners(...args);
    },
  };
});

/**
 * Issue 11: "a dispute, a withdrawal and a second binding of the same UID at once never pay frozen
 * money". On PGlite one app; on PostgreSQL (TEST_DATABASE_URL) two app instances on one database.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let ctx: CashbackTestContext;
let apps: App[];
let operator: Caller;
let race: RaceApps;

beforeAll(async () => {
  race = await openRaceApps();
  ({ ctx, apps } = race);
  operator = await newOperator(ctx);
});

afterAll(() => race?.close());

const appFor = (n: number) => apps[n % apps.length] as App;

function post(n: number, url: string, token: string, payload: object) {
  return appFor(n)
    .inject({ method: 'POST', url, headers: { 'content-type': 'application/json', token }, payload })
    .then((res) => res.json() as { state: number; message: string; content: { id?: string } | null });
}

const apply = (n: number, member: TestMember, amount: string) =>
  post(n, '/elex/user/applyDeposit', member.token, {
    requestId: randomUUID(),
    platId: member.platId,
    uid: member.uid,
    address: ADDRESS,
    amount,
    authCode: '123456',
  });

async function cashbackLeft(platId: number, uid: string): Promise<bigint> {
  const code = accountCode.cashback(platId, uid);
  return (await balancesOf(ctx.db, [code])).get(code) ?? 0n;
}

describe(`a dispute racing withdrawals and a second binding (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('never pays frozen money, and the owner gets exactly what was left', async () => {
    for (let round = 0; round < 3; round += 1) {
      const squatter = await fundedMember(ctx, { cashback: '500', confirmedBy: operator.userId });
      const owner = await registerMember(ctx);
      const third = await registerMember(ctx);
      // Two withdrawals asked before, waiting for the operator.
      const before = [await apply(0, squatter, '50'), await apply(1, squatter, '50')];
      expect(before.map((answer) => answer.state)).toEqual([0, 0]);

      const disputeCall = post(round, '/elex/support/create', owner.token, {
        kind: 'uidBoundByOther',
        platId: squatter.platId,
        uid: squatter.uid,
        address: OTHER_ADDRESS,
        text: `round ${round}: this UID is mine`,
      });
      const requests = Array.from({ length: 8 }, (_, n) => apply(n + round, squatter, '50'));
      const approvals = before.map((answer, n) =>
        post(n + round + 1, '/elex/admin/approveWithdrawal', operator.token, {
          id: answer.content?.id,
          txHash: `0x${(round * 10 + n + 1).toString(16).padStart(64, 'd')}`,
        }),
      );
      const secondBinding = post(round + 1, '/elex/user/bindExchangeUid', third.token, {
        platId: squatter.platId,
        uid: squatter.uid,
        address: ADDRESS,
      });
      const [disputed, bound, ...rest] = await Promise.all([
        disputeCall,
        secondBinding,
        ...approvals,
        ...requests,
      ]);
      expect(disputed.state).toBe(0);
      expect(bound).toMatchObject({ state: State.Refused, content: { messageKey: 'uidAlreadyBound' } });
      for (const answer of rest) expect([0, State.Refused]).toContain(answer.state);
      // What was paid was paid before the dispute froze the UID (the approvals that won the lock).
      const paidInRace = rest.slice(0, 2).filter((answer) => answer.state === 0).length;

      // From now on nothing of the UID is paid: every withdrawal under review is refused approval.
      const pendingIds = rowsOf<{ id: string | number }>(
        await ctx.db.execute(
          sql`select id from withdrawals where plat_id = ${squatter.platId} and uid = ${squatter.uid} and status = 'pending' order by id`,
        ),
      ).map((row) => String(row.id));
      for (const [n, id] of pendingIds.entries()) {
        const approved = await post(n, '/elex/admin/approveWithdrawal', operator.token, {
          id,
          txHash: `0x${(round * 100 + n + 50).toString(16).padStart(64, 'e')}`,
        });
        expect(approved).toMatchObject({
          state: State.Refused,
          message: expect.stringContaining('under dispute'),
        });
        expect(
          (await post(n, '/elex/admin/rejectWithdrawal', operator.token, { id, reason: 'UID under dispute' }))
            .state,
        ).toBe(0);
      }
      // The operator moves the UID: the owner gets every USDT that was not paid before the freeze.
      const list = await post(0, '/elex/admin/support/list', operator.token, {
        status: 'active',
        kind: 'uidBoundByOther',
      });
      const request = (list.content as unknown as { rows: Array<{ id: string; uid: string }> }).rows.find(
        (row) => row.uid === squatter.uid,
      );
      expect(
        (await post(1, '/elex/admin/support/moveBinding', operator.token, { id: request?.id })).state,
      ).toBe(0);
      expect(await cashbackLeft(squatter.platId, squatter.uid)).toBe(
        usdt('500') - usdt('50') * BigInt(paidInRace),
      );
      const ownerView = await post(0, '/elex/user/withdrawable', owner.token, {});
      expect(ownerView.content).toMatchObject({
        bindings: [{ uid: squatter.uid, frozen: false, heldUntil: null }],
      });
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});

describe(`two operators deciding two disputes of one UID at once (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('never confirms a holder the confirming dispute was not about', async () => {
    const second = await newOperator(ctx);

    for (let round = 0; round < 6; round += 1) {
      const holder = await fundedMember(ctx, { cashback: '80', confirmedBy: operator.userId });
      const [disputed] = rowsOf<{ id: string }>(
        await ctx.db.execute(
          sql`select id from exchange_bindings where uid = ${holder.uid} and unbound_at is null`,
        ),
      );
      const confirming = await openDispute(ctx, await registerMember(ctx), holder);
      const moving = await openDispute(ctx, await registerMember(ctx), holder);
      const [verified, moved] = await Promise.all([
        post(round, '/elex/admin/support/verifyOwnership', second.token, { id: confirming.content.id }),
        post(round + 1, '/elex/admin/support/moveBinding', operator.token, { id: moving.content.id }),
      ]);
      // The move always lands; the confirmation either came first (of the disputed binding) or is refused.
      expect(moved.state).toBe(0);
      if (verified.state === 0) {
        const [audit] = rowsOf<{ after: { bindingId: number } }>(
          await ctx.db.execute(
            sql`select after from audit_log where target = ${`support:${confirming.content.id}`}
              and action = 'support.verifyOwnership'`,
          ),
        );
        expect(String(audit?.after.bindingId)).toBe(String(disputed?.id));
      } else {
        expect(verified).toMatchObject({
          state: State.Refused,
          message: expect.stringContaining('changed hands'),
        });
      }
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});

describe(`a claimant deleting the account while an operator moves the UID to them (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('never leaves the UID or its money with a deleted account', async () => {
    for (let round = 0; round < 6; round += 1) {
      const holder = await fundedMember(ctx, { cashback: '120', confirmedBy: operator.userId });
      const claimant = await registerMember(ctx);
      const opened = await openDispute(ctx, claimant, holder);
      const [deleted, moved] = await Promise.all([
        post(round, '/elex/user/deleteAccount', claimant.token, { passwd: PASSWORD, forfeitTotal: '0' }),
        post(round + 1, '/elex/admin/support/moveBinding', operator.token, { id: opened.content.id }),
      ]);
      const [live] = rowsOf<{ user_id: string; deleted_at: string | null }>(
        await ctx.db.execute(sql`select b.user_id, u.deleted_at from exchange_bindings b
          join users u on u.id = b.user_id where b.uid = ${holder.uid} and b.unbound_at is null`),
      );
      // One of them went first: moved to a claimant who then could not delete without seeing the sum,
      // or deleted (the request closed with it) and nothing moved.
      expect([deleted.state, moved.state].filter((state) => state === 0)).toHaveLength(1);
      expect(live?.deleted_at ?? null).toBeNull();
      expect(String(live?.user_id)).toBe(String(moved.state === 0 ? claimant.userId : holder.userId));
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});

describe(`a member opening a request while deleting the account (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  const openRequestsOf = async (userId: number) =>
    rowsOf<{ id: string }>(
      await ctx.db.execute(
        sql`select id from support_requests where user_id = ${userId} and status <> 'closed'`,
      ),
    );

  it('leaves no open request of the deleted account: a dispute that slipped past the session check is refused', async () => {
    const holder = await fundedMember(ctx, { cashback: '30', confirmedBy: operator.userId });
    const claimant = await registerMember(ctx);
    // The session was checked; the deletion (closing the member's open requests) commits before the insert.
    gate.beforePartners = async () => {
      expect(
        await post(1, '/elex/user/deleteAccount', claimant.token, { passwd: PASSWORD, forfeitTotal: '0' }),
      ).toMatchObject({ state: 0 });
    };
    const opened = await openDispute(ctx, claimant, holder);
    expect(gate.beforePartners).toBeNull();
    expect(opened).toMatchObject({ state: State.SessionExpired });
    expect(await openRequestsOf(claimant.userId)).toEqual([]);
    const view = await post(0, '/elex/user/withdrawable', holder.token, {});
    expect(view.content).toMatchObject({ bindings: [{ uid: holder.uid, frozen: false }] });
  });

  it('at the same moment, on any instance: the request is closed with the deletion or refused', async () => {
    for (let round = 0; round < 6; round += 1) {
      const holder = await fundedMember(ctx, { cashback: '30', confirmedBy: operator.userId });
      const claimant = await registerMember(ctx);
      const [deleted, opened] = await Promise.all([
        post(round, '/elex/user/deleteAccount', claimant.token, { passwd: PASSWORD, forfeitTotal: '0' }),
        post(round + 1, '/elex/support/create', claimant.token, {
          kind: 'uidBoundByOther',
          platId: holder.platId,
          uid: holder.uid,
          address: OTHER_ADDRESS,
          text: `round ${round}: this UID is mine`,
        }),
      ]);
      expect(deleted.state).toBe(0);
      expect([0, State.SessionExpired]).toContain(opened.state);
      expect(await openRequestsOf(claimant.userId)).toEqual([]);
    }
  });
});
