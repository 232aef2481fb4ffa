import net, { type AddressInfo } from 'node:net';
import { CodeModule, State } from '@elex/contract';
import { eq } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema.js';
import { createAccountsTestApp, nextEmail, requestCode, type TestContext } from '../auth/test-support.js';
import { drainOutbox, enqueueMail, MAIL_RETRY, retryDelayMs } from './outbox.js';
import { devMailbox, transportFor } from './transport.js';

/** A local SMTP server that keeps what it receives, parsed. */
async function startSmtp(port = 0) {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return {
    received,
    url: `smtp://127.0.0.1:${address.port}`,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function outboxRow(ctx: TestContext, id: number) {
  const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}

async function lastOutboxRow(ctx: TestContext) {
  const rows = await ctx.db.select().from(mailOutbox);
  return rows.sort((a, b) => b.id - a.id)[0];
}

describe('sending through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ctx: TestContext;
  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await createAccountsTestApp({ smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('delivers a code mail with text and HTML parts and the subject in the request language', async () => {
    const email = nextEmail('smtp');
    expect(await requestCode(ctx, CodeModule.Register, email, { lang: 'zh' })).toMatchObject({ state: 0 });
    const row = await lastOutboxRow(ctx);
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 1, retried: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0] as ParsedMail;
    const code = mail.subject?.match(/\d{6}/)?.[0] ?? '';
    expect(mail.subject).toBe(`您的验证码：${code}`);
    expect(mail.text).toContain(code);
    expect(mail.text).toContain('Elex 返佣');
    expect(mail.html).toContain(code);
    expect(mail.html).toContain('lang="zh"');
    expect(mail.from?.text).toContain('Elex Cashback');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe(email);

    // The code the mail carries is the code the server accepts.
    const checked = await ctx.app.inject({
      method: 'POST',
      url: '/elex/user/verifyCode2',
      payload: { email, module: CodeModule.Register, authCode: code },
    });
    expect(checked.json()).toMatchObject({ state: State.Success });
    expect(await outboxRow(ctx, row?.id ?? 0)).toMatchObject({ status: 'sent', payload: null, attempts: 1 });
    // Nothing goes to the development mailbox when SMTP is configured.
    expect(devMailbox(ctx.app.deps).list()).toHaveLength(0);
  });
});

describe('an SMTP server that is down', () => {
  let ctx: TestContext;
  let port: number;
  let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
  beforeAll(async () => {
    port = await freePort();
    ctx = await createAccountsTestApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await ctx.close();
    await smtp?.close();
  });

  it('leaves the mail pending with the attempt counted, retries later with backoff, then delivers', async () => {
    const email = nextEmail('down');
    await requestCode(ctx, CodeModule.Login, email);
    await requestCode(ctx, CodeModule.Register, email);
    const id = (await lastOutboxRow(ctx))?.id ?? 0;

    const start = ctx.clock.now().getTime();
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    const first = await outboxRow(ctx, id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(first?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(first?.nextAttemptAt.getTime()).toBe(start + MAIL_RETRY.baseDelayMs);
    expect(first?.payload).toMatch(/^v1\./);

    // Not due yet: a drain does not touch it.
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect((await outboxRow(ctx, id))?.attempts).toBe(1);

    ctx.clock.advance(retryDelayMs(1));
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    const second = await outboxRow(ctx, id);
    expect(second?.attempts).toBe(2);
    // Exponential: twice the first delay.
    expect(second?.nextAttemptAt.getTime()).toBe(ctx.clock.now().getTime() + 2 * MAIL_RETRY.baseDelayMs);

    smtp = await startSmtp(port);
    ctx.clock.advance(retryDelayMs(2));
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await outboxRow(ctx, id)).toMatchObject({
      status: 'sent',
      attempts: 3,
      payload: null,
      lastError: null,
    });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.subject).toMatch(/^Your verification code: \d{6}$/);
  });

  it('gives a mail up after the last attempt and keeps the error for the operator', async () => {
    await smtp?.close();
    smtp = undefined;
    const id = await enqueueMail(ctx.db, ctx.app.deps, {
      template: 'passwordChanged',
      locale: 'en',
      to: 'owner@example.com',
      params: {
        kind: 'change',
        at: ctx.clock.now().toISOString(),
        withdrawalLockedUntil: ctx.clock.now().toISOString(),
      },
    });
    for (let attempt = 1; attempt <= MAIL_RETRY.maxAttempts; attempt += 1) {
      const result = await drainOutbox(ctx.app.deps);
      expect(result).toEqual(
        attempt < MAIL_RETRY.maxAttempts
          ? { sent: 0, retried: 1, failed: 0 }
          : { sent: 0, retried: 0, failed: 1 },
      );
      ctx.clock.advance(retryDelayMs(attempt));
    }
    const row = await outboxRow(ctx, id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAIL_RETRY.maxAttempts });
    expect(row?.lastError).toBeTruthy();
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it('drops a code mail that could not leave within the code’s 10 minutes, and erases it', async () => {
    await requestCode(ctx, CodeModule.Register, nextEmail('late'));
    const id = (await lastOutboxRow(ctx))?.id ?? 0;
    await drainOutbox(ctx.app.deps);
    ctx.clock.advance(10 * 60_000 + 1000);
    expect(await drainOutbox(ctx.app.deps)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await outboxRow(ctx, id)).toMatchObject({ status: 'failed', payload: null });
  });

  it('backs off exponentially up to an hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20)).toBe(MAIL_RETRY.maxDelayMs);
  });
});

describe('two instances draining while the mail server is slow (found in review)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createAccountsTestApp();
  });
  afterAll(() => ctx.close());

  it('never sends a mail twice: a batch’s later mails are renewed before they are sent', async () => {
    const emails = [nextEmail('lease'), nextEmail('lease'), nextEmail('lease')];
    for (const email of emails) {
      expect(await requestCode(ctx, CodeModule.Register, email)).toMatchObject({ state: 0 });
    }
    const deps = ctx.app.deps;
    const transport = transportFor(deps, ctx.app.log);
    const send = transport.send.bind(transport);
    let sends = 0;
    let other = false;
    // This instance's mail server takes 50 s a mail: by the third, the batch's 2-minute lease has run
    // out, and the other instance drains meanwhile.
    (transport as { send: typeof transport.send }).send = async (mail) => {
      sends += 1;
      if (!other) {
        ctx.clock.advance(50_000);
        if (sends === 3) {
          other = true;
          await drainOutbox(deps);
          other = false;
        }
      }
      return send(mail);
    };
    try {
      await drainOutbox(deps);
    } finally {
      (transport as { send: typeof transport.send }).send = send;
    }
    for (const email of emails) {
      expect(
        devMailbox(deps)
          .list()
          .filter((mail) => mail.to === email),
      ).toHaveLength(1);
    }
  });
});
