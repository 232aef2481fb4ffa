import { createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  type Credentials,
  cachedRoster,
  chunk,
  isRecord,
  type SyncableExchangeAdapter,
} from './adapter.js';
import {
  classifyStatus,
  createExchangeHttpClient,
  ExchangeApiError,
  type Interpretation,
  type RequestMode,
  type SignInput,
} from './http.js';
import type { ReferralEntry } from './types.js';
import { isWithin, parseExchangeTime } from './windows.js';

/**
 * Bybit's affiliate API. Every assumption about it lives in this object: a correction to the
 * documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 *
 * Bybit gives only rolling 30/365-day volumes per client and says they "have nothing to do with
 * commission settlement". So this adapter pulls the roster (and answers live UID checks) but yields
 * no commissions: Bybit's commissions come from the affiliate portal's CSV export through
 * `npm run ops -- rebates:import` (docs/exchange-integrations.md).
 */
export const BYBIT = {
  exchange: 'bybit',
  baseUrl: 'https://api.bybit.com',
  envPrefix: 'BYBIT',
  successRetCode: 0,
  recvWindowMs: 5000,
  /** Timestamp outside recvWindow, invalid key, signature, permission, auth failed, IP, key expired. */
  authRetCodes: new Set([10002, 10003, 10004, 10005, 10007, 10009, 10010, 33004]),
  /** Per-UID and per-IP limits. */
  rateLimitRetCodes: new Set([10006, 10018]),
  serverRetCodes: new Set([10016]),
  /** Bybit answers its IP rate limit with HTTP 403 and a text body. */
  statusOverrides: { 403: 'rate-limit' } as const,
  customerInfo: {
    path: '/v5/user/aff-customer-info',
    /** unconfirmed: the answer for a UID that is not our client; an empty result means the same. */
    notClientRetCodes: new Set([10001]),
  },
  userList: {
    path: '/v5/affiliate/aff-user-list',
    maxPageSize: 1000,
    /** unconfirmed: registerTime's format; epoch ms or "YYYY-MM-DD HH:mm:ss" UTC are both read. */
    /** The live check looks the UID up in the list for its registration time, at most this many pages. */
    lookupPages: 20,
  },
  /** 10 requests per second (documented). */
  rateLimit: { limit: 10, intervalMs: 1000 },
  /** Registrations do not change once listed: no wait. */
  settleHours: 0,
} as const;

/** hex(HMAC-SHA256(secret, timestamp + apiKey + recvWindow + (query string | body))), timestamp in ms. */
export function signBybit(secret: string, apiKey: string, input: SignInput): string {
  const payload = input.method === 'GET' ? input.query : input.body;
  return createHmac('sha256', secret)
    .update(`${input.timestamp}${apiKey}${BYBIT.recvWindowMs}${payload}`)
    .digest('hex');
}

function interpret<T>(status: number, body: unknown): Interpretation<T> {
  if (!isRecord(body)) return classifyStatus(status, BYBIT.statusOverrides);
  const retCode =
    typeof body.retCode === 'number' ? body.retCode : Number(asString(body.retCode) ?? Number.NaN);
  const message = asString(body.retMsg);
  if (retCode === BYBIT.successRetCode) return { ok: true, data: body.result as T };
  const kind = BYBIT.authRetCodes.has(retCode)
    ? 'auth'
    : status === 429 || status === 403 || BYBIT.rateLimitRetCodes.has(retCode)
      ? 'rate-limit'
      : status >= 500 || BYBIT.serverRetCodes.has(retCode)
        ? 'server'
        : 'request';
  return { ok: false, kind, code: String(retCode), ...(message === undefined ? {} : { message }) };
}

export function createBybitAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const { apiKey, apiSecret } = credentials;
  const nowDate = options.nowDate ?? (() => new Date());
  const http = createExchangeHttpClient({
    exchange: BYBIT.exchange,
    baseUrl: credentials.baseUrl ?? BYBIT.baseUrl,
    rateLimit: BYBIT.rateLimit,
    authHint: 'check BYBIT_API_KEY, BYBIT_API_SECRET and that the key has the Affiliate permission only',
    options,
    sign: (input) => ({
      query: input.query,
      headers: {
        'X-BAPI-API-KEY': apiKey,
        'X-BAPI-TIMESTAMP': String(input.timestamp),
        'X-BAPI-SIGN': signBybit(apiSecret, apiKey, input),
        'X-BAPI-RECV-WINDOW': String(BYBIT.recvWindowMs),
      },
    }),
  });
  const pageSize = Math.min(options.pageSize ?? BYBIT.userList.maxPageSize, BYBIT.userList.maxPageSize);
  const listEndpoint = `GET ${BYBIT.userList.path}`;

  /** The whole affiliate user list, page by page (the API filters by nothing we need). */
  async function* userPages(mode: RequestMode = 'sync'): AsyncGenerator<ReferralEntry[]> {
    let cursor: string | undefined;
    for (;;) {
      const result = await http.request<unknown>(
        { method: 'GET', path: BYBIT.userList.path, query: { size: pageSize, cursor } },
        interpret,
        mode,
      );
      if (!isRecord(result) || !Array.isArray(result.list))
        throw invalid(listEndpoint, 'result.list is not a list');
      yield result.list.map((row) => {
        const uid = isRecord(row) ? asString(row.userId) : undefined;
        if (!uid || !isRecord(row)) throw invalid(listEndpoint, 'a row has no userId');
        return { uid, registeredAt: parseExchangeTime(row.registerTime) };
      });
      const next = asString(result.nextPageCursor);
      if (!next || next === cursor || result.list.length === 0) return;
      cursor = next;
    }
  }

  const roster = cachedRoster(() => userPages());

  return {
    exchange: BYBIT.exchange,
    profile: { commissionSource: 'csv', settleHours: BYBIT.settleHours },

    async checkReferral(uid) {
      let result: unknown;
      try {
        result = await http.request<unknown>(
          { method: 'GET', path: BYBIT.customerInfo.path, query: { uid } },
          interpret,
          'live',
        );
      } catch (error) {
        if (
          error instanceof ExchangeApiError &&
          BYBIT.customerInfo.notClientRetCodes.has(Number(error.code))
        ) {
          return null;
        }
        throw error;
      }
      if (!isRecord(result) || asString(result.uid) !== uid) return null;
      // The client info has no registration time; the user list has it.
      let pages = 0;
      for await (const page of userPages('live')) {
        const found = page.find((entry) => entry.uid === uid);
        if (found) return found;
        pages += 1;
        if (pages >= BYBIT.userList.lookupPages) break;
      }
      options.warn?.(
        'bybit: a confirmed client is not in the first pages of the user list; registration time set to now',
        { uid },
      );
      return { uid, registeredAt: nowDate() };
    },

    async *listReferrals(window) {
      const joined = (await roster()).filter((entry) => isWithin(entry.registeredAt, window));
      for (const page of chunk(joined)) yield page;
    },

    // Rolling volumes are not settlement figures (see above): commissions come by CSV.
    async *listCommissions() {},
  };
}

function invalid(endpoint: string, reason: string) {
  return new ExchangeApiError(BYBIT.exchange, 'invalid-response', {
    endpoint,
    exchangeMessage: reason,
    attempts: 1,
  });
}
