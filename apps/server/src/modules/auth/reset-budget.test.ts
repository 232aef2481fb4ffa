import { CodeModule, State, VERIFICATION_CODE } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createAccountsTestApp,
  logIn,
  NEW_PASSWORD,
  nextEmail,
  passCoolDown,
  readCode,
  requestCode,
  signUp,
  type TestContext,
} from './test-support.js';

/**
 * The reset codes' guess budget across codes (red-team review of account security, 2026-11-30): ten
 * reset codes an hour with five tries each let a stranger guess about 50 times an hour.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60_000;

function wrong(code: string) {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

async function resetCode(email: string): Promise<string> {
  passCoolDown(ctx);
  expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toMatchObject({ state: 0 });
  return readCode(ctx, email);
}

async function reset(email: string, authCode: string, lang?: string) {
  const res = await call(
    ctx,
    '/elex/user/changePasswd',
    { email, authCode, passwd: NEW_PASSWORD },
    lang ? { lang } : {},
  );
  return res.json();
}

describe('wrong reset codes across codes', () => {
  it('refuses reset after 10 wrong codes in 24 h, naming when, while login by password still works', async () => {
    const email = nextEmail();
    await signUp(ctx, email);
    const start = ctx.clock.now();
    // Code 1: five wrong tries (its own cap); code 2: four wrong tries, by verifyCode2 and changePasswd.
    const first = await resetCode(email);
    for (let i = 0; i < VERIFICATION_CODE.maxWrongAttempts; i += 1) {
      expect(await reset(email, wrong(first))).toMatchObject({ message: 'Invalid verification code' });
    }
    const second = await resetCode(email);
    for (let i = 0; i < 2; i += 1) {
      expect(await reset(email, wrong(second))).toMatchObject({ message: 'Invalid verification code' });
      const checked = await call(ctx, '/elex/user/verifyCode2', {
        email,
        module: CodeModule.ResetPassword,
        authCode: wrong(second),
      });
      expect(checked.json()).toMatchObject({ message: 'Invalid verification code' });
    }
    // Nine wrong: a third code may still be asked for; its tenth wrong try spends the day's budget.
    const third = await resetCode(email);
    expect(await reset(email, wrong(third))).toMatchObject({ message: 'Invalid verification code' });

    // The right code is refused now, naming when reset opens again: 24 h after the first code.
    const until = new Date(start.getTime() + (VERIFICATION_CODE.resendSeconds + 1) * 1000 + DAY);
    const time = `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(await reset(email, third)).toEqual({
      state: State.Refused,
      message: `Too many wrong reset codes for this e-mail: password reset is closed until ${time}. You can still log in with your password.`,
      content: null,
    });
    expect((await reset(email, third, 'zh')).message).toContain(time);
    expect((await reset(email, third, 'ko')).message).toContain(time);
    // No further code is mailed while it lasts.
    passCoolDown(ctx);
    expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toMatchObject({
      state: State.Refused,
      message: expect.stringContaining(time),
    });
    // A stranger's guesses do not lock the owner out: login by password still works.
    await logIn(ctx, email);

    // Once the first code's tries leave the window, reset works again.
    ctx.clock.set(until);
    const fresh = await resetCode(email);
    expect(await reset(email, fresh)).toMatchObject({ state: 0 });
  });

  it('counts wrong tries per e-mail: another address is not affected', async () => {
    const email = nextEmail();
    await signUp(ctx, email);
    const other = nextEmail();
    await signUp(ctx, other);
    for (let round = 0; round < 2; round += 1) {
      const code = await resetCode(email);
      for (let i = 0; i < VERIFICATION_CODE.maxWrongAttempts; i += 1) await reset(email, wrong(code));
    }
    passCoolDown(ctx);
    expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toMatchObject({ state: State.Refused });
    const code = await resetCode(other);
    expect(await reset(other, code)).toMatchObject({ state: 0 });
  });
});
