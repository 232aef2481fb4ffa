import { createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  type Credentials,
  cachedRoster,
  isRecord,
  pageSizeFor,
  registrationInRoster,
  type SyncableExchangeAdapter,
} from './adapter.js';
import {
  createExchangeHttpClient,
  ExchangeApiError,
  type RequestMode,
  type Signed,
  type SignInput,
} from './http.js';
import type { ReferralEntry } from './types.js';
import { parseExchangeTime } from './windows.js';

/**
 * Bybit's affiliate API. Every assumption about it lives in this object: a correction to the
 * documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 *
 * Bybit gives only rolling 30/365-day volumes per client and says they "have nothing to do with
 * commission settlement". So this adapter pulls the roster (and answers live UID checks) but yields
 * no commissions: Bybit's commissions come from the affiliate portal's CSV export through
 * `npm run ops -- rebates:import` (docs/exchange-integrations.md).
 */
const BYBIT = {
  exchange: 'bybit',
  name: 'Bybit',
  baseUrl: 'https://api.bybit.com',
  envPrefix: 'BYBIT',
  authHint: 'check BYBIT_API_KEY, BYBIT_API_SECRET and that the key has the Affiliate permission only',
  recvWindowMs: 5000,
  /** Answers are {retCode, retMsg, result, retExtInfo, time}; retCode 0 is success. */
  envelope: { code: 'retCode', message: 'retMsg', data: 'result', success: 0 },
  errors: {
    /** Timestamp outside recvWindow, invalid key, signature, permission, auth failed, IP, key expired. */
    auth: new Set([10002, 10003, 10004, 10005, 10007, 10009, 10010, 33004]),
    /** Per-UID and per-IP limits. */
    rateLimit: new Set([10006, 10018]),
    server: new Set([10016]),
    /** Bybit answers its IP rate limit with HTTP 403 and a text body. */
    statusOverrides: { 403: 'rate-limit' },
  },
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
  /**
   * The sync reads a segment's registrations this long after it ends (figures come by CSV, so this is
   * the roster's wait). Registrations may be listed late (the exchange notes: data settle daily, up to
   * 48 h of delay is common) and the cursor never comes back: a day of margin, and the roster still
   * arrives within the 48 h the pages quote (CASHBACK.rosterDelayHours). A trader who binds meanwhile
   * is checked live.
   */
  rosterSettleHours: 24,
} as const;

/**
 * X-BAPI-SIGN = hex(HMAC-SHA256(secret, timestamp + apiKey + recvWindow + (query string | body))),
 * X-BAPI-TIMESTAMP in ms, X-BAPI-API-KEY and X-BAPI-RECV-WINDOW.
 */
export function signBybit(input: SignInput, credentials: Credentials): Signed {
  const { apiKey, apiSecret } = credentials;
  const payload = input.method === 'GET' ? input.query : input.body;
  const prehash = `${input.timestamp}${apiKey}${BYBIT.recvWindowMs}${payload}`;
  return {
    headers: {
      'X-BAPI-API-KEY': apiKey,
      'X-BAPI-TIMESTAMP': String(input.timestamp),
      'X-BAPI-SIGN': createHmac('sha256', apiSecret).update(prehash).digest('hex'),
      'X-BAPI-RECV-WINDOW': String(BYBIT.recvWindowMs),
    },
  };
}

export function createBybitAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const http = createExchangeHttpClient({ api: BYBIT, credentials, options, sign: signBybit });
  const pageSize = pageSizeFor(options, BYBIT.userList.maxPageSize);
  const listEndpoint = `GET ${BYBIT.userList.path}`;

  /** The whole affiliate user list, page by page (the API filters by nothing we need). */
  async function* userPages(mode: RequestMode = 'sync'): AsyncGenerator<ReferralEntry[]> {
    let cursor: string | undefined;
    for (;;) {
      const result = await http.request(
        { method: 'GET', path: BYBIT.userList.path, query: { size: pageSize, cursor } },
        mode,
      );
      if (!isRecord(result) || !Array.isArray(result.list))
        throw http.invalid(listEndpoint, 'result.list is not a list');
      yield result.list.map((row) => {
        const uid = isRecord(row) ? asString(row.userId) : undefined;
        if (!uid || !isRecord(row)) throw http.invalid(listEndpoint, 'a row has no userId');
        return { uid, registeredAt: parseExchangeTime(row.registerTime) };
      });
      const next = asString(result.nextPageCursor);
      if (!next || next === cursor || result.list.length === 0) return;
      cursor = next;
    }
  }

  return {
    exchange: BYBIT.exchange,
    profile: { commissionSource: 'csv', settleHours: BYBIT.rosterSettleHours },

    async checkReferral(uid) {
      let result: unknown;
      try {
        result = await http.request({ method: 'GET', path: BYBIT.customerInfo.path, query: { uid } }, 'live');
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
      return registrationInRoster(uid, userPages('live'), options, {
        message:
          'bybit: a confirmed client is not in the first pages of the user list; registration time set to now',
        maxPages: BYBIT.userList.lookupPages,
      });
    },

    listReferrals: cachedRoster(() => userPages(), options.nowDate ? { now: options.nowDate } : {}),

    // Rolling volumes are not settlement figures (see above): commissions come by CSV.
    async *listCommissions() {},
  };
}
