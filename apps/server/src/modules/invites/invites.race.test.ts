import { CodeModule, State } from '@elex/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../auth/auth.tables.js';
import { call, nextEmail, nextIp, PASSWORD, readCode, requestCode, signUp } from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { pointsEntries } from '../points/points.tables.js';
import { INVITE_POINTS_REASONS } from './invite-rewards.js';

// Registration checks the invite code, then hashes the password, then writes the account: the gate
// runs something (the inviter's deletion) in that moment, on PGlite and PostgreSQL alike.
const gate = vi.hoisted(() => ({ beforeHash: null as null | (() => Promise<void>) }));
vi.mock('../auth/passwords.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../auth/passwords.js')>();
  return {
    ...actual,
    hashPassword: async (...args: Parameters<typeof actual.hashPassword>) => {
      const hook = gate.beforeHash;
      gate.beforeHash = null;
      if (hook) await hook();
      return actual.hashPassword(...args);
    },
  };
});

let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp({ invitePoints: { friendSignup: 30, perFriend: 70 } });
});
afterAll(() => ctx.close());

const userIdOf = async (email: string) =>
  (await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id;

describe('an inviter who deletes the account while a friend registers with their code (found in review)', () => {
  it('books no invite points to the deleted account: the registration is refused and can go on without the code', async () => {
    const inviterEmail = nextEmail('leaving-inviter');
    const inviterToken = await signUp(ctx, inviterEmail);
    const inviterId = await userIdOf(inviterEmail);
    const { inviteCode } = (
      await call(ctx, '/elex/user/profile', {}, { token: inviterToken }).then((res) => res.json())
    ).content;

    const friend = nextEmail('friend');
    const ip = nextIp();
    expect(await requestCode(ctx, CodeModule.Register, friend, { ip }, { code: inviteCode })).toMatchObject({
      state: 0,
    });
    const authcode = await readCode(ctx, friend);
    // The code was checked (the inviter was a member then); the deletion commits before the account is written.
    gate.beforeHash = async () => {
      const deleted = await call(
        ctx,
        '/elex/user/deleteAccount',
        { passwd: PASSWORD, forfeitTotal: '0' },
        { token: inviterToken },
      );
      expect(deleted.json()).toMatchObject({ state: 0 });
    };
    const registered = (
      await call(
        ctx,
        '/elex/user/register',
        { email: friend, passwd: PASSWORD, authcode, code: inviteCode },
        { ip },
      )
    ).json();
    expect(gate.beforeHash).toBeNull();
    expect(registered).toMatchObject({ state: State.Refused, message: 'Invite code not found' });
    const inviterPoints = await ctx.db
      .select()
      .from(pointsEntries)
      .where(
        and(
          eq(pointsEntries.userId, inviterId ?? -1),
          eq(pointsEntries.reason, INVITE_POINTS_REASONS.inviter),
        ),
      );
    expect(inviterPoints).toEqual([]);
    expect(await userIdOf(friend)).toBeUndefined();

    // Nothing was written and the mailed code is still unused: without the invite code it registers.
    expect(
      (await call(ctx, '/elex/user/register', { email: friend, passwd: PASSWORD, authcode }, { ip })).json(),
    ).toMatchObject({ state: 0 });
    const [row] = await ctx.db.select().from(users).where(eq(users.email, friend));
    expect(row?.inviterId).toBeNull();
  });
});
