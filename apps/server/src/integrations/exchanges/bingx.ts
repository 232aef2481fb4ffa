import { createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  CommissionSums,
  type Credentials,
  chunk,
  isRecord,
  pageSizeFor,
  type SyncableExchangeAdapter,
} from './adapter.js';
import { createExchangeHttpClient, type Signed, type SignInput } from './http.js';
import { DAY_MS, isWithin, parseExchangeTime, periodsEndingIn, splitWindow, utcDay } from './windows.js';

/**
 * BingX's agent (affiliate) API. Every assumption about it lives in this object: a correction to the
 * documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 */
const BINGX = {
  exchange: 'bingx',
  name: 'BingX',
  baseUrl: 'https://open-api.bingx.com',
  envPrefix: 'BINGX',
  authHint: "check BINGX_API_KEY, BINGX_API_SECRET and the key's agent permission and IP list",
  /** At most 5000 ms (documented). */
  recvWindowMs: 5000,
  /** Answers are {code, msg, timestamp, data}; code 0 is success. */
  envelope: { code: 'code', message: 'msg', data: 'data', success: 0 },
  errors: {
    /** Signature mismatch, wrong key, IP not allowed, timestamp missing or out of window. */
    auth: new Set([100001, 100002, 100413, 100419, 100421]),
    rateLimit: new Set([100410]),
    server: new Set([100500, 100503]),
  },
  relationCheck: {
    path: '/openApi/agent/v1/account/inviteRelationCheck',
    /** Ours = invited by this agent and directly (not through a sub-agent). */
  },
  inviteList: {
    /** unconfirmed: not in our exchange notes; seen in BingX SDKs (startTime/endTime ms, pageIndex, pageSize). */
    path: '/openApi/agent/v1/account/inviteAccountList',
    maxPageSize: 200,
    maxRangeMs: 30 * DAY_MS,
  },
  commissionList: {
    path: '/openApi/agent/v2/reward/commissionDataList',
    maxPageSize: 100,
    /**
     * startTime/endTime are inclusive UTC days (YYYYMMDD), at most 30 days apart: 29 days of window
     * never spans more than 30 calendar days wherever it starts.
     */
    maxRangeMs: 29 * DAY_MS,
    lookbackDays: 365,
    /** Rows are daily per UID: commissionTime = the day, tradingVolume, commissionVolume (no fee). */
    periodMs: DAY_MS,
  },
  /** unconfirmed: BingX's agent calls allow 10 requests per second; we use half. */
  rateLimit: { limit: 5, intervalMs: 1000 },
  /** Hours until a day's commission figures are final (for when they are pulled again). */
  settleHours: 48,
  /**
   * While figures come by CSV this is the sync's wait: a segment's registrations are read a day after
   * it ends, so one the list shows late is still read (as Bybit's; within the pages' 48 h).
   */
  rosterSettleHours: 24,
} as const;

/** The query BingX signs and receives: parameters plus timestamp and recvWindow, sorted by name. */
function bingxSignedQuery(query: string, timestamp: number): string {
  const params = new URLSearchParams(query);
  params.set('timestamp', String(timestamp));
  params.set('recvWindow', String(BINGX.recvWindowMs));
  return [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

/** signature = hex(HMAC-SHA256(secret, sorted query with timestamp)), appended to it; X-BX-APIKEY. */
export function signBingx(input: SignInput, credentials: Credentials): Signed {
  const query = bingxSignedQuery(input.query, input.timestamp);
  const signature = createHmac('sha256', credentials.apiSecret).update(query).digest('hex');
  return { query: `${query}&signature=${signature}`, headers: { 'X-BX-APIKEY': credentials.apiKey } };
}

export function createBingxAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const nowDate = options.nowDate ?? (() => new Date());
  const http = createExchangeHttpClient({ api: BINGX, credentials, options, sign: signBingx });
  const listSize = pageSizeFor(options, BINGX.inviteList.maxPageSize);
  const commissionSize = pageSizeFor(options, BINGX.commissionList.maxPageSize);

  async function listPage(path: string, query: Record<string, string | number | undefined>) {
    const endpoint = `GET ${path}`;
    const data = await http.request({ method: 'GET', path, query });
    if (!isRecord(data) || !Array.isArray(data.list)) throw http.invalid(endpoint, 'data.list is not a list');
    return data.list.map((row) => {
      if (!isRecord(row) || !asString(row.uid)) throw http.invalid(endpoint, 'a row has no uid');
      return row;
    });
  }

  return {
    exchange: BINGX.exchange,
    profile: {
      // Roster by API, figures by CSV (like Bybit): the commission list has no fee, and the rule pays
      // fee x rate, so its entries would settle 'completed 0.00' and a later CSV with the real fees
      // would be refused as a duplicate of those periods. listCommissions stays for when a fee source
      // exists; the sync does not call it.
      commissionSource: 'csv',
      settleHours: BINGX.rosterSettleHours,
      lookbackDays: BINGX.commissionList.lookbackDays,
    },

    async checkReferral(uid) {
      const data = await http.request(
        { method: 'GET', path: BINGX.relationCheck.path, query: { uid } },
        'live',
      );
      if (!isRecord(data) || data.inviteResult !== true || data.directInvitation !== true) return null;
      return { uid, registeredAt: parseExchangeTime(data.registerTime) };
    },

    async *listReferrals(window) {
      for (const part of splitWindow(window, BINGX.inviteList.maxRangeMs)) {
        for (let pageIndex = 1; ; pageIndex += 1) {
          const rows = await listPage(BINGX.inviteList.path, {
            startTime: part.from.getTime(),
            endTime: part.to.getTime() - 1,
            pageIndex,
            pageSize: listSize,
          });
          const joined = rows
            .filter((row) => row.directInvitation !== false)
            .map((row) => ({
              uid: asString(row.uid) as string,
              registeredAt: parseExchangeTime(row.registerTime),
            }))
            .filter((entry) => isWithin(entry.registeredAt, part));
          if (joined.length > 0) yield joined;
          if (rows.length < listSize) break;
        }
      }
    },

    async *listCommissions(window) {
      const { path, maxRangeMs, periodMs, lookbackDays } = BINGX.commissionList;
      // Like Bitget: a day counts in the window its end falls in, so it is read once wholly settled.
      const days = periodsEndingIn(window, periodMs);
      if (!days) return;
      for (const part of splitWindow(days, maxRangeMs)) {
        http.requireWithinLookback(`GET ${path}`, part, lookbackDays, nowDate());
        const sums = new CommissionSums(BINGX.exchange, options.warn);
        for (let pageIndex = 1; ; pageIndex += 1) {
          const rows = await listPage(path, {
            startTime: utcDay(part.from),
            endTime: utcDay(new Date(part.to.getTime() - 1)),
            pageIndex,
            pageSize: commissionSize,
          });
          for (const row of rows) {
            const day = parseExchangeTime(row.commissionTime);
            // Days are asked for whole; this keeps a day on a boundary in exactly one request.
            if (!isWithin(day, part)) continue;
            sums.add(
              asString(row.uid) as string,
              { from: day, to: new Date(day.getTime() + periodMs) },
              {
                volume: asString(row.tradingVolume) ?? '0',
                commission: asString(row.commissionVolume) ?? '0',
              },
            );
          }
          if (rows.length < commissionSize) break;
        }
        for (const page of chunk(sums.entries())) yield page;
      }
    },
  };
}
