import pThrottle from 'p-throttle';

/**
 * The signed HTTP client every adapter uses: a request-rate limiter per exchange (its documented
 * limit), a fresh signature per attempt (timestamps move), retries with exponential backoff and
 * jitter on rate limits, 5xx and network faults, and one error type with a clear message when it
 * gives up. What an answer means (success code, auth error, rate limit) is the adapter's to say.
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

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };
/** A live UID check answers a trader waiting on a page: one quick retry, a short timeout. */
export const DEFAULT_LIVE_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 250, maxDelayMs: 1_000 };

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

export interface RateLimit {
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
  /** The query to send (BingX appends its signature to it). */
  query: string;
  headers: Record<string, string>;
}

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Query parameters in the order given (an adapter that must sort them sorts them in sign()). */
  query?: Record<string, string | number | undefined>;
  /** A JSON body for POST. */
  body?: Record<string, unknown>;
}

export interface ExchangeHttpClient {
  request<T>(
    request: ExchangeRequest,
    interpret: (status: number, body: unknown) => Interpretation<T>,
    mode?: RequestMode,
  ): Promise<T>;
}

export function encodeQuery(query: Record<string, string | number | undefined> = {}): string {
  return Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createExchangeHttpClient(settings: {
  exchange: string;
  baseUrl: string;
  rateLimit: RateLimit;
  sign(input: SignInput): Signed;
  /** Added to an auth error's message: which variables to check. */
  authHint: string;
  options?: HttpOptions;
}): ExchangeHttpClient {
  const { exchange, options = {} } = settings;
  const policies: Record<RequestMode, { retry: RetryPolicy; timeoutMs: number }> = {
    sync: { retry: { ...DEFAULT_RETRY, ...options.retry }, timeoutMs: options.timeoutMs ?? 15_000 },
    live: {
      retry: { ...DEFAULT_LIVE_RETRY, ...options.liveRetry },
      timeoutMs: options.liveTimeoutMs ?? 5_000,
    },
  };
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const rate = options.rateLimit ?? settings.rateLimit;
  // One limiter per adapter instance, shared by the sync and live UID checks of this process.
  const slot = pThrottle({ limit: rate.limit, interval: rate.intervalMs, strict: true })(() => undefined);
  const origin = settings.baseUrl.replace(/\/+$/, '');

  async function attempt<T>(
    request: ExchangeRequest,
    interpret: (status: number, body: unknown) => Interpretation<T>,
    timeoutMs: number,
  ): Promise<
    | { ok: true; data: T }
    | {
        ok: false;
        error: Omit<ExchangeApiError['details'], 'attempts'> & { kind: ExchangeErrorKind };
        retryAfterMs?: number;
      }
  > {
    const endpoint = `${request.method} ${request.path}`;
    const body = request.method === 'POST' ? JSON.stringify(request.body ?? {}) : '';
    await slot();
    const signed = settings.sign({
      method: request.method,
      path: request.path,
      query: encodeQuery(request.query),
      body,
      timestamp: now(),
    });
    const url = `${origin}${request.path}${signed.query ? `?${signed.query}` : ''}`;
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
    async request(request, interpret, mode = 'sync') {
      const { retry, timeoutMs } = policies[mode];
      for (let tries = 1; ; tries += 1) {
        const outcome = await attempt(request, interpret, timeoutMs);
        if (outcome.ok) return outcome.data;
        const { kind, ...details } = outcome.error;
        const canRetry = RETRYABLE.has(kind) && tries < retry.attempts;
        if (!canRetry) {
          throw new ExchangeApiError(exchange, kind, {
            ...details,
            attempts: tries,
            ...(kind === 'auth' ? { hint: settings.authHint } : {}),
          });
        }
        const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (tries - 1));
        // Full jitter in the upper half: several instances do not retry in step.
        const delay = Math.max(outcome.retryAfterMs ?? 0, backoff / 2 + Math.random() * (backoff / 2));
        await sleep(Math.min(delay, retry.maxDelayMs));
      }
    },
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
