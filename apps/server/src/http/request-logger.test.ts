import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { DatabaseHandle } from '../db/client.js';
import { openTestDatabase, post, testConfig } from '../test/test-app.js';

type LogLine = Record<string, unknown>;

/** The app's log as an operator reads it, one parsed line per entry. */
async function appLoggingAt(database: DatabaseHandle, logLevel: 'info' | 'warn') {
  const lines: LogLine[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await buildApp({ config: testConfig({ logLevel }), database, logStream });
  app.post('/elex/__boom', async (request) => {
    request.log.warn({ step: 'before the fault' }, 'about to fail');
    throw new Error('boom');
  });
  return { app, lines };
}

describe("a request's log lines", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('at info, the access log names each request by the id its answer carries', async () => {
    const { app, lines } = await appLoggingAt(database, 'info');
    try {
      const res = await post(app, '/elex/exchange/index');
      const reqId = res.headers['x-request-id'];
      const ofRequest = lines.filter((line) => line.reqId === reqId);
      expect(ofRequest.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      expect(ofRequest[0]).toMatchObject({ level: 30, req: { method: 'POST', url: '/elex/exchange/index' } });
      expect(ofRequest[1]).toMatchObject({ level: 30, res: { statusCode: 200 } });
    } finally {
      await app.close();
    }
  });

  it("at info, the access log leaves out an export link's one-time token", async () => {
    const { app, lines } = await appLoggingAt(database, 'info');
    try {
      // A link that is not (or no longer) valid is logged the same way as one that downloads.
      const token = 'a'.repeat(43);
      const res = await app.inject({ method: 'GET', url: `/elex/admin/exports/download/${token}?lang=zh` });
      expect(res.statusCode).toBe(410);
      const reqId = res.headers['x-request-id'];
      const ofRequest = lines.filter((line) => line.reqId === reqId);
      expect(ofRequest.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
      expect(ofRequest[0]).toMatchObject({
        req: { method: 'GET', url: '/elex/admin/exports/download/[token]?lang=zh' },
      });
      expect(JSON.stringify(lines)).not.toContain(token);
      // Other URLs are logged as they came.
      await app.inject({ method: 'GET', url: '/elex/admin/exports/downloads?x=1' });
      expect(lines.at(-2)).toMatchObject({ req: { url: '/elex/admin/exports/downloads?x=1' } });
    } finally {
      await app.close();
    }
  });

  it('at warn, writes no access log, and a warning and a fault still carry the request id', async () => {
    const { app, lines } = await appLoggingAt(database, 'warn');
    try {
      await post(app, '/elex/exchange/index');
      expect(
        lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed'),
      ).toEqual([]);
      const res = await post(app, '/elex/__boom');
      expect(res.statusCode).toBe(500);
      const reqId = res.headers['x-request-id'];
      expect(lines.filter((line) => line.reqId === reqId).map((line) => [line.level, line.msg])).toEqual([
        [40, 'about to fail'],
        [50, 'unexpected fault'],
      ]);
      expect(lines.find((line) => line.msg === 'about to fail')).toMatchObject({ step: 'before the fault' });
    } finally {
      await app.close();
    }
  });
});
