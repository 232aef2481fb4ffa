import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, post } from '../test/test-app.js';

/** What helmet sent with our options before issue 14 replaced it: the same names and values. */
const EXPECTED = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
    "font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';" +
    "frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const HSTS = 'max-age=31536000; includeSubDomains';

describe.each([
  ['production', true],
  ['test', false],
] as const)('the security headers with NODE_ENV=%s', (env, hasHsts) => {
  let tmp: string;
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-headers-'));
    fs.mkdirSync(path.join(tmp, 'assets'));
    fs.writeFileSync(path.join(tmp, 'index.html'), '<!doctype html><title>Elex</title>');
    fs.writeFileSync(path.join(tmp, 'assets', 'app-abc123.js'), 'export {};\n');
    ctx = await createTestApp({ webDist: tmp, env });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const answers: Array<[string, () => ReturnType<typeof post>]> = [
    ['a page', () => ctx.app.inject({ method: 'GET', url: '/mypage' })],
    ['an asset', () => ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' })],
    ['a cached API answer', () => post(ctx.app, '/elex/exchange/index')],
    ['an API refusal', () => post(ctx.app, '/elex/user/myInfo')],
    ['an unknown call', () => post(ctx.app, '/elex/nope')],
    ['the health check', () => ctx.app.inject({ method: 'GET', url: '/healthz' })],
    [
      'a 304',
      async () => {
        const first = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/assets/app-abc123.js',
          headers: { 'if-none-match': String(first.headers.etag) },
        });
        expect(res.statusCode).toBe(304);
        return res;
      },
    ],
  ];

  it.each(answers)('%s carries every header helmet sent, with its value', async (_label, call) => {
    const res = await call();
    expect(res.headers).toMatchObject(EXPECTED);
    expect(res.headers['strict-transport-security']).toBe(hasHsts ? HSTS : undefined);
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });
});
