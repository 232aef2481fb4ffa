import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { DatabaseHandle } from '../db/client.js';
import { seedPartnerCatalog } from '../db/seed/seed-catalog.js';
import { ManualClock } from '../lib/clock.js';
import { openTestDatabase, testConfig } from '../test/test-app.js';
import { HOT_ROUTE_HOOKS } from './hot-answers.js';

/**
 * The hot answers (hot-answers.ts) against Fastify's own: two production apps on one database, one
 * with the hot path and one without, on real ports (inject would bypass the server's listener).
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function call(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ port, method, path: url, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * `METHOD /path` -> hook kind -> the hooks' names, read from printRoutes' radix tree: a node's line is
 * its path segment after its parent's (`└── / (GET)`, then `    ├── elex/exchange/index (POST)` one
 * level deeper), a line of the same depth and segment under it adds a method (`        index.html
 * (HEAD)`), and its hooks follow (`│   • (onRequest) [...]`).
 */
function routeHooks(tree: string): Map<string, Record<string, string[]>> {
  const routes = new Map<string, Record<string, string[]>>();
  const segments: string[] = [];
  let current: Record<string, string[]> | undefined;
  for (const line of tree.split('\n')) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook?.[1] && hook[2]) {
      if (current) current[hook[1]] = JSON.parse(hook[2]) as string[];
      continue;
    }
    const node = /^([│├└─ ]*)(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!node?.[2] || !node[3]) {
      current = undefined;
      continue;
    }
    const depth = Math.floor((node[1]?.length ?? 0) / 4);
    segments.length = depth;
    segments[depth] = node[2];
    current = {};
    for (const method of node[3].split(', ')) routes.set(`${method} ${segments.join('')}`, current);
  }
  return routes;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Everything but the date and the request id's value (a UUID on both). */
function comparable(answer: Answer) {
  const { date: _date, 'x-request-id': id, ...headers } = answer.headers;
  expect(id).toMatch(UUID);
  return { status: answer.status, headers, body: answer.body.toString('base64') };
}

const INDEX = '/elex/exchange/index';
const JSON_CALL = { 'content-type': 'application/json' };

describe('hot answers before the router', () => {
  let tmp: string;
  let database: DatabaseHandle;
  const clock = new ManualClock();
  const lines: string[] = [];
  let hot: FastifyInstance;
  let plain: FastifyInstance;
  let hotPort: number;
  let plainPort: number;
  /** Requests that reached Fastify on the hot app. */
  let reachedFastify = 0;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-hot-'));
    fs.writeFileSync(path.join(tmp, 'index.html'), '<!doctype html><title>Elex</title>');
    database = await openTestDatabase();
    await seedPartnerCatalog(database.db);
    const config = testConfig({ env: 'production', webDist: tmp, logLevel: 'info' });
    hot = await buildApp({
      config,
      database,
      clock,
      logStream: { write: (line) => lines.push(line) },
      hotAnswers: true,
    });
    hot.addHook('onRequest', (_request, _reply, done) => {
      reachedFastify += 1;
      done();
    });
    plain = await buildApp({ config, database, clock, logger: false, hotAnswers: false });
    await hot.listen({ port: 0, host: '127.0.0.1' });
    await plain.listen({ port: 0, host: '127.0.0.1' });
    hotPort = (hot.server.address() as AddressInfo).port;
    plainPort = (plain.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await hot?.close();
    await plain?.close();
    await database?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const warm = async () => {
    // The first call loads the catalog (through Fastify); index.html is read on its first request.
    for (const lang of ['zh', 'en', 'ko']) await call(plainPort, 'POST', INDEX, { ...JSON_CALL, lang }, '{}');
    await call(plainPort, 'GET', '/', {});
    await call(hotPort, 'GET', '/', {});
  };

  const encodings = [undefined, 'br', 'gzip', 'br;q=0, gzip'];
  it.each(['zh', 'en', 'ko'])(
    'sends the index in %s as Fastify does, in every coding, without Fastify',
    async (lang) => {
      await warm();
      for (const acceptEncoding of encodings) {
        const headers = {
          ...JSON_CALL,
          lang,
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        };
        const before = reachedFastify;
        const fast = await call(hotPort, 'POST', INDEX, headers, '{}');
        expect(reachedFastify, `${lang} ${acceptEncoding}`).toBe(before);
        const slow = await call(plainPort, 'POST', INDEX, headers, '{}');
        expect(comparable(fast), `${lang} ${acceptEncoding}`).toEqual(comparable(slow));
        // Without a body or a type, too.
        const bare = await call(hotPort, 'POST', INDEX, {
          lang,
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        });
        expect(reachedFastify).toBe(before);
        expect(comparable(bare)).toEqual(comparable(slow));
      }
      expect(
        JSON.parse((await call(hotPort, 'POST', INDEX, { ...JSON_CALL, lang }, '{}')).body.toString('utf8'))
          .content.allExchange.length,
      ).toBeGreaterThan(0);
    },
  );

  it('sends / and /index.html as Fastify does, with the 304 on a matching ETag', async () => {
    await warm();
    for (const url of ['/', '/index.html']) {
      for (const acceptEncoding of encodings) {
        const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
        const before = reachedFastify;
        const fast = await call(hotPort, 'GET', url, headers);
        const slow = await call(plainPort, 'GET', url, headers);
        expect(reachedFastify).toBe(before);
        expect(comparable(fast)).toEqual(comparable(slow));
        const etag = String(slow.headers.etag);
        const fast304 = await call(hotPort, 'GET', url, { ...headers, 'if-none-match': etag });
        const slow304 = await call(plainPort, 'GET', url, { ...headers, 'if-none-match': etag });
        expect(fast304.status).toBe(304);
        expect(reachedFastify).toBe(before);
        expect(comparable(fast304)).toEqual(comparable(slow304));
      }
    }
  });

  it('keeps the request id a client sends, as Fastify does', async () => {
    await warm();
    const answer = await call(hotPort, 'POST', INDEX, { ...JSON_CALL, 'x-request-id': 'trace-1' }, '{}');
    expect(answer.headers['x-request-id']).toBe('trace-1');
  });

  it('writes the access log lines Fastify writes', async () => {
    await warm();
    lines.length = 0;
    const before = reachedFastify;
    const answer = await call(hotPort, 'POST', INDEX, { ...JSON_CALL, lang: 'ko' }, '{}');
    expect(reachedFastify).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = lines.map((line) => JSON.parse(line));
    const id = answer.headers['x-request-id'];
    expect(logged).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: id,
        msg: 'incoming request',
        req: expect.objectContaining({
          method: 'POST',
          url: INDEX,
          host: `localhost:${hotPort}`,
          remoteAddress: '127.0.0.1',
        }),
      }),
      expect.objectContaining({
        level: 30,
        reqId: id,
        msg: 'request completed',
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    // The same fields as a request Fastify answers.
    lines.length = 0;
    await call(hotPort, 'POST', '/elex/exchange/detail', { ...JSON_CALL, lang: 'ko' }, '{"platId":1}');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const viaFastify = lines.map((line) => JSON.parse(line));
    expect(Object.keys(viaFastify[0]).sort()).toEqual(Object.keys(logged[0]).sort());
    expect(Object.keys(viaFastify[0].req).sort()).toEqual(Object.keys(logged[0].req).sort());
    expect(Object.keys(viaFastify.at(-1)).sort()).toEqual(Object.keys(logged[1]).sort());
  });

  it('leaves a malformed body, another method and an encoded body to Fastify', async () => {
    await warm();
    const cases: Array<[string, string, Record<string, string>, string | undefined, number]> = [
      ['POST', INDEX, JSON_CALL, '{', 400],
      ['POST', INDEX, JSON_CALL, '{"a":1}', 200],
      ['POST', INDEX, { 'content-type': 'text/plain' }, 'x', 200],
      ['POST', INDEX, { ...JSON_CALL, 'content-encoding': 'gzip' }, '{}', 400],
      ['POST', INDEX, JSON_CALL, '', 400],
      ['HEAD', '/', {}, undefined, 200],
      ['OPTIONS', INDEX, {}, undefined, 404],
      ['GET', '/?x=1', {}, undefined, 200],
    ];
    for (const [method, url, headers, body, status] of cases) {
      const before = reachedFastify;
      const fast = await call(hotPort, method, url, headers, body);
      const slow = await call(plainPort, method, url, headers, body);
      expect(reachedFastify, `${method} ${url} ${body}`).toBe(before + 1);
      expect(fast.status, `${method} ${url} ${body}`).toBe(status);
      expect(comparable(fast)).toEqual(comparable(slow));
    }
  });

  it('answers only routes whose every hook it copies', () => {
    // Fastify's own account of what it would run on each route answered before the router.
    const hooks = routeHooks(plain.printRoutes({ includeHooks: true, commonPrefix: false }));
    for (const [route, expected] of Object.entries(HOT_ROUTE_HOOKS)) {
      expect(
        hooks.get(route),
        `${route}: copy the new hook in hot-answers.ts or leave the route to Fastify`,
      ).toEqual(expected);
    }
  });

  it('leaves the index to Fastify when the catalog is stale', async () => {
    await warm();
    clock.advance(24 * 60 * 60 * 1000);
    const before = reachedFastify;
    const answer = await call(hotPort, 'POST', INDEX, { ...JSON_CALL, lang: 'en' }, '{}');
    expect(answer.status).toBe(200);
    expect(reachedFastify).toBe(before + 1);
    // Loaded again by that call: hot once more.
    await call(hotPort, 'POST', INDEX, { ...JSON_CALL, lang: 'en' }, '{}');
    expect(reachedFastify).toBe(before + 1);
  });
});
