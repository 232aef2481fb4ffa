import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import { State } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type Config, ConfigError, loadConfig } from '../../config.js';
import { AUTH_RATE_LIMIT, SESSION_PASSWORD_CHECKS } from '../../http/rate-limits.js';
import { testConfig } from '../../test/test-app.js';
import {
  call,
  createAccountsTestApp,
  logIn,
  NEW_PASSWORD,
  nextEmail,
  nextIp,
  PASSWORD,
  signUp,
  type TestContext,
} from './test-support.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
});
afterAll(() => ctx.close());

/** Another app on the test database, with other settings (another instance, as in production). */
async function instance(overrides: Partial<Config>): Promise<FastifyInstance> {
  return buildApp({
    config: testConfig(overrides),
    database: { db: ctx.db, kind: ctx.app.deps.databaseKind, close: async () => {} },
    clock: ctx.clock,
    logger: false,
  });
}

function verifyEmail(app: FastifyInstance, ip: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/elex/user/verifyEmail',
    payload: { email: nextEmail() },
    headers: { 'content-type': 'application/json', ...headers },
    remoteAddress: ip,
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the client address the limits count', () => {
  it('ignores X-Forwarded-For from a client by default, so a forged header does not escape the limit', async () => {
    const ip = nextIp();
    for (let i = 0; i < AUTH_RATE_LIMIT.max; i += 1) {
      await verifyEmail(ctx.app, ip, { 'x-forwarded-for': nextIp() });
    }
    const res = await verifyEmail(ctx.app, ip, { 'x-forwarded-for': nextIp() });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ state: State.TooManyRequests });
  });

  it('counts the forwarded address behind a trusted proxy (TRUST_PROXY lists it)', async () => {
    const proxy = nextIp();
    const app = await instance({ trustProxy: proxy });
    try {
      const client = nextIp();
      for (let i = 0; i < AUTH_RATE_LIMIT.max; i += 1) {
        expect((await verifyEmail(app, proxy, { 'x-forwarded-for': client })).statusCode).toBe(200);
      }
      expect((await verifyEmail(app, proxy, { 'x-forwarded-for': client })).statusCode).toBe(429);
      expect((await verifyEmail(app, proxy, { 'x-forwarded-for': nextIp() })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

describe.skipIf(!hasRedis)('with REDIS_URL', () => {
  let redis: ChildProcess;
  let redisUrl: string;
  beforeAll(async () => {
    const port = await freePort();
    redisUrl = `redis://127.0.0.1:${port}`;
    redis = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    await new Promise<void>((resolve, reject) => {
      redis.stdout?.on('data', (chunk: Buffer) => {
        if (String(chunk).includes('Ready to accept connections')) resolve();
      });
      redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    });
  });
  afterAll(() => {
    redis?.kill();
  });

  it('shares the counters between instances', async () => {
    const [first, second] = [await instance({ redisUrl }), await instance({ redisUrl })];
    try {
      const ip = nextIp();
      for (let i = 0; i < AUTH_RATE_LIMIT.max; i += 1) {
        expect((await verifyEmail(i % 2 === 0 ? first : second, ip)).statusCode).toBe(200);
      }
      const refused = await verifyEmail(second, ip, { lang: 'ko' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        state: State.TooManyRequests,
        message: '요청이 너무 많습니다. 잠시 후 다시 시도해 주세요',
        content: null,
      });
      expect((await verifyEmail(first, ip)).statusCode).toBe(429);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('with REDIS_URL pointing at nothing', () => {
  it('still answers, and still limits: this process counts instead of Redis', async () => {
    const app = await instance({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    try {
      const ip = nextIp();
      const res = await verifyEmail(app, ip);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ state: 0, content: { hasEmail: false } });
      for (let i = 1; i < AUTH_RATE_LIMIT.max; i += 1)
        expect((await verifyEmail(app, ip)).statusCode).toBe(200);
      expect((await verifyEmail(app, ip)).json()).toMatchObject({ state: State.TooManyRequests });
      // Another address has its own count.
      expect((await verifyEmail(app, nextIp())).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('configuration', () => {
  it('trusts no proxy unless told, and takes TRUST_PROXY as true, false or addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(() => loadConfig({ TRUST_PROXY: 'a b' })).toThrow(ConfigError);
  });

  it('reads REDIS_URL, and refuses another scheme', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://cache.internal:6379/0' }).redisUrl).toBe(
      'redis://cache.internal:6379/0',
    );
    expect(() => loadConfig({ REDIS_URL: 'http://cache.internal' })).toThrow(/REDIS_URL/);
  });
});

describe('the calls that check a signed-in member’s password', () => {
  it('limit guesses per address: a stolen session cannot try passwords without end', async () => {
    // Sessions enough that none reaches its own bound (SESSION_PASSWORD_CHECKS, below): the address's counts.
    const guessing = [await signUp(ctx), await signUp(ctx)];
    const token = await signUp(ctx);
    for (const [url, body] of [
      ['/elex/user/updatePass', { oldPasswd: 'Wrong#Guess1', passwd: 'Another#Pass2' }],
      ['/elex/user/deleteAccount', { passwd: 'Wrong#Guess1', forfeitTotal: '0.000000' }],
    ] as const) {
      const ip = nextIp();
      for (let guess = 0; guess < AUTH_RATE_LIMIT.max; guess += 1) {
        const from = guessing[guess % guessing.length];
        expect((await call(ctx, url, body, { token: from, ip })).json()).toMatchObject({
          state: State.Refused,
        });
      }
      const limited = await call(ctx, url, body, { token, ip });
      expect(limited.statusCode).toBe(429);
      // Not even the right password gets through from that address until the window passes.
      expect(
        (await call(ctx, url, { ...body, oldPasswd: PASSWORD, passwd: PASSWORD }, { token, ip })).statusCode,
      ).toBe(429);
    }
  });
});

describe('the password guesses of one session (found in review)', () => {
  it('are bounded however many addresses they come from; a new login starts afresh', async () => {
    const email = nextEmail();
    const token = await signUp(ctx, email);
    for (const [url, body] of [
      ['/elex/user/updatePass', { oldPasswd: 'Wrong#Guess1', passwd: 'Another#Pass2' }],
      ['/elex/user/deleteAccount', { passwd: 'Wrong#Guess1', forfeitTotal: '0.000000' }],
    ] as const) {
      // Each guess from another address, as a stolen token used through many proxies would be.
      for (let guess = 0; guess < SESSION_PASSWORD_CHECKS.max; guess += 1) {
        const answer = (await call(ctx, url, body, { token, ip: nextIp() })).json();
        expect(answer).toMatchObject({ state: State.Refused });
      }
      const limited = await call(ctx, url, body, { token, ip: nextIp() });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ state: State.TooManyRequests });
    }
    // The member, logged in again (which needs the mailbox's code), is not held by that session's count.
    const fresh = await logIn(ctx, email);
    const changed = await call(
      ctx,
      '/elex/user/updatePass',
      { oldPasswd: PASSWORD, passwd: NEW_PASSWORD },
      { token: fresh, ip: nextIp() },
    );
    expect(changed.json()).toMatchObject({ state: 0 });
  });
});
