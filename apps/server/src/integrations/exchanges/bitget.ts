import { createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  CommissionSums,
  type Credentials,
  chunk,
  isRecord,
  pageSizeFor,
  SkippedRows,
  type SyncableExchangeAdapter,
} from './adapter.js';
import { createExchangeHttpClient, type RequestMode, type Signed, type SignInput } from './http.js';
import type { ReferralEntry } from './types.js';
import { DAY_MS, isWithin, parseExchangeTime, periodsEndingIn, splitWindow } from './windows.js';

/**
 * Bitget's broker (affiliate) API. Every assumption about it lives in this object: a correction to
 * the documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 */
const BITGET = {
  exchange: 'bitget',
  name: 'Bitget',
  baseUrl: 'https://api.bitget.com',
  envPrefix: 'BITGET',
  authHint: "check BITGET_API_KEY, BITGET_API_SECRET, BITGET_API_PASSPHRASE and the key's broker permission",
  /** Answers are {code, msg, requestTime, data}; "00000" is success. */
  envelope: { code: 'code', message: 'msg', data: 'data', success: '00000' },
  errors: {
    /** ACCESS-KEY/PASSPHRASE empty or wrong, timestamp expired, signature wrong, permission, IP. */
    auth: new Set([
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
    rateLimit: new Set(['429']),
    server: new Set(['40015', '40010']),
  },
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
    /**
     * Rows are daily per UID and symbol; `date` is the day's start (epoch ms). A day is read with the
     * window its end falls in (`periodsEndingIn`).
     */
    periodMs: DAY_MS,
    /** fee = what the trader paid, rebateAmount = what we earned; amounts in `coin`. */
  },
  /** unconfirmed: 10 requests per second per UID, Bitget's usual limit for these calls. */
  rateLimit: { limit: 10, intervalMs: 1000 },
  /** Daily figures settle T+1; waiting 48 h after the day ends covers late corrections. */
  settleHours: 48,
} as const;

/**
 * ACCESS-SIGN = base64(HMAC-SHA256(secret, timestamp + METHOD + path [+ '?' + query] + body)),
 * ACCESS-TIMESTAMP in ms, ACCESS-KEY and ACCESS-PASSPHRASE.
 */
export function signBitget(input: SignInput, credentials: Credentials): Signed {
  const { apiKey, apiSecret, passphrase = '' } = credentials;
  const prehash = `${input.timestamp}${input.method}${input.path}${input.query ? `?${input.query}` : ''}${input.body}`;
  return {
    headers: {
      'ACCESS-KEY': apiKey,
      'ACCESS-SIGN': createHmac('sha256', apiSecret).update(prehash).digest('base64'),
      'ACCESS-TIMESTAMP': String(input.timestamp),
      'ACCESS-PASSPHRASE': passphrase,
      locale: 'en-US',
    },
  };
}

export function createBitgetAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const http = createExchangeHttpClient({ api: BITGET, credentials, options, sign: signBitget });
  const listPageSize = pageSizeFor(options, BITGET.customerList.maxPageSize);
  const commissionPageSize = pageSizeFor(options, BITGET.customerCommissions.maxPageSize);

  async function customerList(
    params: Record<string, string>,
    mode: RequestMode = 'sync',
  ): Promise<ReferralEntry[]> {
    const { path, method } = BITGET.customerList;
    const data = await http.request(
      method === 'POST' ? { method, path, body: params } : { method, path, query: params },
      mode,
    );
    if (!Array.isArray(data)) throw http.invalid(`${method} ${path}`, 'data is not a list');
    return data.map((row) => {
      const uid = isRecord(row) ? asString(row.uid) : undefined;
      if (!uid || !isRecord(row)) throw http.invalid(`${method} ${path}`, 'a row has no uid');
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
      // A row is dated by its day's start: the day counts in the window its end falls in (a sync's
      // 18:00-24:00 segment), so it is read settleHours after the day ends, not after its first 6 h.
      const days = periodsEndingIn(window, periodMs);
      if (!days) return;
      for (const part of splitWindow(days, maxRangeMs)) {
        const sums = new CommissionSums(BITGET.exchange, options.warn);
        const skipped = new SkippedRows();
        let idLessThan: string | undefined;
        for (;;) {
          const data = await http.request({
            method: 'GET',
            path,
            query: {
              startTime: part.from.getTime(),
              endTime: part.to.getTime() - 1,
              limit: commissionPageSize,
              idLessThan,
            },
          });
          if (!isRecord(data) || !Array.isArray(data.commissionList)) {
            throw http.invalid(`GET ${path}`, 'data.commissionList is not a list');
          }
          for (const row of data.commissionList) {
            if (!isRecord(row) || !asString(row.uid)) throw http.invalid(`GET ${path}`, 'a row has no uid');
            const day = parseExchangeTime(row.date);
            // The API filters by time; this keeps a row on a boundary in exactly one request.
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
