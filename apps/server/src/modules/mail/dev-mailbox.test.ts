import { Writable } from 'node:stream';
import { CodeModule } from '@elex/contract';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { startOutboxWorker } from '../../jobs/outbox-worker.js';
import { testConfig } from '../../test/test-app.js';
import {
  createAccountsTestApp,
  nextEmail,
  readCode,
  requestCode,
  type TestContext,
} from '../auth/test-support.js';
import { drainOutbox } from './outbox.js';
import { devMailbox } from './transport.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
});
afterAll(() => ctx.close());

describe('without SMTP_URL: the development mailbox', () => {
  afterEach(() => devMailbox(ctx.app.deps).clear());

  it('logs that a mail was kept at info, and the code only at debug', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const email = nextEmail('log');
    await requestCode(ctx, CodeModule.Register, email);
    await drainOutbox(ctx.app.deps, { log: pino({ level: 'debug' }, stream) });
    const code = await readCode(ctx, email);
    const info = lines.filter((line) => line.level === 30);
    const debug = lines.filter((line) => line.level === 20);
    expect(info.some((line) => line.msg === 'mail kept in the development mailbox (no SMTP_URL)')).toBe(true);
    expect(JSON.stringify(info)).not.toContain(code);
    expect(JSON.stringify(info)).not.toContain(email);
    expect(JSON.stringify(debug)).toContain(code);
  });

  it('lists mails newest first at GET /dev/mailbox.json, with both parts', async () => {
    const first = nextEmail('box');
    const second = nextEmail('box');
    await requestCode(ctx, CodeModule.Register, first);
    await requestCode(ctx, CodeModule.Register, second, { lang: 'ko' });
    await drainOutbox(ctx.app.deps);
    const res = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(res.statusCode).toBe(200);
    const { mails } = res.json() as { mails: Array<Record<string, string>> };
    expect(mails.map((mail) => mail.to)).toEqual([second, first]);
    expect(mails[0]).toMatchObject({
      subject: expect.stringMatching(/^인증 코드: \d{6}$/),
      text: expect.stringContaining('Elex 캐시백'),
      html: expect.stringContaining('<html lang="ko">'),
      template: 'verificationCode',
    });
  });

  it('shows them as an HTML page at GET /dev/mailbox, escaped', async () => {
    const email = nextEmail('page');
    await requestCode(ctx, CodeModule.Register, email);
    await drainOutbox(ctx.app.deps);
    const res = await ctx.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Development mailbox');
    expect(res.body).toContain(email);
    expect(res.body).toMatch(/Your verification code: \d{6}/);
    expect(res.body).toContain('srcdoc="&lt;!doctype html&gt;');
  });

  it('keeps the last 50', async () => {
    const mailbox = devMailbox(ctx.app.deps);
    for (let i = 0; i < 60; i += 1) {
      mailbox.add({
        to: `n${i}@example.com`,
        from: 'x',
        subject: `s${i}`,
        text: '',
        html: '',
        template: 't',
        at: '',
      });
    }
    expect(mailbox.list()).toHaveLength(50);
    expect(mailbox.list()[0]?.subject).toBe('s59');
    expect(mailbox.list()[49]?.subject).toBe('s10');
  });
});

describe('in production', () => {
  it.each(['/dev/mailbox', '/dev/mailbox.json'])('%s does not exist', async (url) => {
    // A second app on the same database, configured for production.
    const app = await buildApp({
      config: testConfig({ env: 'production' }),
      database: { db: ctx.db, kind: ctx.app.deps.databaseKind, close: async () => {} },
      logger: false,
    });
    try {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('mailbox');
    } finally {
      await app.close();
    }
  });
});

describe('the outbox worker', () => {
  it('sends queued mail on its own until stopped', async () => {
    const worker = startOutboxWorker(ctx.app.deps, { log: pino({ level: 'silent' }), intervalMs: 10 });
    try {
      const email = nextEmail('worker');
      await requestCode(ctx, CodeModule.Register, email);
      await expect
        .poll(
          () =>
            devMailbox(ctx.app.deps)
              .list()
              .filter((mail) => mail.to === email).length,
          { timeout: 5_000 },
        )
        .toBe(1);
    } finally {
      await worker.stop();
    }
    // Stopped: a new mail stays queued.
    const later = nextEmail('after-stop');
    await requestCode(ctx, CodeModule.Register, later);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      devMailbox(ctx.app.deps)
        .list()
        .some((mail) => mail.to === later),
    ).toBe(false);
  });
});
