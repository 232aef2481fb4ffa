import { randomUUID } from 'node:crypto';
import { CodeModule, State } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { buildApp } from '../../app.js';
import type { AppDeps } from '../../deps.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { listAudit } from '../admin/audit.service.js';
import { newOperator } from '../admin/test-support.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import type { CashbackTestContext } from '../cashback/test-support.js';
import { ADDRESS, fundedMember, moneyOf, type TestMember, usdt } from './test-support.js';
import { checkWithdrawalInvariants } from './withdrawals.check.js';
import { approveWithdrawal, rejectWithdrawal } from './withdrawals.decisions.js';

// The e-mail code serialises a member's requests by itself (one code, one request: withdrawals.test.ts).
// Here every withdrawal code (module 3) is accepted and never used up, so the requests really race and
// only the ledger's row locks stand between them and an overdraft. The codes module is mocked, the
// lowest layer that decides whether a code is good, so every caller above it sees the same answer.
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

/**
 * Withdrawals racing: on PGlite one app (one process by construction); on PostgreSQL
 * (TEST_DATABASE_URL) TWO app instances, each with its own connection pool, on one database.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let ctx: CashbackTestContext;
let apps: App[];
let race: RaceApps;

beforeAll(async () => {
  race = await openRaceApps();
  ({ ctx, apps } = race);
});

afterAll(() => race?.close());

/** The app that takes the n-th request: they alternate between the instances. */
const appFor = (n: number) => apps[n % apps.length] as App;
const depsFor = (n: number): AppDeps => appFor(n).deps;

function apply(n: number, member: TestMember, amount: string, requestId = randomUUID()) {
  return appFor(n)
    .inject({
      method: 'POST',
      url: '/elex/user/applyDeposit',
      headers: { 'content-type': 'application/json', token: member.token },
      payload: {
        requestId,
        platId: member.platId,
        uid: member.uid,
        address: ADDRESS,
        amount,
        authCode: '123456',
      },
    })
    .then((res) => res.json() as { state: number; message: string; content: { id: string } | null });
}

async function everyInvariantHolds() {
  expect(await checkAllInvariants(ctx.db)).toEqual([]);
  expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
}

describe(`withdrawals racing (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('fifty concurrent requests never take more than the balance, and refuse only what did not fit', async () => {
    const member = await fundedMember(ctx, { cashback: '700', rewards: '300' });
    // 50.00 ... 99.00 USDT: about 1,000 USDT of them can be paid.
    const amounts = Array.from(
      { length: 50 },
      (_, n) => `${50 + n}.${String((n * 37) % 100).padStart(2, '0')}`,
    );
    const answers = await Promise.all(amounts.map((amount, n) => apply(n, member, amount)));

    expect(answers.filter((answer) => answer.state !== 0 && answer.state !== State.Refused)).toEqual([]);
    const accepted = amounts.filter((_, n) => answers[n]?.state === 0);
    const taken = accepted.reduce((sum, amount) => sum + usdt(amount), 0n);
    expect(accepted.length).toBeGreaterThan(5);
    expect(taken).toBeLessThanOrEqual(usdt('1000'));
    const left = await moneyOf(ctx, member);
    expect(left.cashback + left.rewards).toBe(usdt('1000') - taken);
    // Cashback is drawn first: rewards were touched only once the cashback was gone.
    if (left.rewards < usdt('300')) expect(left.cashback).toBe(0n);
    // The remaining balance only shrank, so every refused amount was more than what is left now.
    const refused = amounts.filter((_, n) => answers[n]?.state === State.Refused);
    for (const amount of refused) expect(usdt(amount)).toBeGreaterThan(left.cashback + left.rewards);
    await everyInvariantHolds();
  });

  it('a request id sent ten times at once, to both instances, makes one withdrawal', async () => {
    const member = await fundedMember(ctx, { cashback: '500' });
    const requestId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => apply(n, member, '75', requestId)),
    );
    expect(answers.map((answer) => answer.state)).toEqual(Array(10).fill(0));
    expect(new Set(answers.map((answer) => answer.content?.id)).size).toBe(1);
    expect((await moneyOf(ctx, member)).cashback).toBe(usdt('425'));
    await everyInvariantHolds();
  });

  it('an approval and a rejection racing on two instances: exactly one wins, every time', async () => {
    const member = await fundedMember(ctx, { cashback: '1000' });
    for (let round = 0; round < 10; round += 1) {
      const answer = await apply(round, member, '50');
      const id = answer.content?.id as string;
      const hash = `0x${(round + 1).toString(16).padStart(64, 'a')}`;
      const outcomes = await Promise.allSettled([
        approveWithdrawal(depsFor(round), { id, txHash: hash, operatorId: null }),
        rejectWithdrawal(depsFor(round + 1), { id, reason: 'racing', operatorId: null }),
      ]);
      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      const loser = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(loser.reason).toMatchObject({ messageKey: 'withdrawalNotPending' });
      expect((await moneyOf(ctx, member, id)).hold).toBe(0n);
    }
    await everyInvariantHolds();
  });

  it('the console’s approve and reject racing on two instances: exactly one answers success, one audit entry', async () => {
    const member = await fundedMember(ctx, { cashback: '1000' });
    const operator = await newOperator(ctx);
    const consoleCall = (n: number, path: string, payload: object) =>
      appFor(n)
        .inject({
          method: 'POST',
          url: `/elex/admin/${path}`,
          headers: { 'content-type': 'application/json', token: operator.token },
          payload,
        })
        .then((res) => res.json() as { state: number; message: string });
    for (let round = 0; round < 10; round += 1) {
      const answer = await apply(round, member, '50');
      const id = answer.content?.id as string;
      const txHash = `0x${(round + 1).toString(16).padStart(64, 'c')}`;
      const [approved, rejected] = await Promise.all([
        consoleCall(round, 'approveWithdrawal', { id, txHash }),
        consoleCall(round + 1, 'rejectWithdrawal', { id, reason: 'racing in the console' }),
      ]);
      const states = [approved.state, rejected.state];
      expect(states.filter((state) => state === 0)).toHaveLength(1);
      const loser = approved.state === 0 ? rejected : approved;
      expect(loser).toMatchObject({
        state: State.Refused,
        message: 'This withdrawal has already been decided',
      });
      const entries = await listAudit(ctx.db, { target: `withdrawal:${id}`, page: 1, pageSize: 10 });
      expect(entries.rows.map((entry) => [entry.action, entry.actor])).toEqual([
        [approved.state === 0 ? 'withdrawal.approve' : 'withdrawal.reject', operator.email],
      ]);
      expect((await moneyOf(ctx, member, id)).hold).toBe(0n);
    }
    await everyInvariantHolds();
  });

  it('a correction debit and a withdrawal racing for one balance on two instances: one takes it, the other is told', async () => {
    const proposer = await newOperator(ctx);
    const approver = await newOperator(ctx);
    const consoleCall = (n: number, operator: { token: string }, path: string, payload: object) =>
      appFor(n)
        .inject({
          method: 'POST',
          url: `/elex/admin/corrections/${path}`,
          headers: { 'content-type': 'application/json', token: operator.token },
          payload,
        })
        .then(
          (res) => res.json() as { state: number; message: string; content: { id: number; status: string } },
        );
    for (let round = 0; round < 6; round += 1) {
      // Even rounds: a debit within the threshold, posted at once. Odd rounds: one above it, proposed
      // first and approved by a second operator while the member withdraws.
      const atOnce = round % 2 === 0;
      const member = await fundedMember(ctx, { cashback: '200' });
      const debit = atOnce ? '-60' : '-150';
      const correction = {
        userId: member.userId,
        account: 'cashback',
        platId: member.platId,
        uid: member.uid,
        amount: debit,
        reason: `clawback ${round}`,
      };
      let pendingId: number | undefined;
      if (!atOnce) {
        const proposed = await consoleCall(round, proposer, 'propose', correction);
        expect(proposed.content).toMatchObject({ status: 'pending' });
        pendingId = proposed.content.id;
      }
      const withdrawal = atOnce ? '150' : '100';
      const [corrected, withdrawn] = await Promise.all([
        atOnce
          ? consoleCall(round, proposer, 'propose', correction)
          : consoleCall(round, approver, 'approve', { id: pendingId }),
        apply(round + 1, member, withdrawal),
      ]);
      // Never a fault: each answers success or a refusal in words.
      expect(
        [corrected.state, withdrawn.state].every((state) => state === 0 || state === State.Refused),
      ).toBe(true);
      expect([corrected.state, withdrawn.state].filter((state) => state === 0)).toHaveLength(1);
      const money = await moneyOf(ctx, member);
      if (withdrawn.state === 0) {
        expect(corrected.message).toContain('below zero');
        expect(money.cashback).toBe(usdt('200') - usdt(withdrawal));
      } else {
        expect(withdrawn.message).toMatch(/more than|at least/i);
        expect(money.cashback).toBe(usdt('200') + usdt(debit.slice(1)) * -1n);
      }
    }
    await everyInvariantHolds();
  });
});
