import { createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  CommissionSums,
  type Credentials,
  chunk,
  isRecord,
  SkippedRows,
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
import { DAY_MS, isWithin, parseExchangeTime, splitWindow } from './windows.js';

/**
 * Bitget's broker (affiliate) API. Every assumption about it lives in this object: a correction to
 * the documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 */
export const BITGET = {
  exchange: 'bitget',
  baseUrl: 'https://api.bitget.com',
  envPrefix: 'BITGET',
  successCode: '00000',
  /** ACCESS-KEY/PASSPHRASE empty or wrong, timestamp expired, signature wrong, permission, IP. */
  authCodes: new Set([
    '40001',
    '40002',
    '40003',
    '40004',
    '40005',
    '40006',
    '40008',
    '40009',
    '40011',
    '40012',
    '40013',
    '40014',
    '40018',
    '40037',
  ]),
  rateLimitCodes: new Set(['429']),
  serverCodes: new Set(['40015', '40010']),
  customerList: {
    path: '/api/v2/broker/customer-list',
    /** unconfirmed: one SDK says GET. */
    method: 'POST' as 'GET' | 'POST',
    maxPageSize: 1000,
    /** unconfirmed: no range limit is documented for the roster; the commission limit is used. */
    maxRangeMs: 90 * DAY_MS,
  },
  customerCommissions: {
    path: '/api/v2/broker/customer-commissions',
    /** unconfirmed: the documented maximum of most v2 list calls. */
    maxPageSize: 100,
    maxRangeMs: 90 * DAY_MS,
    /** Rows are daily per UID and symbol; `date` is the day's start (epoch ms). */
    periodMs: DAY_MS,
    /** fee = what the trader paid, rebateAmount = what we earned; amounts in `coin`. */
  },
  /** unconfirmed: 10 requests per second per UID, Bitget's usual limit for these calls. */
  rateLimit: { limit: 10, intervalMs: 1000 },
  /** Daily figures settle T+1; waiting 48 h covers late corrections. */
  settleHours: 48,
} as const;

/** base64(HMAC-SHA256(secret, timestamp + METHOD + path [+ '?' + query] + body)), timestamp in ms. */
export function signBitget(secret: string, input: SignInput): string {
  const prehash = `${input.timestamp}${input.method}${input.path}${input.query ? `?${input.query}` : ''}${input.body}`;
  return createHmac('sha256', secret).update(prehash).digest('base64');
}

function interpret<T>(status: number, body: unknown): Interpretation<T> {
  if (!isRecord(body)) return classifyStatus(status);
  const code = asString(body.code) ?? '';
  const message = asString(body.msg);
  if (code === BITGET.successCode) return { ok: true, data: body.data as T };
  const kind = BITGET.authCodes.has(code)
    ? 'auth'
    : status === 429 || BITGET.rateLimitCodes.has(code)
      ? 'rate-limit'
      : status >= 500 || BITGET.serverCodes.has(code)
        ? 'server'
        : 'request';
  return { ok: false, kind, code, ...(message === undefined ? {} : { message }) };
}

export function createBitgetAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const { apiKey, apiSecret, passphrase = '' } = credentials;
  const http = createExchangeHttpClient({
    exchange: BITGET.exchange,
    baseUrl: credentials.baseUrl ?? BITGET.baseUrl,
    rateLimit: BITGET.rateLimit,
    authHint:
      "check BITGET_API_KEY, BITGET_API_SECRET, BITGET_API_PASSPHRASE and the key's broker permission",
    options,
    sign: (input) => ({
      query: input.query,
      headers: {
        'ACCESS-KEY': apiKey,
        'ACCESS-SIGN': signBitget(apiSecret, input),
        'ACCESS-TIMESTAMP': String(input.timestamp),
        'ACCESS-PASSPHRASE': passphrase,
        locale: 'en-US',
      },
    }),
  });
  const listPageSize = Math.min(
    options.pageSize ?? BITGET.customerList.maxPageSize,
    BITGET.customerList.maxPageSize,
  );
  const commissionPageSize = Math.min(
    options.pageSize ?? BITGET.customerCommissions.maxPageSize,
    BITGET.customerCommissions.maxPageSize,
  );

  async function customerList(
    params: Record<string, string>,
    mode: RequestMode = 'sync',
  ): Promise<ReferralEntry[]> {
    const { path, method } = BITGET.customerList;
    const data = await http.request<unknown>(
      method === 'POST' ? { method, path, body: params } : { method, path, query: params },
      interpret,
      mode,
    );
    if (!Array.isArray(data)) throw invalid(`${method} ${path}`, 'data is not a list');
    return data.map((row) => {
      const uid = isRecord(row) ? asString(row.uid) : undefined;
      if (!uid || !isRecord(row)) throw invalid(`${method} ${path}`, 'a row has no uid');
      return { uid, registeredAt: parseExchangeTime(row.registerTime) };
    });
  }

  return {
    exchange: BITGET.exchange,
    profile: { commissionSource: 'api', settleHours: BITGET.settleHours },

    async checkReferral(uid) {
      const [row] = await customerList({ uid, pageNo: '1', pageSize: '1' }, 'live');
      return row && row.uid === uid ? row : null;
    },

    async *listReferrals(window) {
      for (const part of splitWindow(window, BITGET.customerList.maxRangeMs)) {
        for (let pageNo = 1; ; pageNo += 1) {
          const rows = await customerList({
            startTime: String(part.from.getTime()),
            endTime: String(part.to.getTime() - 1),
            pageNo: String(pageNo),
            pageSize: String(listPageSize),
          });
          const inWindow = rows.filter((row) => isWithin(row.registeredAt, part));
          if (inWindow.length > 0) yield inWindow;
          if (rows.length < listPageSize) break;
        }
      }
    },

    async *listCommissions(window) {
      const { path, periodMs, maxRangeMs } = BITGET.customerCommissions;
      for (const part of splitWindow(window, maxRangeMs)) {
        const sums = new CommissionSums(BITGET.exchange, options.warn);
        const skipped = new SkippedRows();
        let idLessThan: string | undefined;
        for (;;) {
          const data = await http.request<unknown>(
            {
              method: 'GET',
              path,
              query: {
                startTime: part.from.getTime(),
                endTime: part.to.getTime() - 1,
                limit: commissionPageSize,
                idLessThan,
              },
            },
            interpret,
          );
          if (!isRecord(data) || !Array.isArray(data.commissionList)) {
            throw invalid(`GET ${path}`, 'data.commissionList is not a list');
          }
          for (const row of data.commissionList) {
            if (!isRecord(row) || !asString(row.uid)) throw invalid(`GET ${path}`, 'a row has no uid');
            const day = parseExchangeTime(row.date);
            // The API filters by time; this keeps a row on a boundary in exactly one window.
            if (!isWithin(day, part)) continue;
            const coin = asString(row.coin)?.toUpperCase() ?? 'USDT';
            if (coin !== 'USDT') {
              skipped.add(coin);
              continue;
            }
            sums.add(
              asString(row.uid) as string,
              { from: day, to: new Date(day.getTime() + periodMs) },
              {
                volume: asString(row.dealAmount) ?? '0',
                fee: asString(row.fee) ?? '0',
                commission: asString(row.rebateAmount) ?? '0',
              },
            );
          }
          const endId = asString(data.endId);
          if (data.commissionList.length < commissionPageSize || !endId || endId === idLessThan) break;
          idLessThan = endId;
        }
        skipped.report(BITGET.exchange, part, options.warn);
        for (const page of chunk(sums.entries())) yield page;
      }
    },
  };
}

function invalid(endpoint: string, reason: string) {
  return new ExchangeApiError(BITGET.exchange, 'invalid-response', {
    endpoint,
    exchangeMessage: reason,
    attempts: 1,
  });
}
