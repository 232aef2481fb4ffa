import { CodeModule, State } from '@elex/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletedEmails, users } from '../../db/schema.js';
import { emailDigest } from './digests.js';
import {
  call,
  createAccountsTestApp,
  logIn,
  nextEmail,
  PASSWORD,
  readCode,
  requestCode,
  signUp,
  type TestContext,
} from './test-support.js';

/**
 * Forms of one mailbox are one account (red-team review of account security, 2026-11-30): a trailing
 * dot on the domain, an IDN domain and its punycode, and quoted local parts (refused).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
});
afterAll(() => ctx.close());

let counter = 0;
function idnEmail(): { unicode: string; ascii: string } {
  counter += 1;
  const local = `idn${counter}-${Date.now().toString(36)}`;
  return { unicode: `${local}@bücher.de`, ascii: `${local}@xn--bcher-kva.de` };
}

async function hasEmail(email: string) {
  return (await call(ctx, '/elex/user/verifyEmail', { email })).json().content?.hasEmail;
}

describe('one mailbox, one account', () => {
  it('refuses to register the trailing-dot form of a member’s e-mail, and logs the member in by it', async () => {
    const email = nextEmail();
    await signUp(ctx, email);
    const dotted = `${email.toUpperCase()}.`;
    expect(await hasEmail(dotted)).toBe(true);
    expect(await requestCode(ctx, CodeModule.Register, dotted)).toMatchObject({
      state: State.Refused,
      message: 'Email already exists',
    });
    // The login code goes to the stored address, and the dotted form logs into the same account.
    expect(await requestCode(ctx, CodeModule.Login, dotted)).toMatchObject({ state: 0 });
    const authcode = await readCode(ctx, email);
    const res = await call(ctx, '/elex/user/login', { email: dotted, passwd: PASSWORD, authcode });
    expect(res.json()).toMatchObject({ state: 0 });
  });

  it('stores an IDN domain as punycode, so either form reaches the one account', async () => {
    const { unicode, ascii } = idnEmail();
    await signUp(ctx, unicode);
    const [row] = await ctx.db.select().from(users).where(eq(users.email, ascii));
    expect(row?.email).toBe(ascii);
    expect(await hasEmail(ascii)).toBe(true);
    expect(await hasEmail(unicode)).toBe(true);
    expect(await requestCode(ctx, CodeModule.Register, ascii)).toMatchObject({ state: State.Refused });
    await logIn(ctx, ascii);
  });

  it('finds an account still stored in an older form (one migration 0046 left), and logs it in', async () => {
    const { unicode, ascii } = idnEmail();
    await signUp(ctx, unicode);
    await ctx.db
      .update(users)
      .set({ email: `${unicode}.` })
      .where(eq(users.email, ascii));
    expect(await hasEmail(ascii)).toBe(true);
    expect(await requestCode(ctx, CodeModule.Register, unicode)).toMatchObject({ state: State.Refused });
    await logIn(ctx, unicode);
  });

  it('refuses a deleted account’s address in its other forms too', async () => {
    // Stored before the canonical form: the ban holds the hash of the form the member had.
    const { unicode, ascii } = idnEmail();
    await ctx.db.insert(deletedEmails).values({
      emailHash: emailDigest(ctx.app.deps.config.appSecret, unicode),
      deletedAt: ctx.clock.now(),
    });
    expect(await requestCode(ctx, CodeModule.Register, ascii)).toMatchObject({
      state: State.Refused,
      message: expect.stringMatching(/deleted/i),
    });
    const dotted = nextEmail();
    await ctx.db.insert(deletedEmails).values({
      emailHash: emailDigest(ctx.app.deps.config.appSecret, `${dotted}.`),
      deletedAt: ctx.clock.now(),
    });
    expect(await requestCode(ctx, CodeModule.Register, dotted)).toMatchObject({
      state: State.Refused,
      message: expect.stringMatching(/deleted/i),
    });
  });

  it('refuses a quoted local part in zh, en and ko, sending nothing', async () => {
    const email = `"${nextEmail().split('@')[0]}"@example.com`;
    const answers = await Promise.all(
      ['en', 'zh', 'ko'].map(async (lang) =>
        (await call(ctx, '/elex/user/verifyCode', { module: CodeModule.Register, email }, { lang })).json(),
      ),
    );
    expect(answers.map((answer) => answer.state)).toEqual([
      State.ValidationFailed,
      State.ValidationFailed,
      State.ValidationFailed,
    ]);
    expect(answers[0].message).toBe(
      'email: write the e-mail without quotation marks (like name@example.com)',
    );
    expect(answers[1].message).toMatch(/^email：.*引号/);
    expect(answers[2].message).toMatch(/^email: .*따옴표/);
    await expect(readCode(ctx, email)).rejects.toThrow();
  });
});
