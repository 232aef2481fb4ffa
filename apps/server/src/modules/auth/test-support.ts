import { CodeModule, normalizeEmail, VERIFICATION_CODE } from '@elex/contract';
import { and, eq, lte } from 'drizzle-orm';
import pg from 'pg';
import { expect } from 'vitest';
import { mailOutbox } from '../../db/schema.js';
import { createTestApp } from '../../test/test-app.js';
import { drainOutbox } from '../mail/outbox.js';
import { devMailbox } from '../mail/transport.js';

/** Test helpers for the accounts flows. Codes are read from the development mailbox, never the DB. */
export type TestContext = Awaited<ReturnType<typeof createTestApp>>;

/**
 * createTestApp plus a listener for pool errors. On PostgreSQL, pool.end() resolves before its clients'
 * sockets close, and the test database is then dropped WITH (FORCE): an idle client may receive the
 * server's FATAL goodbye, which an error-listener-less pool rethrows as an uncaught exception.
 */
export async function createAccountsTestApp(overrides: Parameters<typeof createTestApp>[0] = {}) {
  const ctx = await createTestApp(overrides);
  const client = (ctx.db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) client.on('error', () => {});
  return ctx;
}

export const PASSWORD = 'Secret#123';
export const NEW_PASSWORD = 'Changed$456';

let ipCounter = 0;
/** A fresh client address, so per-IP limits of one test do not leak into the next. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

let emailCounter = 0;
export function nextEmail(prefix = 'member'): string {
  emailCounter += 1;
  return `${prefix}${emailCounter}-${Date.now().toString(36)}@example.com`;
}

export interface CallOptions {
  token?: string;
  lang?: string;
  ip?: string;
}

/** POSTs JSON to an `/elex` call as the web client does, from a given address. */
export function call(ctx: TestContext, url: string, body: unknown = {}, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== undefined) headers.token = options.token;
  if (options.lang !== undefined) headers.lang = options.lang;
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers,
    remoteAddress: options.ip ?? nextIp(),
  });
}

/**
 * Sends the outbox and answers the mails the development mailbox received for an address, newest
 * first. Waits while another request's drain still holds a due mail under its lease.
 */
export async function mailsTo(ctx: TestContext, email: string) {
  for (let tries = 0; ; tries += 1) {
    await drainOutbox(ctx.app.deps);
    const due = await ctx.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, ctx.clock.now())));
    if (due.length === 0) break;
    if (tries > 100) throw new Error('the outbox does not settle');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return devMailbox(ctx.app.deps)
    .list()
    .filter((mail) => mail.to === normalizeEmail(email));
}

/** The newest code mailed to an address (the test-only way to learn a code). */
export async function readCode(ctx: TestContext, email: string): Promise<string> {
  const [mail] = (await mailsTo(ctx, email)).filter((item) => item.template === 'verificationCode');
  const code = mail?.text.match(new RegExp(`\\b\\d{${VERIFICATION_CODE.length}}\\b`))?.[0];
  if (!code) throw new Error(`no code was mailed to ${email}`);
  return code;
}

/** Lets the 60 s resend cool-down pass. */
export function passCoolDown(ctx: TestContext) {
  ctx.clock.advance((VERIFICATION_CODE.resendSeconds + 1) * 1000);
}

export async function requestCode(
  ctx: TestContext,
  module: CodeModule,
  email: string | undefined,
  options: CallOptions = {},
  extra: { encr?: string; code?: string } = {},
) {
  const res = await call(ctx, '/elex/user/verifyCode', { module, email, ...extra }, options);
  return res.json() as { state: number; message: string; content: { resendAfterSeconds: number } | null };
}

/** Registers through the API, as the web does (the encr goes with the code request too), and answers the token. */
export async function signUp(
  ctx: TestContext,
  email = nextEmail(),
  extra: { code?: string; encr?: string; marketingConsent?: boolean; password?: string } = {},
): Promise<string> {
  const ip = nextIp();
  const sent = await requestCode(
    ctx,
    CodeModule.Register,
    email,
    { ip },
    extra.encr === undefined ? {} : { encr: extra.encr },
  );
  expect(sent).toMatchObject({ state: 0 });
  const authcode = await readCode(ctx, email);
  const res = await call(
    ctx,
    '/elex/user/register',
    { email, passwd: extra.password ?? PASSWORD, authcode, ...extra },
    { ip },
  );
  const body = res.json();
  expect(body).toMatchObject({ state: 0 });
  return body.content.token as string;
}

/** Logs in through the API (letting the code cool-down pass first) and answers the token. */
export async function logIn(ctx: TestContext, email: string, password = PASSWORD): Promise<string> {
  passCoolDown(ctx);
  const ip = nextIp();
  expect(await requestCode(ctx, CodeModule.Login, email, { ip })).toMatchObject({ state: 0 });
  const authcode = await readCode(ctx, email);
  const res = await call(ctx, '/elex/user/login', { email, passwd: password, authcode }, { ip });
  const body = res.json();
  expect(body).toMatchObject({ state: 0 });
  return body.content.token as string;
}
