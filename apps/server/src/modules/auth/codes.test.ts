import { CodeModule, State, translate, VERIFICATION_CODE } from '@elex/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, verificationCodes } from '../../db/schema.js';
import { drainOutbox } from '../mail/outbox.js';
import { devMailbox } from '../mail/transport.js';
import { codeDigest, emailDigest } from './digests.js';
import {
  call,
  createAccountsTestApp,
  mailsTo,
  nextEmail,
  nextIp,
  PASSWORD,
  passCoolDown,
  readCode,
  requestCode,
  signUp,
  type TestContext,
} from './test-support.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
});
afterAll(() => ctx.close());

const MINUTE = 60_000;

function verify(email: string, module: CodeModule, authCode: string | number, lang?: string) {
  return call(ctx, '/elex/user/verifyCode2', { email, module, authCode }, { lang });
}

describe('sending a code (/elex/user/verifyCode)', () => {
  it('answers the resend delay and the translated sent message', async () => {
    const email = nextEmail();
    for (const [lang, message] of [
      ['en', 'Verification code sent'],
      ['zh', '验证码已发送'],
      ['ko', '인증 코드가 전송되었습니다'],
    ] as const) {
      passCoolDown(ctx);
      const body = await requestCode(ctx, CodeModule.Register, email, { lang });
      expect(body).toEqual({ state: State.Success, message, content: { resendAfterSeconds: 60 } });
    }
  });

  it('mails six digits from the register code, in the request language', async () => {
    const email = nextEmail();
    await requestCode(ctx, CodeModule.Register, email, { lang: 'ko' });
    const [mail] = await mailsTo(ctx, email);
    expect(mail?.subject).toMatch(/^인증 코드: \d{6}$/);
    expect(mail?.text).toContain('Elex 캐시백');
    expect(mail?.html).toContain('Elex 캐시백');
    expect(await readCode(ctx, email)).toMatch(/^\d{6}$/);
  });

  it('stores only a keyed hash of the code and of the e-mail', async () => {
    const email = nextEmail();
    await requestCode(ctx, CodeModule.Register, email);
    const code = await readCode(ctx, email);
    const hash = emailDigest(ctx.config.appSecret, email);
    const rows = await ctx.db.select().from(verificationCodes).where(eq(verificationCodes.emailHash, hash));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.codeHash).toBe(codeDigest(ctx.config.appSecret, email, CodeModule.Register, code));
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(email);
  });

  it('refuses another code for the same e-mail and module within 60 s, saying how long to wait', async () => {
    const email = nextEmail();
    expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({ state: 0 });
    ctx.clock.advance(15_000);
    // The seconds left come as content too: the web counts its code dialog down from them.
    expect(await requestCode(ctx, CodeModule.Register, email)).toEqual({
      state: State.TooManyRequests,
      message: 'Please wait 45 seconds before requesting another code',
      content: { resendAfterSeconds: 45 },
    });
    expect(await requestCode(ctx, CodeModule.Register, email, { lang: 'zh' })).toMatchObject({
      state: State.TooManyRequests,
      message: '请等待 45 秒后再获取验证码',
    });
    ctx.clock.advance(45_000);
    expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({ state: 0 });
  });

  it('lets another module send at once: the cool-down is per e-mail and module', async () => {
    const email = nextEmail();
    await signUp(ctx, email);
    expect(await requestCode(ctx, CodeModule.Login, email)).toMatchObject({ state: 0 });
    expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toMatchObject({ state: 0 });
  });

  it('sends at most 10 codes an hour to one e-mail, whatever the module', async () => {
    const email = nextEmail();
    for (let i = 0; i < VERIFICATION_CODE.maxPerEmailPerHour; i += 1) {
      expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({ state: 0 });
      passCoolDown(ctx);
    }
    const refused = await requestCode(ctx, CodeModule.Register, email, { lang: 'ko' });
    expect(refused).toEqual({
      state: State.TooManyRequests,
      message: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요',
      content: null,
    });
    expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toMatchObject({
      state: State.TooManyRequests,
    });
    // 10 codes took 10 × 61 s; the hour counts from the first one.
    ctx.clock.advance(60 * MINUTE - 10 * 61_000 + 1000);
    expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({ state: 0 });
  });

  it('sends at most 30 codes an hour from one IP', async () => {
    const ip = nextIp();
    for (let i = 0; i < VERIFICATION_CODE.maxPerIpPerHour; i += 1) {
      expect(await requestCode(ctx, CodeModule.Register, nextEmail('ip'), { ip })).toMatchObject({
        state: 0,
      });
    }
    expect(await requestCode(ctx, CodeModule.Register, nextEmail('ip'), { ip })).toMatchObject({
      state: State.TooManyRequests,
      message: 'Too many requests, please try again later',
    });
    expect(await requestCode(ctx, CodeModule.Register, nextEmail('ip'))).toMatchObject({ state: 0 });
    ctx.clock.advance(60 * MINUTE + 1000);
    expect(await requestCode(ctx, CodeModule.Register, nextEmail('ip'), { ip })).toMatchObject({ state: 0 });
  });

  it('tells a login for an unknown e-mail at once, recording no code and mailing nothing (issue 15)', async () => {
    const email = nextEmail('nobody');
    expect(await requestCode(ctx, CodeModule.Login, email, { lang: 'zh' })).toEqual({
      state: State.Refused,
      message: '该邮箱尚未注册账户。请检查邮箱地址，或先注册。',
      content: { messageKey: 'loginEmailNotRegistered' },
    });
    // Nothing was recorded: asking again is not a cool-down but the same answer.
    expect(await requestCode(ctx, CodeModule.Login, email)).toMatchObject({
      state: State.Refused,
      content: { messageKey: 'loginEmailNotRegistered' },
    });
    expect(await mailsTo(ctx, email)).toHaveLength(0);
  });

  it('answers a reset request for an unknown e-mail like any other, and mails nothing', async () => {
    const email = nextEmail('nobody');
    expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toEqual({
      state: 0,
      message: 'Verification code sent',
      content: { resendAfterSeconds: 60 },
    });
    expect(await mailsTo(ctx, email)).toHaveLength(0);
    expect(await requestCode(ctx, CodeModule.ResetPassword, email)).toEqual({
      state: State.TooManyRequests,
      message: 'Please wait 60 seconds before requesting another code',
      content: { resendAfterSeconds: 60 },
    });
  });

  it('refuses a register code for an unknown invite code before any mail, naming the field (issue 15)', async () => {
    const email = nextEmail('invited');
    expect(await requestCode(ctx, CodeModule.Register, email, { lang: 'ko' }, { code: 'BADCODE1' })).toEqual({
      state: State.Refused,
      message: translate('ko', 'inviteCodeUnknown'),
      content: { field: 'code' },
    });
    expect(await mailsTo(ctx, email)).toHaveLength(0);
    // Not a cool-down afterwards: the next request, with a real invite code, sends the code at once.
    const inviter = await signUp(ctx, nextEmail('inviter'));
    const { content } = (await call(ctx, '/elex/user/getMyInviteCode', {}, { token: inviter })).json();
    const code = (content as { inviteCode: string }).inviteCode;
    expect(
      await requestCode(ctx, CodeModule.Register, email, {}, { code: code.toLowerCase() }),
    ).toMatchObject({
      state: 0,
    });
  });

  it('refuses a register code for an e-mail that has an account, in any letter case', async () => {
    const email = nextEmail();
    await signUp(ctx, email);
    for (const variant of [email, email.toUpperCase()]) {
      expect(await requestCode(ctx, CodeModule.Register, variant, { lang: 'zh' })).toEqual({
        state: State.Refused,
        message: '邮箱已存在',
        content: null,
      });
    }
  });

  it('refuses a register code for the e-mail of a deleted account', async () => {
    const email = nextEmail();
    const token = await signUp(ctx, email);
    expect(
      (
        await call(ctx, '/elex/user/deleteAccount', { passwd: PASSWORD, forfeitTotal: '0' }, { token })
      ).json(),
    ).toMatchObject({
      state: 0,
    });
    expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({
      state: State.Refused,
      message: 'This e-mail address belonged to a deleted account and cannot register again',
    });
  });

  it('sends module 3 to the member’s own address with an empty payload, and needs a session', async () => {
    const email = nextEmail();
    const token = await signUp(ctx, email);
    const res = await call(ctx, '/elex/user/verifyCode', { module: 3 }, { token });
    expect(res.json()).toMatchObject({ state: 0, content: { resendAfterSeconds: 60 } });
    const code = await readCode(ctx, email);
    expect((await verify(email, CodeModule.OwnAddress, code)).json()).toMatchObject({
      state: State.SessionExpired,
    });
    const checked = await call(
      ctx,
      '/elex/user/verifyCode2',
      { email: 'ignored@example.com', module: 3, authCode: code },
      { token },
    );
    expect(checked.json()).toMatchObject({ state: 0 });

    const anonymous = await call(ctx, '/elex/user/verifyCode', { module: 3 }, { lang: 'zh' });
    expect(anonymous.json()).toEqual({
      state: State.SessionExpired,
      message: '登录已过期，请重新登录',
      content: null,
    });
  });

  it('names the field when the e-mail is missing for modules 0 to 2', async () => {
    const res = await call(ctx, '/elex/user/verifyCode', { module: 0 });
    expect(res.json()).toMatchObject({
      state: State.ValidationFailed,
      message: 'email: please enter email address',
    });
  });
});

describe('checking a code (/elex/user/verifyCode2)', () => {
  async function freshCode(module: CodeModule = CodeModule.Register) {
    const email = nextEmail();
    if (module !== CodeModule.Register) await signUp(ctx, email);
    await requestCode(ctx, module, email);
    return { email, code: await readCode(ctx, email) };
  }

  function wrong(code: string) {
    return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  }

  it('accepts the right code without using it up', async () => {
    const { email, code } = await freshCode(CodeModule.ResetPassword);
    expect((await verify(email, CodeModule.ResetPassword, code)).json()).toEqual({
      state: 0,
      message: 'OK',
      content: null,
    });
    expect((await verify(email, CodeModule.ResetPassword, code)).json()).toMatchObject({ state: 0 });
    const reset = await call(ctx, '/elex/user/changePasswd', {
      email,
      authCode: code,
      passwd: 'Another#789',
    });
    expect(reset.json()).toMatchObject({ state: 0 });
  });

  it('accepts the code sent as a number, leading zeros dropped (spec: the code is sent as a number)', async () => {
    const { email, code } = await freshCode();
    const res = await verify(email, CodeModule.Register, Number(code));
    expect(res.json()).toMatchObject({ state: 0 });
  });

  it('refuses a wrong code in the request language', async () => {
    const { email, code } = await freshCode();
    expect((await verify(email, CodeModule.Register, wrong(code), 'zh')).json()).toEqual({
      state: State.Refused,
      message: '验证码无效',
      content: null,
    });
  });

  it('binds a code to its e-mail and module', async () => {
    const { email, code } = await freshCode();
    const other = nextEmail();
    await requestCode(ctx, CodeModule.Register, other);
    expect((await verify(other, CodeModule.Register, code)).json()).toMatchObject({
      message: 'Invalid verification code',
    });
    expect((await verify(email, CodeModule.Login, code)).json()).toMatchObject({
      message: 'Invalid verification code',
    });
    expect((await verify(email, CodeModule.Register, code)).json()).toMatchObject({ state: 0 });
  });

  it('expires a code after 10 minutes', async () => {
    const { email, code } = await freshCode();
    ctx.clock.advance(10 * MINUTE - 1000);
    expect((await verify(email, CodeModule.Register, code)).json()).toMatchObject({ state: 0 });
    ctx.clock.advance(1000);
    expect((await verify(email, CodeModule.Register, code, 'ko')).json()).toEqual({
      state: State.Refused,
      message: '인증 코드가 만료되었습니다. 새 코드를 요청해 주세요',
      content: null,
    });
  });

  it('kills a code after 5 wrong tries, even for the right one after', async () => {
    const { email, code } = await freshCode();
    for (let i = 0; i < VERIFICATION_CODE.maxWrongAttempts; i += 1) {
      expect((await verify(email, CodeModule.Register, wrong(code))).json()).toMatchObject({
        message: 'Invalid verification code',
      });
    }
    expect((await verify(email, CodeModule.Register, code)).json()).toEqual({
      state: State.Refused,
      message: 'This code has been tried too many times, please request a new code',
      content: null,
    });
    // A new code starts over.
    passCoolDown(ctx);
    await requestCode(ctx, CodeModule.Register, email);
    expect((await verify(email, CodeModule.Register, await readCode(ctx, email))).json()).toMatchObject({
      state: 0,
    });
  });

  it('does not count right tries: only wrong ones kill a code', async () => {
    const { email, code } = await freshCode();
    for (let i = 0; i < VERIFICATION_CODE.maxWrongAttempts - 1; i += 1) {
      await verify(email, CodeModule.Register, wrong(code));
    }
    for (let i = 0; i < 3; i += 1) {
      expect((await verify(email, CodeModule.Register, code)).json()).toMatchObject({ state: 0 });
    }
  });

  it('counts wrong tries that race each other: no more than 5 comparisons per code', async () => {
    const { email, code } = await freshCode();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        verify(email, CodeModule.Register, wrong(code)).then((res) => res.json()),
      ),
    );
    const messages = answers.map((answer) => answer.message);
    expect(messages.filter((message) => message === 'Invalid verification code')).toHaveLength(5);
    expect(
      messages.filter((message) => message.startsWith('This code has been tried too many times')),
    ).toHaveLength(7);
  });

  it('says a right code sent by many requests at once was tried too many times, never that it was wrong', async () => {
    const { email, code } = await freshCode();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => verify(email, CodeModule.Register, code).then((res) => res.json())),
    );
    const messages = new Set(answers.map((answer) => answer.message));
    expect(answers.some((answer) => answer.state === 0)).toBe(true);
    expect(messages.has('Invalid verification code')).toBe(false);
    for (const message of messages) {
      expect(['OK', 'This code has been tried too many times, please request a new code']).toContain(message);
    }
  });

  it('only the newest code counts', async () => {
    const { email, code: first } = await freshCode();
    passCoolDown(ctx);
    await requestCode(ctx, CodeModule.Register, email);
    const second = await readCode(ctx, email);
    expect(second).not.toBe(first);
    expect((await verify(email, CodeModule.Register, first)).json()).toMatchObject({
      message: 'Invalid verification code',
    });
    expect((await verify(email, CodeModule.Register, second)).json()).toMatchObject({ state: 0 });
  });

  it('refuses a code that was never requested', async () => {
    expect((await verify(nextEmail(), CodeModule.Login, '123456')).json()).toMatchObject({
      state: State.Refused,
      message: 'Invalid verification code',
    });
  });

  it('names the field for a code that is not 6 digits', async () => {
    const res = await verify(nextEmail(), CodeModule.Register, '12a');
    expect(res.json()).toMatchObject({
      state: State.ValidationFailed,
      message: 'authCode: verification code error',
    });
  });
});

describe('the code mail in the outbox', () => {
  it('is written in the same transaction as the code and holds no code or address in clear', async () => {
    const email = nextEmail();
    devMailbox(ctx.app.deps).clear();
    await requestCode(ctx, CodeModule.Register, email);
    const pending = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ template: 'verificationCode', locale: 'en', attempts: 0 });
    expect(pending[0]?.payload).toMatch(/^v1\./);
    expect(JSON.stringify(pending)).not.toContain(email);
    await drainOutbox(ctx.app.deps);
    const code = await readCode(ctx, email);
    const [sent] = await ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.id, pending[0]?.id ?? 0));
    expect(sent).toMatchObject({ status: 'sent', payload: null, attempts: 1 });
    expect(JSON.stringify(sent)).not.toContain(code);
  });

  it('shares the code’s transaction: when the mail cannot be written, no code is stored either', async () => {
    const email = nextEmail();
    // The database itself refuses the outbox row, as a full disk or a lost connection would.
    await ctx.db.execute(sql`create function refuse_mail_outbox() returns trigger language plpgsql as $$
      begin raise exception 'mail outbox unavailable'; end $$`);
    await ctx.db.execute(sql`create trigger refuse_mail_outbox before insert on mail_outbox
      for each row execute function refuse_mail_outbox()`);
    try {
      const res = await call(ctx, '/elex/user/verifyCode', { module: CodeModule.Register, email });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ state: State.ServerError, message: 'Error', content: null });
    } finally {
      await ctx.db.execute(sql`drop trigger refuse_mail_outbox on mail_outbox`);
      await ctx.db.execute(sql`drop function refuse_mail_outbox()`);
    }
    const hash = emailDigest(ctx.config.appSecret, email);
    expect(
      await ctx.db.select().from(verificationCodes).where(eq(verificationCodes.emailHash, hash)),
    ).toHaveLength(0);
    // Nothing of the failed request counts: no cool-down, and the next request sends a code that works.
    expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({ state: 0 });
    expect((await verify(email, CodeModule.Register, await readCode(ctx, email))).json()).toMatchObject({
      state: 0,
    });
  });

  it('is not written when the request is refused', async () => {
    const email = nextEmail();
    await requestCode(ctx, CodeModule.Register, email);
    await drainOutbox(ctx.app.deps);
    const before = (await ctx.db.select().from(mailOutbox)).length;
    expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({
      state: State.TooManyRequests,
    });
    expect(await ctx.db.select().from(mailOutbox)).toHaveLength(before);
  });
});
