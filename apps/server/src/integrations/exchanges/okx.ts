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
import { createExchangeHttpClient, ExchangeApiError, type Signed, type SignInput } from './http.js';
import type { ReferralEntry, TimeWindow } from './types.js';
import { DAY_MS, isWithin, parseExchangeTime, splitWindow } from './windows.js';

/**
 * OKX's affiliate API. Every assumption about it lives in this object: a correction to the
 * documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 */
const OKX = {
  exchange: 'okx',
  name: 'OKX',
  baseUrl: 'https://www.okx.com',
  envPrefix: 'OKX',
  authHint: "check OKX_API_KEY, OKX_API_SECRET, OKX_API_PASSPHRASE and the key's read permission",
  /** Answers are {code, msg, data}; "0" is success. */
  envelope: { code: 'code', message: 'msg', data: 'data', success: '0' },
  errors: {
    /** Headers missing or wrong, timestamp expired, invalid key/passphrase/signature, frozen key, IP. */
    auth: new Set([
      '50100',
      '50101',
      '50102',
      '50103',
      '50104',
      '50105',
      '50106',
      '50107',
      '50110',
      '50111',
      '50112',
      '50113',
      '50114',
      '50120',
    ]),
    rateLimit: new Set(['50011', '50061']),
    /** Service unavailable, request timeout, system busy, system error. */
    server: new Set(['50001', '50004', '50013', '50026']),
  },
  /** "The user isn't your invitee": the detail call's answer for a UID that is not ours. */
  notInviteeCode: '51621',
  inviteeDetail: { path: '/api/v5/affiliate/invitee/detail' },
  inviteeList: {
    path: '/api/v5/affiliate/invitee/list',
    maxPageSize: 100,
    /** begin/end in ms; one call covers at most 90 days and starts no earlier than 180 days ago. */
    maxRangeMs: 90 * DAY_MS,
    lookbackDays: 180,
    /** unconfirmed: `data` is the list of rows {uid, joinTime, totalVol, totalFee, totalCommission}. */
  },
  /** 3 requests per second (documented for the invitee list; used for both calls). */
  rateLimit: { limit: 3, intervalMs: 1000 },
  settleHours: 48,
} as const;

/** OKX's timestamp: ISO 8601 with milliseconds, UTC. */
function okxTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

/**
 * OK-ACCESS-SIGN = base64(HMAC-SHA256(secret, timestamp + METHOD + requestPath + body)), a GET's
 * requestPath holding its query; OK-ACCESS-TIMESTAMP as okxTimestamp, OK-ACCESS-KEY and -PASSPHRASE.
 */
export function signOkx(input: SignInput, credentials: Credentials): Signed {
  const { apiKey, apiSecret, passphrase = '' } = credentials;
  const requestPath = `${input.path}${input.query ? `?${input.query}` : ''}`;
  const prehash = `${okxTimestamp(input.timestamp)}${input.method}${requestPath}${input.body}`;
  return {
    headers: {
      'OK-ACCESS-KEY': apiKey,
      'OK-ACCESS-SIGN': createHmac('sha256', apiSecret).update(prehash).digest('base64'),
      'OK-ACCESS-TIMESTAMP': okxTimestamp(input.timestamp),
      'OK-ACCESS-PASSPHRASE': passphrase,
    },
  };
}

export function createOkxAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const nowDate = options.nowDate ?? (() => new Date());
  const http = createExchangeHttpClient({ api: OKX, credentials, options, sign: signOkx });
  const pageSize = pageSizeFor(options, OKX.inviteeList.maxPageSize);
  const listEndpoint = `GET ${OKX.inviteeList.path}`;

  /** Every page of the invitee list for one part of a window (within the API's range and lookback). */
  async function* inviteePages(
    window: TimeWindow,
  ): AsyncGenerator<{ part: TimeWindow; rows: Record<string, unknown>[] }> {
    const now = nowDate();
    for (const part of splitWindow(window, OKX.inviteeList.maxRangeMs)) {
      http.requireWithinLookback(listEndpoint, part, OKX.inviteeList.lookbackDays, now);
      for (let page = 1; ; page += 1) {
        const data = await http.request({
          method: 'GET',
          path: OKX.inviteeList.path,
          query: { begin: part.from.getTime(), end: part.to.getTime() - 1, page, limit: pageSize },
        });
        if (!Array.isArray(data)) throw http.invalid(listEndpoint, 'data is not a list');
        const rows = data.map((row) => {
          if (!isRecord(row) || !asString(row.uid)) throw http.invalid(listEndpoint, 'a row has no uid');
          return row;
        });
        yield { part, rows };
        if (rows.length < pageSize) break;
      }
    }
  }

  return {
    exchange: OKX.exchange,
    profile: {
      commissionSource: 'api',
      settleHours: OKX.settleHours,
      lookbackDays: OKX.inviteeList.lookbackDays,
    },

    async checkReferral(uid) {
      const endpoint = `GET ${OKX.inviteeDetail.path}`;
      let data: unknown;
      try {
        data = await http.request({ method: 'GET', path: OKX.inviteeDetail.path, query: { uid } }, 'live');
      } catch (error) {
        if (error instanceof ExchangeApiError && error.code === OKX.notInviteeCode) return null;
        throw error;
      }
      const [row] = Array.isArray(data) ? data : [];
      if (!isRecord(row)) return null;
      if (row.joinTime === undefined) throw http.invalid(endpoint, 'the invitee has no joinTime');
      return { uid, registeredAt: parseExchangeTime(row.joinTime) };
    },

    async *listReferrals(window) {
      for await (const { part, rows } of inviteePages(window)) {
        const joined: ReferralEntry[] = rows
          .map((row) => ({ uid: asString(row.uid) as string, registeredAt: parseExchangeTime(row.joinTime) }))
          .filter((entry) => isWithin(entry.registeredAt, part));
        if (joined.length > 0) yield joined;
      }
    },

    async *listCommissions(window) {
      // The list answers totals per invitee over [begin, end]: one entry per UID and window part.
      let sums: CommissionSums | undefined;
      let current: TimeWindow | undefined;
      for await (const { part, rows } of inviteePages(window)) {
        if (current !== part) {
          if (sums) for (const page of chunk(sums.entries())) yield page;
          sums = new CommissionSums(OKX.exchange, options.warn);
          current = part;
        }
        for (const row of rows) {
          (sums as CommissionSums).add(asString(row.uid) as string, part, {
            volume: asString(row.totalVol) ?? '0',
            fee: asString(row.totalFee) ?? '0',
            commission: asString(row.totalCommission) ?? '0',
          });
        }
      }
      if (sums) for (const page of chunk(sums.entries())) yield page;
    },
  };
}
