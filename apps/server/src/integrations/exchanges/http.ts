import pThrottle from 'p-throttle';
import { asString, isRecord } from './json-values.js';
import type { Credentials, TimeWindow } from './types.js';
import { DAY_MS } from './windows.js';

/**
 * The signed HTTP client every adapter uses: a request-rate limiter per exchange (its documented
 * limit), a fresh signature per attempt (timestamps move), retries with exponential backoff and
 * jitter on rate limits, 5xx and network faults, and one error type with a clear message when it
 * gives up. What an answer means (success code, auth error, rate limit) is the adapter's to say: it
 * names its codes (`ErrorCodes`) and, for the usual {code, msg, data} wrapper, lets
 * `interpretEnvelope` read it; its signing recipe is its `sign` function.
 */

export type ExchangeErrorKind =
  /** Key, secret, passphrase, signature, timestamp or permission refused: retrying will not help. */
  | 'auth'
  /** The exchange said "too many requests" (HTTP 429 or its own code). Retried. */
  | 'rate-limit'
  /** HTTP 5xx or the exchange's "system busy" code. Retried. */
  | 'server'
  /** No answer: connection refused or reset, timeout. Retried. */
  | 'network'
  /** The exchange refused the request itself (parameters, range): retrying will not help. */
  | 'request'
  /** An answer we cannot read (not JSON, or not the documented shape). */
  | 'invalid-response';

const RETRYABLE: ReadonlySet<ExchangeErrorKind> = new Set(['rate-limit', 'server', 'network']);

const KIND_TEXT: Record<ExchangeErrorKind, string> = {
  auth: 'authentication refused',
  'rate-limit': 'rate limited',
  server: 'exchange server error',
  network: 'no answer',
  request: 'request refused',
  'invalid-response': 'unreadable answer',
};

export class ExchangeApiError extends Error {
  constructor(
    readonly exchange: string,
    readonly kind: ExchangeErrorKind,
    readonly details: {
      endpoint: string;
      status?: number;
      code?: string;
      exchangeMessage?: string;
      attempts: number;
      hint?: string;
    },
  ) {
    const { endpoint, status, code, exchangeMessage, attempts, hint } = details;
    const facts = [
      status === undefined ? undefined : `HTTP ${status}`,
      code === undefined ? undefined : `code ${code}`,
      exchangeMessage ? JSON.stringify(exchangeMessage) : undefined,
    ].filter(Boolean);
    super(
      `${exchange} ${endpoint}: ${KIND_TEXT[kind]}${facts.length ? ` (${facts.join(', ')})` : ''}` +
        (attempts > 1 ? `; gave up after ${attempts} attempts` : '') +
        (hint ? `; ${hint}` : ''),
    );
    this.name = 'ExchangeApiError';
  }

  get retryable() {
    return RETRYABLE.has(this.kind);
  }

  get code() {
    return this.details.code;
  }
}

/** What an adapter reads from one answer. */
export type Interpretation<T> =
  | { ok: true; data: T }
  | { ok: false; kind: ExchangeErrorKind; code?: string; message?: string };

interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };
/** A live UID check answers a trader waiting on a page: one quick retry, a short timeout. */
const DEFAULT_LIVE_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 250, maxDelayMs: 1_000 };

/** 'sync': background work, patient. 'live': a trader is waiting for the answer. */
export type RequestMode = 'sync' | 'live';

/** Options every adapter factory accepts: tests shrink delays and point the base URL at a fake. */
export interface HttpOptions {
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  /** For live UID checks (DEFAULT_LIVE_RETRY, 5 s timeout unless set). */
  liveRetry?: Partial<RetryPolicy>;
  liveTimeoutMs?: number;
  /** Waits between retries; tests may replace it. */
  sleep?: (ms: number) => Promise<void>;
  /** The signing clock (epoch ms). */
  now?: () => number;
  /** Overrides the documented request rate (tests). */
  rateLimit?: RateLimit;
}

interface RateLimit {
  /** Requests allowed per interval. */
  limit: number;
  intervalMs: number;
}

export interface SignInput {
  method: 'GET' | 'POST';
  /** The URL path as sent, e.g. /api/v2/broker/customer-commissions. */
  path: string;
  /** The query string as it will be sent, without '?'; empty when none. */
  query: string;
  /** The body as sent; empty for GET. */
  body: string;
  /** Epoch ms of this attempt. */
  timestamp: number;
}

export interface Signed {
  /** The query to send when it is not the one signed as given (BingX adds its signature to it). */
  query?: string;
  headers: Record<string, string>;
}

interface ExchangeRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Query parameters in the order given (an adapter that must sort them sorts them in sign()). */
  query?: Record<string, string | number | undefined>;
  /** A JSON body for POST. */
  body?: Record<string, unknown>;
}

/** Reads one answer: the HTTP status and the parsed JSON body (undefined when it was not JSON). */
export type Interpreter = (status: number, body: unknown) => Interpretation<unknown>;

/** What the client needs from an adapter's object of assumptions (`BITGET`, `OKX` ...). */
export interface ExchangeApi {
  /** Lower-case key: 'bitget', 'okx' ... */
  exchange: string;
  /** As written in messages: 'Bitget', 'OKX' ... */
  name: string;
  /** The real host. */
  baseUrl: string;
  rateLimit: RateLimit;
  /** Added to an auth error's message: which variables and which key permission to check. */
  authHint: string;
}

export interface ExchangeHttpClient {
  /** The answer's data as the adapter's interpreter read it; throws ExchangeApiError once it gives up. */
  request(request: ExchangeRequest, mode?: RequestMode): Promise<unknown>;
  /** An answer that is not the documented shape (not retried). */
  invalid(endpoint: string, reason: string): ExchangeApiError;
  /**
   * Refuses, without calling, a window that starts before the `lookbackDays` the API answers for:
   * the exchange would refuse it anyway, and the operator needs to know to import it by CSV.
   */
  requireWithinLookback(endpoint: string, window: TimeWindow, lookbackDays: number, now: Date): void;
}

function encodeQuery(query: Record<string, string | number | undefined> = {}): string {
  return Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An exchange whose answers come in an `Envelope`: the client reads them from its object alone. */
type EnvelopedApi =
  | { envelope: Envelope<string>; errors: ErrorCodes<string> }
  | { envelope: Envelope<number>; errors: ErrorCodes<number> };

export function createExchangeHttpClient(
  settings: {
    /** What the recipe signs with; their base URL, when set, replaces the real host (tests: a fake). */
    credentials: Credentials;
    /** The exchange's signing recipe: headers (and BingX's query) for one attempt. */
    sign(input: SignInput, credentials: Credentials): Signed;
    options?: HttpOptions | undefined;
  } & (
    | { api: ExchangeApi & EnvelopedApi; interpret?: undefined }
    /** An exchange without an envelope (Gate) reads its answers itself. */
    | { api: ExchangeApi; interpret: Interpreter }
  ),
): ExchangeHttpClient {
  const { api, credentials, options = {} } = settings;
  const interpret =
    settings.interpret === undefined ? interpretEnvelope<string | number>(settings.api) : settings.interpret;
  const { exchange } = api;
  const policies: Record<RequestMode, { retry: RetryPolicy; timeoutMs: number }> = {
    sync: { retry: { ...DEFAULT_RETRY, ...options.retry }, timeoutMs: options.timeoutMs ?? 15_000 },
    live: {
      retry: { ...DEFAULT_LIVE_RETRY, ...options.liveRetry },
      timeoutMs: options.liveTimeoutMs ?? 5_000,
    },
  };
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const rate = options.rateLimit ?? api.rateLimit;
  // One limiter per adapter instance, shared by the sync and live UID checks of this process.
  const slot = pThrottle({ limit: rate.limit, interval: rate.intervalMs, strict: true })(() => undefined);
  const origin = (credentials.baseUrl ?? api.baseUrl).replace(/\/+$/, '');

  async function attempt(
    request: ExchangeRequest,
    timeoutMs: number,
  ): Promise<
    | { ok: true; data: unknown }
    | {
        ok: false;
        error: Omit<ExchangeApiError['details'], 'attempts'> & { kind: ExchangeErrorKind };
        retryAfterMs?: number;
      }
  > {
    const endpoint = `${request.method} ${request.path}`;
    const body = request.method === 'POST' ? JSON.stringify(request.body ?? {}) : '';
    await slot();
    const query = encodeQuery(request.query);
    const signed = settings.sign(
      { method: request.method, path: request.path, query, body, timestamp: now() },
      credentials,
    );
    const sentQuery = signed.query ?? query;
    const url = `${origin}${request.path}${sentQuery ? `?${sentQuery}` : ''}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: request.method,
        headers: { accept: 'application/json', 'content-type': 'application/json', ...signed.headers },
        ...(request.method === 'POST' ? { body } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      return { ok: false, error: { kind: 'network', endpoint, exchangeMessage: reason } };
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    // A proxy's HTML error page or an empty answer reaches interpret() as undefined: the status is all
    // there is, and the text goes into the error message.
    const result = interpret(response.status, parsed);
    const message = parsed === undefined && !result.ok ? text.slice(0, 200) : undefined;
    if (result.ok) return result;
    return {
      ok: false,
      error: {
        kind: result.kind,
        endpoint,
        status: response.status,
        ...(result.code === undefined ? {} : { code: result.code }),
        ...(result.message === undefined ? {} : { exchangeMessage: result.message }),
        ...(message ? { exchangeMessage: message } : {}),
      },
      retryAfterMs,
    };
  }

  return {
    async request(request, mode = 'sync') {
      const { retry, timeoutMs } = policies[mode];
      for (let tries = 1; ; tries += 1) {
        const outcome = await attempt(request, timeoutMs);
        if (outcome.ok) return outcome.data;
        const { kind, ...details } = outcome.error;
        const canRetry = RETRYABLE.has(kind) && tries < retry.attempts;
        if (!canRetry) {
          throw new ExchangeApiError(exchange, kind, {
            ...details,
            attempts: tries,
            ...(kind === 'auth' ? { hint: api.authHint } : {}),
          });
        }
        const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (tries - 1));
        // Full jitter in the upper half: several instances do not retry in step.
        const delay = Math.max(outcome.retryAfterMs ?? 0, backoff / 2 + Math.random() * (backoff / 2));
        await sleep(Math.min(delay, retry.maxDelayMs));
      }
    },

    invalid(endpoint, reason) {
      return new ExchangeApiError(exchange, 'invalid-response', {
        endpoint,
        exchangeMessage: reason,
        attempts: 1,
      });
    },

    requireWithinLookback(endpoint, window, lookbackDays, now) {
      if (window.from.getTime() >= now.getTime() - lookbackDays * DAY_MS) return;
      throw new ExchangeApiError(exchange, 'request', {
        endpoint,
        exchangeMessage: `the window starts ${window.from.toISOString()}, before the ${lookbackDays} days ${api.name} answers for; import older figures by CSV`,
        attempts: 1,
      });
    },
  };
}

/**
 * An exchange's error codes by what they mean (its documentation's lists), and HTTP statuses that
 * mean one kind whatever the body says (Bybit answers its IP rate limit with 403).
 */
export interface ErrorCodes<C extends string | number> {
  auth: ReadonlySet<C>;
  rateLimit: ReadonlySet<C>;
  server: ReadonlySet<C>;
  statusOverrides?: Partial<Record<number, ExchangeErrorKind>>;
}

/**
 * What a refused answer means: the exchange's auth codes first (a wrong key stays an auth error
 * whatever the status), then the status overrides, then rate limit (HTTP 429 or its code), then
 * server (5xx or its code); anything else is a refusal of the request itself, not retried.
 */
export function classifyError<C extends string | number>(
  status: number,
  code: C,
  codes: ErrorCodes<C>,
): ExchangeErrorKind {
  if (codes.auth.has(code)) return 'auth';
  const override = codes.statusOverrides?.[status];
  if (override) return override;
  if (status === 429 || codes.rateLimit.has(code)) return 'rate-limit';
  if (status >= 500 || codes.server.has(code)) return 'server';
  return 'request';
}

/** A refused answer as the client reports it: its kind, the exchange's code and message. */
export function answerError<C extends string | number>(
  status: number,
  code: C,
  message: string | undefined,
  codes: ErrorCodes<C>,
): Interpretation<never> {
  const kind = classifyError(status, code, codes);
  return { ok: false, kind, code: String(code), ...(message === undefined ? {} : { message }) };
}

/**
 * The wrapper most exchanges put every answer in: a code, a message and the data, under the names
 * the exchange uses. A numeric success code means the code is read as a number (a string of digits
 * too), a string one means it is compared as text ("00000" is not "0").
 */
export interface Envelope<C extends string | number> {
  code: string;
  message: string;
  data: string;
  success: C;
}

/** Reads answers wrapped in the exchange's `envelope`: its data on success, else what `errors` say. */
export function interpretEnvelope<C extends string | number>(api: {
  envelope: Envelope<C>;
  errors: ErrorCodes<C>;
}): Interpreter {
  const { envelope, errors: codes } = api;
  const readCode = (value: unknown) =>
    (typeof envelope.success === 'number'
      ? typeof value === 'number'
        ? value
        : Number(asString(value) ?? Number.NaN)
      : (asString(value) ?? '')) as C;
  return (status, body) => {
    if (!isRecord(body)) return classifyStatus(status, codes.statusOverrides);
    const code = readCode(body[envelope.code]);
    if (code === envelope.success) return { ok: true, data: body[envelope.data] };
    return answerError(status, code, asString(body[envelope.message]), codes);
  };
}

/**
 * What an HTTP status alone says, for answers without a readable body: 429 rate limit, 5xx server,
 * 401/403 auth (an adapter whose exchange uses 403 for its IP rate limit says so itself).
 */
export function classifyStatus<T>(
  status: number,
  overrides: Partial<Record<number, ExchangeErrorKind>> = {},
): Interpretation<T> {
  const kind: ExchangeErrorKind =
    overrides[status] ??
    (status === 429
      ? 'rate-limit'
      : status >= 500
        ? 'server'
        : status === 401 || status === 403
          ? 'auth'
          : 'invalid-response');
  return { ok: false, kind };
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
