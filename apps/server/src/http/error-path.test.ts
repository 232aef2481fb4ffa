import { Writable } from 'node:stream';
import { State } from '@elex/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { analyticsEvents } from '../db/schema.js';
import { createTestApp, openTestDatabase, post, testConfig } from '../test/test-app.js';

const SECRET_SQL = 'select * from secret_table where password_hash';

describe('the error path of /elex', () => {
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    ctx = await createTestApp();
    // A fault the code did not foresee: a driver error carrying the SQL it ran.
    ctx.app.post('/elex/__boom', async () => {
      throw new Error(`relation does not exist: ${SECRET_SQL}`);
    });
  });
  afterAll(() => ctx.close());

  describe('an unknown /elex path', () => {
    it.each([
      ['en', 'Not found'],
      ['zh', '未找到'],
      ['ko', '찾을 수 없습니다'],
    ])('answers HTTP 404 with state 1004 in the lang header’s language (%s)', async (lang, message) => {
      const res = await post(ctx.app, '/elex/user/noSuchCall', {}, { lang });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ state: State.NotFound, message, content: null });
    });

    it('answers in English when the lang header is absent or unknown', async () => {
      for (const headers of [{}, { lang: 'fr' }, { lang: 'zh-CN' }] as Array<Record<string, string>>) {
        const res = await post(ctx.app, '/elex/user/noSuchCall', {}, headers);
        expect(res.json()).toEqual({ state: State.NotFound, message: 'Not found', content: null });
      }
    });

    it('answers the envelope for GET as well, with no site configured', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/elex/user/noSuchCall',
        headers: { lang: 'ko' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ state: State.NotFound, message: '찾을 수 없습니다' });
    });
  });

  describe('a body the server cannot read', () => {
    it('answers malformed JSON with HTTP 400, a validation state and no internals', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/elex/track',
        payload: '{"event": "page_view", "page": ',
        headers: { 'content-type': 'application/json', lang: 'en' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        state: State.ValidationFailed,
        message: 'body: invalid value',
        content: null,
      });
      expect(res.body).not.toMatch(/stack|at .*\.js|Unexpected end|FST_/i);
    });

    it('translates the validation message', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/elex/track',
        payload: '{oops',
        headers: { 'content-type': 'application/json', lang: 'zh' },
      });
      expect(res.json()).toMatchObject({ state: State.ValidationFailed, message: 'body：值无效' });
    });

    it('says a field is required only when it is missing, and invalid when it has the wrong type', async () => {
      const missing = await post(ctx.app, '/elex/track', { event: 'page_view' });
      expect(missing.json()).toMatchObject({
        state: State.ValidationFailed,
        message: 'page: this field is required',
      });
      const wrongType = await post(ctx.app, '/elex/track', { event: 'page_view', page: 42 });
      expect(wrongType.json()).toMatchObject({
        state: State.ValidationFailed,
        message: 'page: invalid value',
      });
    });
  });

  describe('a form-encoded body (spec: the default content type)', () => {
    it('is accepted on /elex/track and stored like JSON', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/elex/track',
        payload: 'event=Login_success&page=%2Flogin&channel=telegram',
        headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'zh' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ state: State.Success, message: '成功', content: null });
      const rows = await ctx.db.select().from(analyticsEvents);
      expect(rows).toContainEqual(
        expect.objectContaining({
          event: 'Login_success',
          page: '/login',
          channel: 'telegram',
          locale: 'zh',
        }),
      );
    });

    it('accepts the client time, which form encoding sends as text', async () => {
      const time = Date.UTC(2026, 0, 2, 3, 4, 5);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/elex/track',
        payload: `event=page_view&page=%2Fcalculator&time=${time}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.json()).toMatchObject({ state: State.Success });
      const rows = await ctx.db.select().from(analyticsEvents);
      expect(rows.find((row) => row.page === '/calculator')?.clientTime?.getTime()).toBe(time);
    });
  });

  describe('an unexpected fault', () => {
    it.each([
      ['en', 'Error'],
      ['zh', '错误'],
      ['ko', '오류'],
    ])('answers HTTP 500, state 1500 and the generic message (%s)', async (lang, message) => {
      const res = await post(ctx.app, '/elex/__boom', {}, { lang });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ state: State.ServerError, message, content: null });
    });

    it('never shows the stack or the SQL to the client', async () => {
      const res = await post(ctx.app, '/elex/__boom');
      expect(res.body).not.toContain('select');
      expect(res.body).not.toContain('secret');
      expect(res.body).not.toContain('relation');
      expect(res.body).not.toMatch(/error-path\.test|\bat\s|stack/i);
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('headers on every answer', () => {
    const calls: Array<[string, () => Promise<LightMyRequestResponse>]> = [
      ['a success', () => post(ctx.app, '/elex/track', { event: 'page_view', page: '/' })],
      ['a validation failure', () => post(ctx.app, '/elex/track', {})],
      ['a not-found', () => post(ctx.app, '/elex/nope')],
      [
        'an unreadable body',
        () =>
          ctx.app.inject({
            method: 'POST',
            url: '/elex/track',
            payload: '{',
            headers: { 'content-type': 'application/json' },
          }),
      ],
      ['a fault', () => post(ctx.app, '/elex/__boom')],
      ['the health check', () => ctx.app.inject({ method: 'GET', url: '/healthz' })],
    ];

    it.each(calls)('%s carries a request id', async (_label, call) => {
      const res = await call();
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    });

    it('gives each request its own id', async () => {
      const first = await post(ctx.app, '/elex/nope');
      const second = await post(ctx.app, '/elex/nope');
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it.each(calls)(
      '%s carries the security headers of an answer that is not a page',
      async (_label, call) => {
        const res = await call();
        const csp = String(res.headers['content-security-policy']);
        // Nothing may run or frame it, should a browser open it on its own (decisions.md).
        expect(csp.split(';')).toEqual(["default-src 'none'", "frame-ancestors 'none'"]);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      },
    );
  });

  it('GET /healthz answers ok with the database it reached', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      // Not measured yet: main starts the clock watch, a test app does not.
      clock: null,
    });
  });
});

describe('the log of an unexpected fault', () => {
  it('records the error, its stack and the request id the client was given', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const database = await openTestDatabase();
    const app = await buildApp({ config: testConfig({ logLevel: 'info' }), database, logStream });
    try {
      app.post('/elex/__boom', async () => {
        throw new Error(`relation does not exist: ${SECRET_SQL}`);
      });
      const res = await post(app, '/elex/__boom');
      expect(res.statusCode).toBe(500);

      const fault = lines.find((line) => line.msg === 'unexpected fault');
      expect(fault).toMatchObject({ level: 50, reqId: res.headers['x-request-id'] });
      const err = fault?.err as { message?: string; stack?: string } | undefined;
      expect(err?.message).toContain(SECRET_SQL);
      expect(err?.stack).toContain('error-path.test');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
