import { createHash, createHmac } from 'node:crypto';
import {
  type AdapterOptions,
  asString,
  CommissionSums,
  type Credentials,
  cachedRoster,
  chunk,
  isRecord,
  pageSizeFor,
  registrationInRoster,
  SkippedRows,
  type SyncableExchangeAdapter,
} from './adapter.js';
import {
  answerError,
  classifyStatus,
  createExchangeHttpClient,
  type Interpreter,
  type RequestMode,
  type Signed,
  type SignInput,
} from './http.js';
import type { ReferralEntry } from './types.js';
import { DAY_MS, isWithin, parseExchangeTime, splitWindow } from './windows.js';

/**
 * Gate's partner (rebate) API v4. Every assumption about it lives in this object: a correction to the
 * documentation is one edit here. "unconfirmed" = seen only in an SDK or a secondary source.
 */
const GATE = {
  exchange: 'gate',
  name: 'Gate',
  baseUrl: 'https://api.gateio.ws',
  /** Paths below are relative to it; the signature covers the full path (/api/v4/...). */
  apiPrefix: '/api/v4',
  envPrefix: 'GATE',
  authHint: 'check GATE_API_KEY, GATE_API_SECRET and that the key has the Rebate permission',
  /** Errors are {label, message} with a 4xx/5xx status; success is the bare answer. By label: */
  errors: {
    auth: new Set([
      'INVALID_KEY',
      'INVALID_SIGNATURE',
      'MISSING_REQUIRED_HEADER',
      'REQUEST_EXPIRED',
      'IP_FORBIDDEN',
      'FORBIDDEN',
      'READ_ONLY',
      'INVALID_CREDENTIALS',
    ]),
    rateLimit: new Set(['TOO_MANY_REQUESTS']),
    server: new Set(['SERVER_ERROR', 'TOO_BUSY', 'INTERNAL']),
    /** Any 401 is an auth error, whatever its label. */
    statusOverrides: { 401: 'auth' },
  },
  subRelation: {
    path: '/rebate/user/sub_relation',
    /** `type` 3 = a direct customer of ours. */
    directCustomerType: 3,
  },
  subList: {
    /** unconfirmed: not in our exchange notes; Gate's SDKs list it (user_id, limit, offset -> {total, list}). */
    path: '/rebate/partner/sub_list',
    maxPageSize: 100,
    /** user_join_time in unix seconds. */
  },
  commissionHistory: {
    path: '/rebate/partner/commission_history',
    /** unconfirmed: the largest page; 100 is Gate's usual default. */
    maxPageSize: 100,
    /** from/to in unix seconds, at most 30 days apart. */
    maxRangeMs: 30 * DAY_MS,
    /** Rows are single commission credits: commission_time (s), user_id, commission_amount, commission_asset. */
  },
  transactionHistory: {
    /**
     * unconfirmed: not in our exchange notes; Gate's SDKs list it (user_id, from, to, limit, offset ->
     * {total, list}). The commission history has no fee, and the cashback rule is fee x rate capped by
     * the commission, so fees and volumes come from here: rows are trades with transaction_time (s),
     * user_id, fee + fee_asset, amount + amount_asset. Same range limit as the commission history.
     */
    path: '/rebate/partner/transaction_history',
    maxPageSize: 100,
  },
  /** unconfirmed: Gate documents 200 requests per 10 s for most private calls; we stay well below. */
  rateLimit: { limit: 10, intervalMs: 1000 },
  settleHours: 48,
} as const;

/**
 * SIGN = hex(HMAC-SHA512(secret, METHOD\npath\nquery\nhex(SHA512(body))\ntimestamp)) over the full
 * path (/api/v4/...), Timestamp in seconds, KEY.
 */
export function signGate(input: SignInput, credentials: Credentials): Signed {
  const bodyHash = createHash('sha512').update(input.body).digest('hex');
  const timestamp = Math.floor(input.timestamp / 1000);
  const prehash = `${input.method}\n${input.path}\n${input.query}\n${bodyHash}\n${timestamp}`;
  return {
    headers: {
      KEY: credentials.apiKey,
      Timestamp: String(timestamp),
      SIGN: createHmac('sha512', credentials.apiSecret).update(prehash).digest('hex'),
    },
  };
}

const interpret: Interpreter = (status, body) => {
  if (status >= 200 && status < 300 && body !== undefined) return { ok: true, data: body };
  if (!isRecord(body)) return classifyStatus(status);
  return answerError(status, asString(body.label) ?? '', asString(body.message), GATE.errors);
};

export function createGateAdapter(
  credentials: Credentials,
  options: AdapterOptions = {},
): SyncableExchangeAdapter {
  const http = createExchangeHttpClient({ api: GATE, credentials, options, sign: signGate, interpret });
  const path = (relative: string) => `${GATE.apiPrefix}${relative}`;
  const listSize = pageSizeFor(options, GATE.subList.maxPageSize);
  const tradeSize = pageSizeFor(options, GATE.transactionHistory.maxPageSize);
  const historySize = pageSizeFor(options, GATE.commissionHistory.maxPageSize);

  /** One page of an offset-paged {total, list} answer. */
  async function offsetPage(
    relative: string,
    query: Record<string, string | number | undefined>,
    mode: RequestMode = 'sync',
  ) {
    const endpoint = `GET ${path(relative)}`;
    const data = await http.request({ method: 'GET', path: path(relative), query }, mode);
    if (!isRecord(data) || !Array.isArray(data.list)) throw http.invalid(endpoint, 'list is not a list');
    const rows = data.list.map((row) => {
      if (!isRecord(row)) throw http.invalid(endpoint, 'a row is not an object');
      return row;
    });
    return { rows, total: Number(data.total ?? Number.NaN) };
  }

  async function* directCustomers(
    userId?: string,
    mode: RequestMode = 'sync',
  ): AsyncGenerator<ReferralEntry[]> {
    for (let offset = 0; ; ) {
      const { rows, total } = await offsetPage(
        GATE.subList.path,
        {
          user_id: userId,
          limit: listSize,
          offset,
        },
        mode,
      );
      yield rows
        .filter((row) => Number(row.type) === GATE.subRelation.directCustomerType)
        .map((row) => {
          const uid = asString(row.user_id);
          if (!uid) throw http.invalid(`GET ${path(GATE.subList.path)}`, 'a row has no user_id');
          return { uid, registeredAt: parseExchangeTime(row.user_join_time, 's') };
        });
      offset += rows.length;
      if (rows.length < listSize || (Number.isFinite(total) && offset >= total)) return;
    }
  }

  return {
    exchange: GATE.exchange,
    profile: { commissionSource: 'api', settleHours: GATE.settleHours },

    async checkReferral(uid) {
      const relation = await http.request(
        { method: 'GET', path: path(GATE.subRelation.path), query: { user_id_list: uid } },
        'live',
      );
      const list = isRecord(relation) && Array.isArray(relation.list) ? relation.list : [];
      const mine = list.find(
        (row) =>
          isRecord(row) &&
          asString(row.uid) === uid &&
          Number(row.type) === GATE.subRelation.directCustomerType,
      );
      if (!mine) return null;
      // The relation has no join time; the partner's customer list has it.
      return registrationInRoster(uid, directCustomers(uid, 'live'), options, {
        message: 'gate: a direct customer is missing from the customer list; registration time set to now',
      });
    },

    listReferrals: cachedRoster(() => directCustomers(), options.nowDate ? { now: options.nowDate } : {}),

    async *listCommissions(window) {
      for (const part of splitWindow(window, GATE.commissionHistory.maxRangeMs)) {
        const sums = new CommissionSums(GATE.exchange, options.warn);
        const skipped = new SkippedRows();
        const range = {
          from: Math.floor(part.from.getTime() / 1000),
          // `to` is inclusive in seconds: stop one second before the next part starts.
          to: Math.ceil(part.to.getTime() / 1000) - 1,
        };
        for await (const row of allRows(GATE.commissionHistory.path, range, 'commission_time')) {
          const asset = asString(row.commission_asset)?.toUpperCase() ?? 'USDT';
          if (!isWithin(parseExchangeTime(row.commission_time, 's'), part)) continue;
          if (asset !== 'USDT') {
            skipped.add(asset);
            continue;
          }
          sums.add(asString(row.user_id) as string, part, {
            commission: asString(row.commission_amount) ?? '0',
          });
        }
        for await (const row of allRows(GATE.transactionHistory.path, range, 'transaction_time')) {
          if (!isWithin(parseExchangeTime(row.transaction_time, 's'), part)) continue;
          const uid = asString(row.user_id) as string;
          // A fee or volume in another asset cannot be valued here: it is counted as skipped.
          const feeAsset = asString(row.fee_asset)?.toUpperCase() ?? 'USDT';
          const amountAsset = asString(row.amount_asset)?.toUpperCase() ?? 'USDT';
          if (feeAsset === 'USDT') sums.add(uid, part, { fee: asString(row.fee) ?? '0' });
          else skipped.add(`fee:${feeAsset}`);
          if (amountAsset === 'USDT') sums.add(uid, part, { volume: asString(row.amount) ?? '0' });
        }
        skipped.report(GATE.exchange, part, options.warn);
        for (const page of chunk(sums.entries())) yield page;
      }
    },
  };

  /** Every row of an offset-paged history for [from, to] (unix seconds), each with a user_id. */
  async function* allRows(relative: string, range: { from: number; to: number }, timeField: string) {
    const size = relative === GATE.transactionHistory.path ? tradeSize : historySize;
    for (let offset = 0; ; ) {
      const { rows, total } = await offsetPage(relative, { ...range, limit: size, offset });
      for (const row of rows) {
        if (!asString(row.user_id) || row[timeField] === undefined) {
          throw http.invalid(`GET ${path(relative)}`, `a row has no user_id or ${timeField}`);
        }
        yield row;
      }
      offset += rows.length;
      if (rows.length < size || (Number.isFinite(total) && offset >= total)) return;
    }
  }
}
