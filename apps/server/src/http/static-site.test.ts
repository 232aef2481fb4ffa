import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { State } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.js';

const INDEX_HTML =
  '<!doctype html><html><head><title>Elex</title></head><body><div id="root"></div></body></html>';
// Larger than the compression threshold, like any real bundle.
const APP_JS = `export const routes = [${Array.from({ length: 200 }, (_, i) => `"/page-${i}"`).join(',')}];\n`;

const MANIFEST = '{"src/main.tsx":{"file":"assets/app-abc123.js"}}';
const FONT = Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3]);

/**
 * A built site as Vite lays it out: index.html at the root, hashed chunks under assets/ (some a
 * folder deeper), and the build's manifest under .vite/, which is not for visitors.
 */
function writeSite(root: string) {
  fs.mkdirSync(path.join(root, 'assets', 'fonts'), { recursive: true });
  fs.mkdirSync(path.join(root, '.vite'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
  fs.writeFileSync(path.join(root, 'assets', 'app-abc123.js'), APP_JS);
  fs.writeFileSync(path.join(root, 'assets', 'fonts', 'inter-abc123.woff2'), FONT);
  fs.writeFileSync(path.join(root, '.vite', 'manifest.json'), MANIFEST);
}

describe('the built web app', () => {
  let tmp: string;
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    expect(Buffer.byteLength(APP_JS)).toBeGreaterThan(2048);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-web-'));
    writeSite(tmp);
    ctx = await createTestApp({ webDist: tmp });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('serves a hashed asset cached for a year as immutable', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(res.headers['cache-control']).toMatch(/immutable/);
    expect(res.body).toBe(APP_JS);
  });

  it('compresses an asset with gzip when the browser accepts it', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(APP_JS));
    expect(gunzipSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  it.each(['/some/deep/route', '/mypage/records', '/exchangeDetail?id=3', '/'])(
    'answers the page %s with index.html that is never cached stale',
    async (url) => {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX_HTML);
    },
  );

  it('serves index.html itself with no-cache', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/index.html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves pages with the security headers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/login' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('still answers an unknown /elex path with the not-found envelope', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/elex/unknown', headers: { lang: 'zh' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ state: State.NotFound, message: '未找到', content: null });
  });

  it('answers a POST to a page path with the not-found envelope, not the page', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/login', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ state: State.NotFound });
  });

  it('serves a file a folder deeper under assets/ as an immutable asset', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/fonts/inter-abc123.woff2' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(FONT);
    expect(res.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
  });

  it('never serves a file under a folder whose name starts with a dot', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(res.body).not.toContain('src/main.tsx');
  });

  it('answers a missing asset with 404, not index.html', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<!doctype html>');
    expect(res.headers['cache-control']).not.toMatch(/immutable/);
  });
});

describe('a web app built under a folder named assets', () => {
  let tmp: string;
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-web-'));
    const root = path.join(tmp, 'assets', 'dist');
    writeSite(root);
    ctx = await createTestApp({ webDist: root });
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('still never caches index.html, so a new release reaches users', async () => {
    for (const url of ['/index.html', '/some/route']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches the hashed assets for a year', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
  });
});
