import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPartnerCatalog } from '../db/seed/seed-catalog.js';
import { createTestApp } from '../test/test-app.js';

// A script as the web build leaves it: large enough to compress, with .br and .gz beside it.
const APP_JS = `export const routes = [${Array.from({ length: 400 }, (_, i) => `"/page-${i}"`).join(',')}];\n`;
const NEW_JS = APP_JS.replace('page-0', 'page-zero');
// Quality 5, not the server's 11: bytes the server would not produce itself, so an answer equal to
// them proves the sibling was sent rather than compressed on the fly.
const APP_JS_BR = zlib.brotliCompressSync(APP_JS, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
const APP_JS_GZ = zlib.gzipSync(APP_JS, { level: 1 });
const INDEX_HTML = `<!doctype html><html><head><title>Elex</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}</body></html>`;
const LOGO_PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request over a real socket, bytes as sent (no client-side decompression). */
function request(origin: string, url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = http.request(`${origin}${url}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

function decode(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body).toString();
  expect(encoding).toBeUndefined();
  return answer.body.toString();
}

describe('content negotiation of the built site, over HTTP', () => {
  let tmp: string;
  let origin: string;
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-negotiation-'));
    const assets = path.join(tmp, 'assets');
    fs.mkdirSync(assets, { recursive: true });
    fs.writeFileSync(path.join(tmp, 'index.html'), INDEX_HTML);
    fs.writeFileSync(path.join(assets, 'app-abc123.js'), APP_JS);
    fs.writeFileSync(path.join(assets, 'app-abc123.js.br'), APP_JS_BR);
    fs.writeFileSync(path.join(assets, 'app-abc123.js.gz'), APP_JS_GZ);
    fs.writeFileSync(path.join(assets, 'logo-abc123.png'), LOGO_PNG);
    // Siblings left from an older build: older than their file, so they may not match it.
    fs.writeFileSync(path.join(assets, 'new-abc123.js.br'), APP_JS_BR);
    fs.writeFileSync(path.join(assets, 'new-abc123.js.gz'), APP_JS_GZ);
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(assets, 'new-abc123.js.br'), past, past);
    fs.utimesSync(path.join(assets, 'new-abc123.js.gz'), past, past);
    fs.writeFileSync(path.join(assets, 'new-abc123.js'), NEW_JS);
    ctx = await createTestApp({ webDist: tmp });
    await seedPartnerCatalog(ctx.db);
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await ctx.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('sends the brotli file the build wrote to a browser that takes brotli', async () => {
    const res = await request(origin, '/assets/app-abc123.js', {
      'accept-encoding': 'gzip, deflate, br, zstd',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.equals(APP_JS_BR)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(APP_JS_BR.length);
  });

  it('sends the gzip file to a client that takes only gzip', async () => {
    const res = await request(origin, '/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.body.equals(APP_JS_GZ)).toBe(true);
  });

  it.each([
    ['no Accept-Encoding', undefined],
    ['only unknown codings', 'zstd, compress'],
    ['every offered coding refused', 'br;q=0, gzip;q=0'],
    ['identity asked for', 'identity'],
  ])('sends the plain file for %s, still saying it varies', async (_label, acceptEncoding) => {
    const res = await request(
      origin,
      '/assets/app-abc123.js',
      acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.body.toString()).toBe(APP_JS);
  });

  it.each([
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.8, br;q=0.9', 'br'],
    ['*', 'br'],
    ['gzip, *;q=0.1', 'gzip'],
  ])('follows the client’s q-values: %s gets %s', async (acceptEncoding, expected) => {
    const res = await request(origin, '/assets/app-abc123.js', { 'accept-encoding': acceptEncoding });
    expect(res.headers['content-encoding']).toBe(expected);
    expect(decode(res)).toBe(APP_JS);
  });

  it('answers 304 without a body when the client holds the same representation', async () => {
    const first = await request(origin, '/assets/app-abc123.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await request(origin, '/assets/app-abc123.js', {
        'accept-encoding': 'br',
        'if-none-match': ifNoneMatch,
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers.vary).toBe('accept-encoding');
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('gives each coding its own ETag, so a cached gzip copy does not answer for brotli', async () => {
    const etags = new Set<string>();
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const res = await request(origin, '/assets/app-abc123.js', { 'accept-encoding': acceptEncoding });
      etags.add(String(res.headers.etag));
    }
    expect(etags.size).toBe(3);
    const gzipEtag = (await request(origin, '/assets/app-abc123.js', { 'accept-encoding': 'gzip' })).headers
      .etag;
    const asBrotli = await request(origin, '/assets/app-abc123.js', {
      'accept-encoding': 'br',
      'if-none-match': String(gzipEtag),
    });
    expect(asBrotli.status).toBe(200);
    expect(asBrotli.body.equals(APP_JS_BR)).toBe(true);
  });

  it('answers HEAD with the headers and length of the chosen coding and no body', async () => {
    const res = await request(origin, '/assets/app-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(APP_JS_BR.length);
    expect(res.body.length).toBe(0);
  });

  it('ignores siblings older than their file and compresses the new file itself', async () => {
    for (const acceptEncoding of ['br', 'gzip']) {
      const res = await request(origin, '/assets/new-abc123.js', { 'accept-encoding': acceptEncoding });
      expect(res.headers['content-encoding']).toBe(acceptEncoding);
      expect(decode(res)).toBe(NEW_JS);
    }
  });

  it('does not list the siblings as files of their own', async () => {
    const res = await request(origin, '/assets/app-abc123.js.br');
    expect(res.status).toBe(404);
  });

  it('sends an image as it is, with nothing to vary on', async () => {
    const res = await request(origin, '/assets/logo-abc123.png', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.equals(LOGO_PNG)).toBe(true);
  });

  it.each(['/', '/index.html', '/mypage/records'])(
    'sends the page %s compressed, revalidated, and 304 when unchanged',
    async (url) => {
      const res = await request(origin, url, { 'accept-encoding': 'br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(decode(res)).toBe(INDEX_HTML);
      const again = await request(origin, url, {
        'accept-encoding': 'br',
        'if-none-match': String(res.headers.etag),
      });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    },
  );

  it('sends the cached exchange list compressed per coding, the same JSON in each', async () => {
    const headers = { 'content-type': 'application/json', lang: 'en' };
    const plain = await request(origin, '/elex/exchange/index', headers, 'POST');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const json = JSON.parse(plain.body.toString()) as { state: number; content: { allExchange: unknown[] } };
    expect(json.state).toBe(0);
    expect(json.content.allExchange.length).toBeGreaterThan(0);
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const coding of ['br', 'gzip']) {
      const res = await request(
        origin,
        '/elex/exchange/index',
        { ...headers, 'accept-encoding': coding },
        'POST',
      );
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.body.length).toBeLessThan(plain.body.length);
      expect(decode(res)).toBe(plain.body.toString());
    }
    const unknown = await request(
      origin,
      '/elex/exchange/index',
      { ...headers, 'accept-encoding': 'zstd' },
      'POST',
    );
    expect(unknown.headers['content-encoding']).toBeUndefined();
    expect(unknown.body.toString()).toBe(plain.body.toString());
  });
});
