import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from './adapter.js';
import { signBingx } from './bingx.js';
import { signBitget } from './bitget.js';
import { signBybit } from './bybit.js';
import { signGate } from './gate.js';
import {
  classifyError,
  createExchangeHttpClient,
  type ErrorCodes,
  ExchangeApiError,
  type HttpOptions,
  interpretEnvelope,
  type Signed,
  type SignInput,
} from './http.js';
import { signOkx } from './okx.js';

/**
 * The shared signed-request client on its own, against a bare node:http server: what it hands the
 * signing recipe, what it sends, which answers it retries and how long it waits. The adapters' suites
 * cover the same against each exchange's fake; this pins the common part down.
 */

const AT = 1_700_000_000_000; // 2023-11-14T22:13:20.000Z
const credentials: Credentials = { apiKey: 'test-key', apiSecret: 'test-secret', passphrase: 'pass' };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server answering each request with the next handler (the last one repeats). */
let server: Server | undefined;
async function serve(...handlers: ((response: ServerResponse) => void)[]) {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const handler = handlers[Math.min(seen.length, handlers.length) - 1];
      handler?.(response);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
afterEach(async () => {
  await new Promise<void>((resolve) => {
    server?.closeAllConnections();
    server?.close(() => resolve());
    if (!server) resolve();
  });
  server = undefined;
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
const ok = (data: unknown) => json(200, { code: '0', msg: '', data });

const API = {
  exchange: 'example',
  name: 'Example',
  baseUrl: 'https://example.invalid',
  rateLimit: { limit: 1000, intervalMs: 1000 },
  authHint: 'check EXAMPLE_API_KEY and EXAMPLE_API_SECRET',
  envelope: { code: 'code', message: 'msg', data: 'data', success: '0' },
  errors: {
    auth: new Set(['401001']),
    rateLimit: new Set(['429001']),
    server: new Set(['500001']),
  },
} as const;

function client(
  url: string,
  options: HttpOptions = {},
  sign: (input: SignInput) => Signed = () => ({ headers: {} }),
) {
  const sleeps: number[] = [];
  const http = createExchangeHttpClient({
    api: API,
    credentials: { ...credentials, baseUrl: url },
    sign,
    options: {
      retry: { attempts: 4, baseDelayMs: 4, maxDelayMs: 1000 },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      now: () => AT,
      ...options,
    },
  });
  return { http, sleeps };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => error as ExchangeApiError,
  );

describe('the signed request', () => {
  it('hands the recipe method, path, encoded query (in order, unset ones left out), body and clock', async () => {
    const { url, seen } = await serve(ok({ fine: true }));
    const inputs: SignInput[] = [];
    const { http } = client(url, {}, (input) => {
      inputs.push(input);
      return { headers: { 'X-SIGN': `signed ${input.timestamp}` } };
    });
    const data = await http.request({
      method: 'GET',
      path: '/v1/list',
      query: { b: 'x y', a: 1, skipped: undefined },
    });
    expect(data).toEqual({ fine: true });
    expect(inputs).toEqual([
      { method: 'GET', path: '/v1/list', query: 'b=x%20y&a=1', body: '', timestamp: AT },
    ]);
    expect(seen[0]?.url).toBe('/v1/list?b=x%20y&a=1');
    expect(seen[0]?.headers['x-sign']).toBe(`signed ${AT}`);
  });

  it('signs and sends a POST body as the same JSON text', async () => {
    const { url, seen } = await serve(ok([]));
    const inputs: SignInput[] = [];
    const { http } = client(url, {}, (input) => {
      inputs.push(input);
      return { headers: {} };
    });
    await http.request({ method: 'POST', path: '/v1/find', body: { uid: '1', pageNo: '1' } });
    expect(inputs[0]?.body).toBe('{"uid":"1","pageNo":"1"}');
    expect(seen[0]?.body).toBe(inputs[0]?.body);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('sends the query a recipe returns instead of the one it was given (BingX appends its signature)', async () => {
    const { url, seen } = await serve(ok(null));
    const { http } = client(url, {}, (input) => ({ query: `${input.query}&signature=abc`, headers: {} }));
    await http.request({ method: 'GET', path: '/v1/x', query: { uid: 7 } });
    expect(seen[0]?.url).toBe('/v1/x?uid=7&signature=abc');
  });
});

describe('each exchange’s signing recipe signs the documented string', () => {
  const hmac = (algorithm: string, text: string, encoding: 'hex' | 'base64') =>
    createHmac(algorithm, credentials.apiSecret).update(text).digest(encoding);
  const get = (path: string, query: string): SignInput => ({
    method: 'GET',
    path,
    query,
    body: '',
    timestamp: AT,
  });

  it('Bitget: timestamp + METHOD + path ? query + body, base64', () => {
    const signed = signBitget(get('/api/v2/broker/customer-commissions', 'startTime=1&limit=2'), credentials);
    expect(signed.headers['ACCESS-SIGN']).toBe(
      hmac('sha256', '1700000000000GET/api/v2/broker/customer-commissions?startTime=1&limit=2', 'base64'),
    );
    const post = signBitget(
      { method: 'POST', path: '/api/v2/broker/customer-list', query: '', body: '{"uid":"1"}', timestamp: AT },
      credentials,
    );
    expect(post.headers['ACCESS-SIGN']).toBe(
      hmac('sha256', '1700000000000POST/api/v2/broker/customer-list{"uid":"1"}', 'base64'),
    );
    expect(post.headers).toMatchObject({
      'ACCESS-KEY': 'test-key',
      'ACCESS-TIMESTAMP': '1700000000000',
      'ACCESS-PASSPHRASE': 'pass',
    });
    expect(post.query).toBeUndefined();
  });

  it('OKX: ISO timestamp + METHOD + requestPath with its query + body, base64', () => {
    const signed = signOkx(get('/api/v5/affiliate/invitee/detail', 'uid=1'), credentials);
    expect(signed.headers['OK-ACCESS-SIGN']).toBe(
      hmac('sha256', '2023-11-14T22:13:20.000ZGET/api/v5/affiliate/invitee/detail?uid=1', 'base64'),
    );
    expect(signed.headers['OK-ACCESS-TIMESTAMP']).toBe('2023-11-14T22:13:20.000Z');
  });

  it('Bybit: timestamp + apiKey + recvWindow + query string, hex', () => {
    const signed = signBybit(get('/v5/user/aff-customer-info', 'uid=1'), credentials);
    expect(signed.headers['X-BAPI-SIGN']).toBe(hmac('sha256', '1700000000000test-key5000uid=1', 'hex'));
    expect(signed.headers['X-BAPI-RECV-WINDOW']).toBe('5000');
  });

  it('Gate: METHOD, full path, query, SHA-512 of the body and seconds, one per line, HMAC-SHA512 hex', () => {
    const emptyBodyHash =
      'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e';
    const signed = signGate(get('/api/v4/rebate/user/sub_relation', 'user_id_list=1'), credentials);
    expect(signed.headers.SIGN).toBe(
      hmac(
        'sha512',
        `GET\n/api/v4/rebate/user/sub_relation\nuser_id_list=1\n${emptyBodyHash}\n1700000000`,
        'hex',
      ),
    );
    expect(signed.headers.Timestamp).toBe('1700000000');
  });

  it('BingX: parameters with timestamp and recvWindow sorted by name, signature appended, hex', () => {
    const signed = signBingx(
      get('/openApi/agent/v1/account/inviteRelationCheck', 'uid=1&pageIndex=2'),
      credentials,
    );
    const sorted = 'pageIndex=2&recvWindow=5000&timestamp=1700000000000&uid=1';
    expect(signed.query).toBe(`${sorted}&signature=${hmac('sha256', sorted, 'hex')}`);
    expect(signed.headers).toEqual({ 'X-BX-APIKEY': 'test-key' });
  });
});

describe('the rate limit', () => {
  // Real timers: the limiter (p-throttle) keeps its own clock. Only lower bounds are asserted, so a
  // slow machine cannot fail these; a limiter that lets requests through early does.
  const limit = 2;
  const intervalMs = 400;
  // The time is taken when the request signs, a few awaits after the limiter's slot: on a busy machine
  // an earlier request's signing can run tens of milliseconds late (5.7 ms seen once, then enough to
  // fail 15 ms of slack in the full suite at load 8), which shortens the gap measured after it. A
  // limiter that does not wait, or lets a third request into the window, misses by hundreds.
  const SLACK_MS = 100;
  /** When each attempt was let through: the recipe signs right after the limiter's slot. */
  function timedClient(url: string, options: HttpOptions = {}) {
    const startedAt: number[] = [];
    const result = client(url, { rateLimit: { limit, intervalMs }, ...options }, () => {
      startedAt.push(performance.now());
      return { headers: {} };
    });
    return { ...result, startedAt };
  }
  /** The gap between each attempt and the one `limit` places before it. */
  const gaps = (times: readonly number[]) =>
    times.slice(limit).map((time, index) => time - (times[index] ?? 0));

  it('lets at most 2 requests start in any 400 ms window, however many are asked at once', async () => {
    const { url, seen } = await serve(ok({ fine: true }));
    const { http, startedAt } = timedClient(url);
    const requests = Array.from({ length: 6 }, (_, index) =>
      http.request({ method: 'GET', path: '/v1/list', query: { page: index } }),
    );
    await Promise.all(requests);
    expect(seen).toHaveLength(6);
    expect(startedAt).toHaveLength(6);
    for (const gap of gaps(startedAt)) expect(gap).toBeGreaterThanOrEqual(intervalMs - SLACK_MS);
    expect((startedAt[5] ?? 0) - (startedAt[0] ?? 0)).toBeGreaterThanOrEqual(2 * intervalMs - SLACK_MS);
  });

  it('counts retries against the same limit (a 429 answer is not a free extra request)', async () => {
    const { url, seen } = await serve(
      json(429, { code: '429001', msg: 'too many' }),
      json(429, { code: '429001', msg: 'too many' }),
      ok({ fine: true }),
    );
    // Backoff sleeps are skipped (stub): only the limiter spaces the attempts.
    const { http, startedAt, sleeps } = timedClient(url);
    await http.request({ method: 'GET', path: '/v1/list' });
    await http.request({ method: 'GET', path: '/v1/list' });
    expect(seen).toHaveLength(4);
    expect(sleeps).toHaveLength(2);
    for (const gap of gaps(startedAt)) expect(gap).toBeGreaterThanOrEqual(intervalMs - SLACK_MS);
  });
});

describe('retries', () => {
  it('retries HTTP 429, then succeeds, with a fresh signature per attempt', async () => {
    const { url, seen } = await serve(json(429, { code: '429001', msg: 'slow down' }), ok({ n: 1 }));
    let signatures = 0;
    const { http, sleeps } = client(url, {}, () => {
      signatures += 1;
      return { headers: { 'X-N': String(signatures) } };
    });
    expect(await http.request({ method: 'GET', path: '/v1/a' })).toEqual({ n: 1 });
    expect(seen.map((request) => request.headers['x-n'])).toEqual(['1', '2']);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(2);
    expect(sleeps[0]).toBeLessThanOrEqual(4);
  });

  it('waits at least what Retry-After says (within the longest delay)', async () => {
    const { url } = await serve((response) => {
      response.writeHead(429, { 'retry-after': '2' });
      response.end('Too Many Requests');
    }, ok(1));
    const { http, sleeps } = client(url, { retry: { attempts: 3, baseDelayMs: 4, maxDelayMs: 5000 } });
    await http.request({ method: 'GET', path: '/v1/a' });
    expect(sleeps).toEqual([2000]);
  });

  it('retries 5xx and an HTML error page, then gives up saying how often it tried', async () => {
    const { url, seen } = await serve(json(503, { code: '500001', msg: 'busy' }), (response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>502 Bad Gateway</html>');
    });
    const { http, sleeps } = client(url);
    const error = await failure(http.request({ method: 'GET', path: '/v1/a' }));
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.kind).toBe('server');
    expect(error.message).toBe(
      'example GET /v1/a: exchange server error (HTTP 502, "<html>502 Bad Gateway</html>"); gave up after 4 attempts',
    );
    expect(seen).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it('does not retry a refused request (4xx with the exchange’s own code)', async () => {
    const { url, seen } = await serve(json(400, { code: '400123', msg: 'bad range' }));
    const { http, sleeps } = client(url);
    const error = await failure(http.request({ method: 'GET', path: '/v1/a' }));
    expect(error.kind).toBe('request');
    expect(error.code).toBe('400123');
    expect(error.message).toBe('example GET /v1/a: request refused (HTTP 400, code 400123, "bad range")');
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry an auth error, and names what to check', async () => {
    const { url, seen } = await serve(json(401, { code: '401001', msg: 'bad sign' }));
    const { http } = client(url);
    const error = await failure(http.request({ method: 'GET', path: '/v1/a' }));
    expect(error.kind).toBe('auth');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('; check EXAMPLE_API_KEY and EXAMPLE_API_SECRET');
    expect(seen).toHaveLength(1);
  });

  it('gives up on an exchange that does not answer within the timeout, as "no answer"', async () => {
    const { url, seen } = await serve(() => {
      // Never answers.
    });
    const { http, sleeps } = client(url, {
      timeoutMs: 50,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const error = await failure(http.request({ method: 'GET', path: '/v1/slow' }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^example GET \/v1\/slow: no answer \(.+\); gave up after 2 attempts$/);
    expect(seen).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('a live check uses its own policy: two tries and a short timeout', async () => {
    const { url, seen } = await serve(() => {});
    // The server never answers: the sync policy (15 s, more tries) would outlast the test's timeout.
    // 300 ms, not less: on a loaded machine a shorter timeout aborted a try before this same process's
    // server had read it, and the test counted one try.
    const { http } = client(url, { liveTimeoutMs: 300, liveRetry: { baseDelayMs: 1, maxDelayMs: 2 } });
    const error = await failure(http.request({ method: 'GET', path: '/v1/uid' }, 'live'));
    expect(error.message).toContain('gave up after 2 attempts');
    expect(seen).toHaveLength(2);
  });
});

describe('reading answers', () => {
  const codes: ErrorCodes<number> = {
    auth: new Set([1]),
    rateLimit: new Set([2]),
    server: new Set([3]),
    statusOverrides: { 403: 'rate-limit' },
  };

  it.each([
    [200, 1, 'auth'],
    [403, 1, 'auth'],
    [403, 99, 'rate-limit'],
    [200, 2, 'rate-limit'],
    [429, 99, 'rate-limit'],
    [200, 3, 'server'],
    [502, 99, 'server'],
    [400, 99, 'request'],
    [200, 99, 'request'],
  ] as const)('HTTP %i with code %i is %s', (status, code, kind) => {
    expect(classifyError(status, code, codes)).toBe(kind);
  });

  it('reads a numeric envelope code sent as digits, and compares a text code as text', () => {
    const numeric = interpretEnvelope({
      envelope: { code: 'retCode', message: 'retMsg', data: 'result', success: 0 },
      errors: codes,
    });
    expect(numeric(200, { retCode: '0', result: { a: 1 } })).toEqual({ ok: true, data: { a: 1 } });
    expect(numeric(200, { retCode: '2', retMsg: 'slow' })).toEqual({
      ok: false,
      kind: 'rate-limit',
      code: '2',
      message: 'slow',
    });
    const text = interpretEnvelope(API);
    expect(text(200, { code: '00', data: 1 })).toMatchObject({ ok: false, kind: 'request', code: '00' });
    // No readable body: the status alone, with the exchange's overrides.
    expect(numeric(403, undefined)).toEqual({ ok: false, kind: 'rate-limit' });
    expect(text(403, undefined)).toEqual({ ok: false, kind: 'auth' });
  });

  it('refuses, without calling, a window before what the API answers for', async () => {
    const { http } = client('http://127.0.0.1:9');
    const now = new Date(AT);
    const day = 86_400_000;
    const window = (daysAgo: number) => ({ from: new Date(AT - daysAgo * day), to: new Date(AT) });
    expect(() => http.requireWithinLookback('GET /v1/list', window(180), 180, now)).not.toThrow();
    expect(() => http.requireWithinLookback('GET /v1/list', window(181), 180, now)).toThrow(
      'example GET /v1/list: request refused ("the window starts 2023-05-17T22:13:20.000Z, before the 180 days Example answers for; import older figures by CSV")',
    );
  });
});
