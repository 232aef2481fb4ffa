import { CodeModule, State, VERIFICATION_CODE } from '@elex/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { deferred } from '../../test/deferred.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { users } from './auth.tables.js';
import {
  call,
  createAccountsTestApp,
  logIn,
  NEW_PASSWORD,
  nextEmail,
  PASSWORD,
  passCoolDown,
  readCode,
  requestCode,
  signUp,
  type TestContext,
} from './test-support.js';

/**
 * A password reset landing between a call's password check and its transaction (found in red-team
 * review, 2026-11-29). Login, updatePass and deleteAccount compare the password before their
 * transaction (argon2 is slow); the reset revokes every session and sets a new password. Whoever
 * still held the old password could, at that moment, open a session the reset never saw, overwrite
 * the password the member just set, or delete the account.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
});
afterAll(() => ctx.close());

/** Runs `between` once, when the app's next transaction is about to begin: after the call's password check. */
function beforeNextTransaction(db: Database, between: () => Promise<unknown>) {
  const original = db.transaction;
  db.transaction = (async (...args: Parameters<Database['transaction']>) => {
    db.transaction = original;
    await between();
    return original.apply(db, args);
  }) as Database['transaction'];
}

async function resetCodeFor(context: TestContext, email: string): Promise<string> {
  expect(await requestCode(context, CodeModule.ResetPassword, email)).toMatchObject({ state: 0 });
  return readCode(context, email);
}

function reset(context: TestContext, email: string, authCode: string) {
  return call(context, '/elex/user/changePasswd', { email, authCode, passwd: NEW_PASSWORD });
}

const profile = (context: TestContext, token: string) =>
  call(context, '/elex/user/profile', {}, { token }).then((res) => res.json());

describe('a reset between the password check and the transaction (any engine, in sequence)', () => {
  it('a login with the old password opens no session', async () => {
    const email = nextEmail('reset-login');
    await signUp(ctx, email);
    const resetCode = await resetCodeFor(ctx, email);
    passCoolDown(ctx);
    expect(await requestCode(ctx, CodeModule.Login, email)).toMatchObject({ state: 0 });
    const loginCode = await readCode(ctx, email);
    beforeNextTransaction(ctx.app.deps.db, async () =>
      expect((await reset(ctx, email, resetCode)).json()).toMatchObject({ state: 0 }),
    );
    const res = await call(ctx, '/elex/user/login', { email, passwd: PASSWORD, authcode: loginCode });
    // The answer a wrong password gets: nothing tells the old password's holder that a reset happened.
    expect(res.json()).toMatchObject({ state: State.Refused, message: 'Incorrect e-mail or password' });
    // The refused login kept its code try counted, as a wrong password does (it was given back before
    // the transaction): four more guesses with the code, then it is spent, so the refusal is told
    // apart from a wrong password in no way and one code still allows five guesses of anything.
    for (let i = 0; i < VERIFICATION_CODE.maxWrongAttempts - 1; i += 1) {
      const again = await call(ctx, '/elex/user/login', { email, passwd: PASSWORD, authcode: loginCode });
      expect(again.json()).toMatchObject({ message: 'Incorrect e-mail or password' });
    }
    const spent = await call(ctx, '/elex/user/login', { email, passwd: NEW_PASSWORD, authcode: loginCode });
    expect(spent.json()).toMatchObject({
      state: State.Refused,
      message: 'This code has been tried too many times, please request a new code',
    });
    // The member's new password works.
    expect((await profile(ctx, await logIn(ctx, email, NEW_PASSWORD))).state).toBe(0);
  });

  /** A member's call with the old password, the member's reset run just before its transaction. */
  async function withResetBefore(prefix: string, url: string, body: object) {
    const email = nextEmail(prefix);
    const token = await signUp(ctx, email);
    const resetCode = await resetCodeFor(ctx, email);
    beforeNextTransaction(ctx.app.deps.db, async () =>
      expect((await reset(ctx, email, resetCode)).json()).toMatchObject({ state: 0 }),
    );
    const answer = (await call(ctx, url, body, { token })).json();
    expect(answer).toMatchObject({ state: State.Refused, message: 'The current password is incorrect' });
    // The reset password stands.
    expect((await profile(ctx, await logIn(ctx, email, NEW_PASSWORD))).state).toBe(0);
    return email;
  }

  it('a password change with the old password does not overwrite the reset one', async () => {
    await withResetBefore('reset-change', '/elex/user/updatePass', {
      oldPasswd: PASSWORD,
      passwd: 'Third#pass789',
    });
  });

  it('a deletion with the old password deletes nothing', async () => {
    const email = await withResetBefore('reset-delete', '/elex/user/deleteAccount', {
      passwd: PASSWORD,
      forfeitTotal: '0',
    });
    const [row] = await ctx.db.select().from(users).where(eq(users.email, email));
    expect(row?.deletedAt).toBeNull();
  });
});

// PGlite is one connection: nothing there can hold a reset's transaction open while another call runs.
describe.runIf(process.env.TEST_DATABASE_URL)(
  'a reset whose transaction is still open while another instance checks the old password',
  () => {
    let race: RaceApps;
    let other: TestContext;
    beforeAll(async () => {
      race = await openRaceApps();
      other = { ...race.ctx, app: race.apps[1] as TestContext['app'] };
    });
    afterAll(() => race.close());

    /** Backends of this test database waiting for a lock. */
    const lockWaiters = async () => {
      const [row] = rowsOf<{ n: number | string }>(
        await race.ctx.db.execute(
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        ),
      );
      return Number(row?.n ?? 0);
    };
    const untilWaiting = async (count: number) => {
      for (let tries = 0; (await lockWaiters()) < count; tries += 1) {
        if (tries > 500) throw new Error(`never ${count} waiting for a lock`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };

    /**
     * Starts the reset on the first instance and holds its transaction open (the member's session
     * rows are locked, so its revocation waits) after it wrote the new password; then starts `call`
     * on the second, lets it reach its transaction and lets the reset commit. Answers both.
     */
    async function resetHeldOpenDuring(email: string, resetCode: string, started: () => Promise<unknown>) {
      const [member] = await race.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      const held = deferred();
      const release = deferred();
      const holding = race.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select id from sessions where user_id = ${member?.id ?? -1} for update`);
        held.resolve();
        await release.promise;
      });
      await held.promise;
      const resetting = reset(race.ctx, email, resetCode);
      await untilWaiting(1);
      const calling = started();
      // The call checked the old password (the reset is not committed) and waits for the user row.
      await untilWaiting(2);
      release.resolve();
      await holding;
      return { reset: (await resetting).json(), answer: await calling };
    }

    it('a login on the other instance opens no session that outlives the reset', async () => {
      const email = nextEmail('held-login');
      await signUp(race.ctx, email);
      const resetCode = await resetCodeFor(race.ctx, email);
      passCoolDown(race.ctx);
      expect(await requestCode(race.ctx, CodeModule.Login, email)).toMatchObject({ state: 0 });
      const loginCode = await readCode(race.ctx, email);
      const { reset: resetAnswer, answer } = await resetHeldOpenDuring(email, resetCode, () =>
        call(other, '/elex/user/login', { email, passwd: PASSWORD, authcode: loginCode }).then((res) =>
          res.json(),
        ),
      );
      expect(resetAnswer).toMatchObject({ state: 0 });
      expect(answer).toMatchObject({ state: State.Refused, message: 'Incorrect e-mail or password' });
      expect((await profile(race.ctx, await logIn(race.ctx, email, NEW_PASSWORD))).state).toBe(0);
    });

    it('a password change on the other instance does not overwrite the reset one', async () => {
      const email = nextEmail('held-change');
      const token = await signUp(race.ctx, email);
      const resetCode = await resetCodeFor(race.ctx, email);
      const { reset: resetAnswer, answer } = await resetHeldOpenDuring(email, resetCode, () =>
        call(
          other,
          '/elex/user/updatePass',
          { oldPasswd: PASSWORD, passwd: 'Third#pass789' },
          { token },
        ).then((res) => res.json()),
      );
      expect(resetAnswer).toMatchObject({ state: 0 });
      expect(answer).toMatchObject({ state: State.Refused, message: 'The current password is incorrect' });
      expect((await profile(race.ctx, await logIn(race.ctx, email, NEW_PASSWORD))).state).toBe(0);
    });
  },
);
