import { createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  CommissionSums,
  type Credentials,
  chunk,
  isRecord,
  type SyncableExchangeAdapter,
} from './adapter.js';
import {
  classifyStatus,
  createExchangeHttpClient,
  ExchangeApiError,
  type Interpretation,
  type SignInput,
} from './http.js';
import type { TimeWindow } from './types.js';
import { DAY_MS, isWithin, parseExchangeTime, splitWindow, utcDay } from './windows.js';

/**
 * BingX's agent (affiliate) API. Every assumption about it lives in this object: a correction to the
 * documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 */
export const BINGX = {
  exchange: 'bingx',
  baseUrl: 'https://open-api.bingx.com',
  envPrefix: 'BINGX',
  successCode: 0,
  /** At most 5000 ms (documented). */
  recvWindowMs: 5000,
  /** Signature mismatch, wrong key, IP not allowed, timestamp missing or out of window. */
  authCodes: new Set([100001, 100002, 100413, 100419, 100421]),
  rateLimitCodes: new Set([100410]),
  serverCodes: new Set([100500, 100503]),
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
  settleHours: 48,
} as const;

/** The query BingX signs and receives: parameters plus timestamp and recvWindow, sorted by name. */
export function bingxSignedQuery(query: string, timestamp: number): string {
  const params = new URLSearchParams(query);
  params.set('timestamp', String(timestamp));
  params.set('recvWindow', String(BINGX.recvWindowMs));
  return [...params.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

/** hex(HMAC-SHA256(secret, sorted query with timestamp)). */
export function signBingx(secret: string, signedQuery: string): string {
  return createHmac('sha256', secret).update(signedQuery).digest('hex');
}

function interpret<T>(status: number, body: unknown): Interpretation<T> {
  if (!isRecord(body)) return classifyStatus(status);
  const code = typeof body.code === 'number' ? body.code : Number(asString(body.code) ?? Number.NaN);
  const message = asString(body.msg);
  if (code === BINGX.successCode) return { ok: true, data: body.data as T };
  const kind = BINGX.authCodes.has(code)
    ? 'auth'
    : status === 429 || BINGX.rateLimitCodes.has(code)
      ? 'rate-limit'
      : status >= 500 || BINGX.serverCodes.has(code)
        ? 'server'
        : 'request';
  return { ok: false, kind, code: String(code), ...(message === undefined ? {} : { message }) };
}

export function createBingxAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const { apiKey, apiSecret } = credentials;
  const nowDate = options.nowDate ?? (() => new Date());
  const http = createExchangeHttpClient({
    exchange: BINGX.exchange,
    baseUrl: credentials.baseUrl ?? BINGX.baseUrl,
    rateLimit: BINGX.rateLimit,
    authHint: "check BINGX_API_KEY, BINGX_API_SECRET and the key's agent permission and IP list",
    options,
    sign: (input: SignInput) => {
      const query = bingxSignedQuery(input.query, input.timestamp);
      return {
        query: `${query}&signature=${signBingx(apiSecret, query)}`,
        headers: { 'X-BX-APIKEY': apiKey },
      };
    },
  });
  const listSize = Math.min(options.pageSize ?? BINGX.inviteList.maxPageSize, BINGX.inviteList.maxPageSize);
  const commissionSize = Math.min(
    options.pageSize ?? BINGX.commissionList.maxPageSize,
    BINGX.commissionList.maxPageSize,
  );

  async function listPage(path: string, query: Record<string, string | number | undefined>) {
    const endpoint = `GET ${path}`;
    const data = await http.request<unknown>({ method: 'GET', path, query }, interpret);
    if (!isRecord(data) || !Array.isArray(data.list)) throw invalid(endpoint, 'data.list is not a list');
    return data.list.map((row) => {
      if (!isRecord(row) || !asString(row.uid)) throw invalid(endpoint, 'a row has no uid');
      return row;
    });
  }

  function checkLookback(part: TimeWindow) {
    const earliest = nowDate().getTime() - BINGX.commissionList.lookbackDays * DAY_MS;
    if (part.from.getTime() < earliest) {
      throw new ExchangeApiError(BINGX.exchange, 'request', {
        endpoint: `GET ${BINGX.commissionList.path}`,
        exchangeMessage: `the window starts ${part.from.toISOString()}, before the ${BINGX.commissionList.lookbackDays} days BingX answers for; import older figures by CSV`,
        attempts: 1,
      });
    }
  }

  return {
    exchange: BINGX.exchange,
    profile: {
      commissionSource: 'api',
      settleHours: BINGX.settleHours,
      lookbackDays: BINGX.commissionList.lookbackDays,
    },

    async checkReferral(uid) {
      const data = await http.request<unknown>(
        { method: 'GET', path: BINGX.relationCheck.path, query: { uid } },
        interpret,
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
      const { path, maxRangeMs, periodMs } = BINGX.commissionList;
      for (const part of splitWindow(window, maxRangeMs)) {
        checkLookback(part);
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
            // Days are asked for whole; a day belongs to the window that holds its start.
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

function invalid(endpoint: string, reason: string) {
  return new ExchangeApiError(BINGX.exchange, 'invalid-response', {
    endpoint,
    exchangeMessage: reason,
    attempts: 1,
  });
}
