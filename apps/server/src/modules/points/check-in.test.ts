import { utcDay } from '@elex/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../auth/auth.tables.js';
import {
  call,
  createAccountsTestApp,
  logIn,
  nextEmail,
  signUp,
  type TestContext,
} from '../auth/test-support.js';
import { checkIns } from './check-in.tables.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp({ checkInPoints: 15 });
});
afterAll(() => ctx.close());

async function newMember() {
  return signUp(ctx, nextEmail('checkin'));
}

describe('daily check-in', () => {
  it('answers isSignToday false, then true after checking in, with the configured points', async () => {
    ctx.clock.set(new Date('2026-03-10T08:00:00Z'));
    const token = await newMember();
    expect((await call(ctx, '/elex/user/isSignTody', {}, { token })).json()).toMatchObject({
      state: 0,
      content: { isSignToday: false },
    });

    const signed = (await call(ctx, '/elex/activity/sign', {}, { token, lang: 'ko' })).json();
    expect(signed).toMatchObject({
      state: 0,
      message: '출석 체크 성공',
      content: { day: '2026-03-10', pointsEarned: 15, streak: 1 },
    });
    expect((await call(ctx, '/elex/user/isSignTody', {}, { token })).json().content.isSignToday).toBe(true);

    const profile = (await call(ctx, '/elex/user/profile', {}, { token })).json();
    expect(profile.content.points).toBe(signed.content.points);
  });

  it('lets one of many racing check-ins through and books the points once', async () => {
    ctx.clock.set(new Date('2026-03-11T09:00:00Z'));
    const token = await newMember();
    const before = (await call(ctx, '/elex/user/profile', {}, { token })).json().content.points as number;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(ctx, '/elex/activity/sign', {}, { token })),
    );
    const states = answers.map((answer) => answer.json().state);
    expect(states.filter((state) => state === 0)).toHaveLength(1);
    const refusals = answers.map((answer) => answer.json()).filter((body) => body.state !== 0);
    expect(refusals.every((body) => body.state === 1002 && body.message === 'Already Checked In')).toBe(true);
    const after = (await call(ctx, '/elex/user/profile', {}, { token })).json().content.points as number;
    expect(after - before).toBe(15);
  });

  it('opens a new day at 00:00 UTC and counts the streak across days', async () => {
    ctx.clock.set(new Date('2026-04-01T23:59:00Z'));
    const token = await newMember();
    expect((await call(ctx, '/elex/activity/sign', {}, { token })).json().state).toBe(0);
    ctx.clock.set(new Date('2026-04-01T23:59:59Z'));
    expect((await call(ctx, '/elex/activity/sign', {}, { token })).json().state).toBe(1002);

    ctx.clock.set(new Date('2026-04-02T00:00:01Z'));
    expect((await call(ctx, '/elex/user/isSignTody', {}, { token })).json().content.isSignToday).toBe(false);
    expect((await call(ctx, '/elex/activity/sign', {}, { token })).json().content.streak).toBe(2);

    // A missed day breaks the streak; before today's check-in, yesterday's run still counts.
    ctx.clock.set(new Date('2026-04-03T12:00:00Z'));
    expect((await call(ctx, '/elex/activity/signHistory', {}, { token })).json().content.streak).toBe(2);
    ctx.clock.set(new Date('2026-04-05T12:00:00Z'));
    expect((await call(ctx, '/elex/activity/signHistory', {}, { token })).json().content.streak).toBe(0);
    expect((await call(ctx, '/elex/activity/sign', {}, { token })).json().content.streak).toBe(1);
  });

  it('counts a streak across the end of February and of the year, and breaks it on a missed day', async () => {
    ctx.clock.set(new Date('2027-12-30T08:00:00Z'));
    const email = nextEmail('streak');
    const token = await signUp(ctx, email);
    const signOn = async (day: string, session = token) => {
      ctx.clock.set(new Date(`${day}T12:00:00Z`));
      return (await call(ctx, '/elex/activity/sign', {}, { token: session })).json().content.streak as number;
    };
    expect(await signOn('2027-12-30')).toBe(1);
    expect(await signOn('2027-12-31')).toBe(2);
    expect(await signOn('2028-01-01')).toBe(3);
    ctx.clock.set(new Date('2028-01-02T23:59:59Z'));
    expect((await call(ctx, '/elex/activity/signHistory', {}, { token })).json().content.streak).toBe(3);
    // A session lasts 30 days: a new one for February.
    ctx.clock.set(new Date('2028-02-28T08:00:00Z'));
    const later = await logIn(ctx, email);
    expect(await signOn('2028-02-28', later)).toBe(1);
    expect(await signOn('2028-02-29', later)).toBe(2);
    expect(await signOn('2028-03-01', later)).toBe(3);
    expect(await signOn('2028-03-03', later)).toBe(1);
  });

  it("shows a month's calendar, the current month by default", async () => {
    ctx.clock.set(new Date('2026-05-30T09:00:00Z'));
    const token = await newMember();
    for (const day of ['2026-05-30', '2026-05-31', '2026-06-01']) {
      ctx.clock.set(new Date(`${day}T10:00:00Z`));
      await call(ctx, '/elex/activity/sign', {}, { token });
    }
    const june = (await call(ctx, '/elex/activity/signHistory', {}, { token })).json().content;
    expect(june).toMatchObject({
      month: '2026-06',
      signedDays: ['2026-06-01'],
      today: '2026-06-01',
      isSignToday: true,
      streak: 3,
      pointsPerDay: 15,
    });
    const may = (await call(ctx, '/elex/activity/signHistory', { month: '2026-05' }, { token })).json()
      .content;
    expect(may.signedDays).toEqual(['2026-05-30', '2026-05-31']);
    // Another month's calendar still tells today's check-in and the streak across the months.
    expect(may).toMatchObject({ month: '2026-05', today: '2026-06-01', isSignToday: true, streak: 3 });
    expect(
      (await call(ctx, '/elex/activity/signHistory', { month: '2026-13' }, { token })).json(),
    ).toMatchObject({
      state: 1001,
      message: 'month: invalid value',
    });
  });

  it('refuses a month outside the calendar the database holds by naming the month', async () => {
    ctx.clock.set(new Date('2026-06-02T10:00:00Z'));
    const token = await newMember();
    // Year 0 does not exist in PostgreSQL; December 9999's next month is year 10000.
    for (const month of ['0000-01', '9999-12', '1969-12']) {
      expect((await call(ctx, '/elex/activity/signHistory', { month }, { token })).json()).toMatchObject({
        state: 1001,
        message: 'month: invalid value',
      });
    }
    expect(
      (await call(ctx, '/elex/activity/signHistory', { month: '1970-01' }, { token })).json(),
    ).toMatchObject({ state: 0, content: { month: '1970-01', signedDays: [] } });
  });

  it('answers -5000 without a valid session and books nothing', async () => {
    for (const path of ['/elex/user/isSignTody', '/elex/activity/sign', '/elex/activity/signHistory']) {
      expect((await call(ctx, path, {})).json().state).toBe(-5000);
      expect((await call(ctx, path, {}, { token: 'not-a-session' })).json().state).toBe(-5000);
    }
  });
});

describe('a long streak', () => {
  it('counts every consecutive day, past 400 (a year and more of daily check-ins)', async () => {
    ctx.clock.set(new Date('2029-01-01T08:00:00Z'));
    const email = nextEmail('longstreak');
    await signUp(ctx, email);
    const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const userId = user?.id as number;
    // 450 days in a row, the last one yesterday, as the check-in writes them.
    const days = Array.from({ length: 450 }, (_, n) =>
      utcDay(new Date(Date.parse('2030-03-25T00:00:00Z') - n * 86_400_000)),
    );
    await ctx.db
      .insert(checkIns)
      .values(days.map((day) => ({ userId, day, points: 15, createdAt: new Date(`${day}T09:00:00Z`) })));
    ctx.clock.set(new Date('2030-03-26T08:00:00Z'));
    const session = await logIn(ctx, email);
    expect(
      (await call(ctx, '/elex/activity/signHistory', {}, { token: session })).json().content.streak,
    ).toBe(450);
    expect((await call(ctx, '/elex/activity/sign', {}, { token: session })).json().content.streak).toBe(451);
  });
});
