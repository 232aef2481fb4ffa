import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, post } from '../test/test-app.js';

/** A page: what helmet sent with our options before issue 14 replaced it, the same names and values. */
const DOCUMENT = {
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
/** An API answer, an asset, a logo, the health check: OWASP's set for answers that are not pages. */
const RESOURCE = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};
const PAGE_ONLY = Object.keys(DOCUMENT).filter((name) => !(name in RESOURCE));
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
    fs.mkdirSync(path.join(tmp, 'logos'));
    fs.writeFileSync(path.join(tmp, 'logos', 'x.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    ctx = await createTestApp({ webDist: tmp, env });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  type Call = () => ReturnType<typeof post>;
  const pages: Array<[string, Call]> = [
    ['a page', () => ctx.app.inject({ method: 'GET', url: '/mypage' })],
    ['the home page', () => ctx.app.inject({ method: 'GET', url: '/' })],
    ['a page with a query', () => ctx.app.inject({ method: 'GET', url: '/exchangeDetail?id=1' })],
    ['an unknown file at the root', () => ctx.app.inject({ method: 'GET', url: '/nope.txt' })],
  ];
  const resources: Array<[string, Call]> = [
    ['a drawn logo', () => ctx.app.inject({ method: 'GET', url: '/logos/x.svg' })],
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

  it.each(pages)('%s carries every header helmet sent, with its value', async (_label, call) => {
    const res = await call();
    expect(res.headers).toMatchObject(DOCUMENT);
    expect(res.headers['strict-transport-security']).toBe(hasHsts ? HSTS : undefined);
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });

  it.each(resources)(
    '%s carries the set for answers that are not pages, and no more',
    async (_label, call) => {
      const res = await call();
      expect(res.headers).toMatchObject(RESOURCE);
      for (const name of PAGE_ONLY) expect(res.headers[name], name).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBe(hasHsts ? HSTS : undefined);
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    },
  );
});
