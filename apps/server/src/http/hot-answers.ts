import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type Locale, toLocale } from '@elex/contract';
import type { FastifyBaseLogger } from 'fastify';
import {
  cachedEncodedBody,
  chooseEncoding,
  type EncodedBody,
  type Encoding,
  matchesEtag,
} from './encoded-body.js';
import { requestLogger, writesAt } from './request-logger.js';
import { securityHeaderSets } from './security-headers.js';
import type { LoadedPage } from './static-site.js';

/**
 * The hottest cached answers sent by the HTTP server itself, before Fastify's router (issue 14):
 * `POST /elex/exchange/index` with the catalog loaded and fresh, and `GET /` / `GET /index.html`
 * once index.html is in memory. Each answer's status, header fields and bytes are the ones Fastify's
 * route sends (hot-answers.test.ts compares them), made once per cached Buffer and coding; per request
 * only the request id is added and the access log lines are written through the same lazy logger.
 * Anything else, and any request this module is not sure about, goes to Fastify untouched
 * (decisions.md, "Hot answers before the router").
 */

const INDEX_PATH = '/elex/exchange/index';
const JSON_TYPE = 'application/json; charset=utf-8';
/** A longer body is not the empty payload the spec asks for: Fastify reads it. */
const MAX_BODY = 64;
const EMPTY_OBJECT = /^[ \t\r\n]*\{[ \t\r\n]*\}[ \t\r\n]*$/;
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);
/** Request fields that change what Fastify does with a request: such a request is Fastify's. */
const FORWARDED = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded'] as const;

/**
 * The hooks Fastify runs on each route answered here, by kind, as `printRoutes({ includeHooks: true })`
 * names them, and what this module does in their place: `securityHeaders` (security-headers.ts) is
 * copied field for field; `preParsing` is @fastify/compress's decoding of an encoded request body, and
 * a request with `content-encoding` (or, for the page, any body) is left to Fastify. A hook added later
 * to these routes (a metric, a rate limit, a check) would not run on the hot path: hot-answers.test.ts
 * fails until it is copied here or the route is left to Fastify.
 */
const COPIED_HOOKS = { onRequest: ['securityHeaders()'], preParsing: ['preParsing()'] } as const;
export const HOT_ROUTE_HOOKS: Readonly<Record<string, typeof COPIED_HOOKS>> = {
  'POST /elex/exchange/index': COPIED_HOOKS,
  'GET /': COPIED_HOOKS,
  'GET /index.html': COPIED_HOOKS,
};

export interface HotAnswerSources {
  /** The cached index envelope for a language when the catalog is loaded and fresh, else undefined. */
  exchangeIndex: (locale: Locale) => Buffer | undefined;
  /** index.html when it is in memory (static-site.ts). */
  page: LoadedPage;
  hsts: boolean;
  /** Whether Fastify trusts proxies: then a forwarded request's address is Fastify's to work out. */
  trustProxy: boolean;
  /** The app's logger, or undefined when logging is off. */
  log: FastifyBaseLogger | undefined;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The header fields after the request id and the bytes, for one representation. */
interface Prepared {
  status: number;
  /** Security fields: set first, by the onRequest hook. */
  before: string[];
  /** content-type, vary, content-encoding, cache-control, etag, content-length. */
  after: string[];
  body: Buffer | undefined;
}

export class HotAnswers {
  private sources: HotAnswerSources | undefined;
  private closing = false;
  private readonly prepared = new WeakMap<EncodedBody, Map<string, Prepared>>();
  private resourceFields: string[] = [];
  private documentFields: string[] = [];

  /** Switched on once the app is built (sources need the app's deps); until then every request is Fastify's. */
  enable(sources: HotAnswerSources): void {
    this.sources = sources;
    const sets = securityHeaderSets({ hsts: sources.hsts });
    this.resourceFields = sets.forResource.flat();
    this.documentFields = sets.forDocument.flat();
  }

  /** Once the app starts closing, Fastify answers (it refuses new requests then). */
  close(): void {
    this.closing = true;
  }

  /** The server's request listener: a hot answer, or Fastify's handler. */
  wrap(fastify: Handler): Handler {
    return (request, response) => {
      if (!this.sources || this.closing || !this.answer(request, response, fastify))
        fastify(request, response);
    };
  }

  /** True when this module took the request (answered it, or will hand it on itself). */
  private answer(request: IncomingMessage, response: ServerResponse, fastify: Handler): boolean {
    const url = request.url;
    const headers = request.headers;
    if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (headers.expect !== undefined || headers.upgrade !== undefined) return false;
    if (this.sources?.trustProxy && FORWARDED.some((name) => headers[name] !== undefined)) return false;
    if (request.method === 'POST' && url === INDEX_PATH)
      return this.exchangeIndex(request, response, fastify);
    if (request.method === 'GET' && (url === '/' || url === '/index.html')) {
      if (headers['content-length'] !== undefined || headers['content-type'] !== undefined) return false;
      const page = this.sources?.page(url);
      if (!page) return false;
      this.send(request, response, page.body, this.documentFields, page.cacheControl, performance.now());
      return true;
    }
    return false;
  }

  private exchangeIndex(request: IncomingMessage, response: ServerResponse, fastify: Handler): boolean {
    const started = performance.now();
    const headers = request.headers;
    const contentType = headers['content-type'];
    const length = headers['content-length'];
    const locale = toLocale(headers.lang);
    if (contentType === undefined) {
      // Fastify runs the handler at once on a POST without a type or a body; with a body, it parses.
      if (length !== undefined && length !== '0') return false;
      return this.sendIndex(request, response, locale, started);
    }
    if (!JSON_TYPES.has(contentType.toLowerCase())) return false;
    const bytes = Number(length);
    // Fastify refuses an empty JSON body: that answer is its own.
    if (!/^[0-9]+$/.test(length ?? '') || bytes < 1 || bytes > MAX_BODY) return false;
    if (!this.sources?.exchangeIndex(locale)) return false;
    readBody(request, bytes, (body) => {
      if (body === undefined) return;
      if (EMPTY_OBJECT.test(body.toString('utf8')) && this.sendIndex(request, response, locale, started))
        return;
      // Put back what was read: Fastify reads the body as if nobody had.
      request.unshift(body);
      fastify(request, response);
    });
    return true;
  }

  private sendIndex(request: IncomingMessage, response: ServerResponse, locale: Locale, started: number) {
    const identity = this.sources?.exchangeIndex(locale);
    if (!identity) return false;
    this.send(
      request,
      response,
      cachedEncodedBody(identity, JSON_TYPE),
      this.resourceFields,
      undefined,
      started,
    );
    return true;
  }

  /** `sendEncoded` (encoded-body.ts) without Fastify: the same fields in the same order. */
  private send(
    request: IncomingMessage,
    response: ServerResponse,
    body: EncodedBody,
    security: string[],
    cacheControl: string | undefined,
    started: number,
  ) {
    const headers = request.headers;
    const id = (headers['x-request-id'] as string | undefined) || randomUUID();
    // The access log's lines are info: with them off (LOG_LEVEL=warn) no logger, object or listener is made.
    const appLog = this.sources?.log;
    const log = appLog && writesAt(appLog, 'info') ? requestLogger(appLog, { reqId: id }, {}) : undefined;
    log?.info({ req: loggedRequest(request) }, 'incoming request');
    const encoding = chooseEncoding(headers['accept-encoding'], body.offered);
    const etag = body.etags?.[encoding];
    const notModified = etag !== undefined && matchesEtag(headers['if-none-match'], etag);
    const answer = this.representation(body, encoding, security, cacheControl, notModified);
    if (log) {
      response.once('finish', () =>
        log.info(
          { res: { statusCode: answer.status }, responseTime: performance.now() - started },
          'request completed',
        ),
      );
    }
    response.writeHead(answer.status, [...answer.before, 'x-request-id', id, ...answer.after]);
    response.end(answer.body);
  }

  /** Made once per cached body, coding and kind of answer; the catalog's next version is a new body. */
  private representation(
    body: EncodedBody,
    encoding: Encoding,
    security: string[],
    cacheControl: string | undefined,
    notModified: boolean,
  ): Prepared {
    let byKey = this.prepared.get(body);
    if (!byKey) {
      byKey = new Map();
      this.prepared.set(body, byKey);
    }
    const key = `${encoding}:${cacheControl ?? ''}:${security === this.resourceFields ? 'r' : 'd'}:${notModified}`;
    let prepared = byKey.get(key);
    if (!prepared) {
      const after = ['content-type', body.contentType];
      if (body.offered.length > 1) after.push('vary', 'accept-encoding');
      if (encoding !== 'identity') after.push('content-encoding', encoding);
      if (cacheControl) after.push('cache-control', cacheControl);
      const etag = body.etags?.[encoding];
      if (etag) after.push('etag', etag);
      const bytes = body.codings[encoding] ?? body.codings.identity;
      if (!notModified) after.push('content-length', String(bytes.length));
      prepared = {
        status: notModified ? 304 : 200,
        before: security,
        after,
        body: notModified ? undefined : bytes,
      };
      byKey.set(key, prepared);
    }
    return prepared;
  }
}

/** What the access log's request serializer (log-serializers.ts) reads of a Fastify request. */
function loggedRequest(request: IncomingMessage) {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    host: request.headers.host,
    ip: request.socket.remoteAddress,
    socket: request.socket,
  };
}

/**
 * Reads a short body whose length the request declared, without letting the stream end: the bytes
 * can be put back (`unshift`) for Fastify. Undefined when the connection went away first.
 */
function readBody(request: IncomingMessage, length: number, done: (body: Buffer | undefined) => void) {
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (body: Buffer | undefined) => {
    request.off('readable', onReadable);
    request.off('close', onClose);
    done(body);
  };
  const onClose = () => finish(undefined);
  const onReadable = () => {
    for (let chunk: Buffer | null = request.read(); chunk !== null; chunk = request.read()) {
      chunks.push(chunk);
      received += chunk.length;
    }
    if (received >= length) finish(Buffer.concat(chunks));
  };
  request.on('readable', onReadable);
  request.on('close', onClose);
}
