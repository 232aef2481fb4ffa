import { createHmac } from 'node:crypto';
import {
  DAY,
  dayStart,
  FakeExchange,
  type FakeRequest,
  type FakeResponse,
  type FakeTrade,
  type FaultKind,
  pageOf,
  requireLimit,
  signatureMatches,
  sumDecimals,
} from './fake-exchange.js';

/**
 * Bitget as its docs describe it: ACCESS-KEY, ACCESS-SIGN = base64(HMAC-SHA256(timestamp + METHOD +
 * path [+ '?' + query] + body)), ACCESS-TIMESTAMP in ms, ACCESS-PASSPHRASE; answers
 * {code, msg, requestTime, data}, "00000" on success. Commission rows are daily per UID and symbol.
 */
export class BitgetFake extends FakeExchange {
  static readonly maxRangeMs = 90 * DAY;

  protected verify(request: Omit<FakeRequest, 'signed'>): FakeResponse | undefined {
    const header = (name: string) => String(request.headers[name] ?? '');
    if (header('access-key') !== this.credentials.apiKey) return error(400, '40006', 'Invalid ACCESS_KEY');
    if (header('access-passphrase') !== this.credentials.passphrase) {
      return error(400, '40012', 'apikey/password is incorrect');
    }
    const timestamp = header('access-timestamp');
    if (!/^\d{13}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > 30_000) {
      return error(400, '40008', 'Request timestamp expired');
    }
    const prehash = `${timestamp}${request.method}${request.path}${request.rawQuery ? `?${request.rawQuery}` : ''}${request.body}`;
    const expected = createHmac('sha256', this.credentials.apiSecret).update(prehash).digest();
    if (!signatureMatches(header('access-sign'), 'base64', expected)) {
      return error(400, '40009', 'sign signature error');
    }
    return undefined;
  }

  protected answer(request: FakeRequest): FakeResponse {
    const route = `${request.method} ${request.path}`;
    if (route === 'POST /api/v2/broker/customer-list')
      return this.customerList(JSON.parse(request.body || '{}'));
    if (route === 'GET /api/v2/broker/customer-commissions') return this.customerCommissions(request.query);
    return error(404, '40404', 'Request URL NOT FOUND');
  }

  private customerList(body: Record<string, string | undefined>): FakeResponse {
    const pageNo = Number(body.pageNo ?? 1);
    const pageSize = Number(body.pageSize ?? 100);
    requireLimit(pageSize >= 1 && pageSize <= 1000, 'pageSize must be between 1 and 1000');
    const start = body.startTime === undefined ? -Infinity : Number(body.startTime);
    const end = body.endTime === undefined ? Infinity : Number(body.endTime);
    const rows = this.referrals
      .filter((referral) => (body.uid ? referral.uid === body.uid : true))
      .filter(
        (referral) => referral.registeredAt.getTime() >= start && referral.registeredAt.getTime() <= end,
      )
      .map((referral) => ({ uid: referral.uid, registerTime: String(referral.registeredAt.getTime()) }));
    return ok(pageOf(rows, pageNo, pageSize));
  }

  /** Daily rows per UID, symbol and coin, newest id first; paged by idLessThan. */
  private customerCommissions(query: URLSearchParams): FakeResponse {
    const start = Number(query.get('startTime'));
    const end = Number(query.get('endTime'));
    const limit = Number(query.get('limit') ?? 100);
    requireLimit(
      end >= start && end - start <= BitgetFake.maxRangeMs,
      'the time range must not exceed 90 days',
    );
    requireLimit(limit >= 1 && limit <= 100, 'limit must be between 1 and 100');
    const idLessThan = query.get('idLessThan');
    const rows = this.dailyRows()
      .filter((row) => Number(row.date) >= start && Number(row.date) <= end)
      .filter((row) => (idLessThan ? Number(row.id) < Number(idLessThan) : true))
      .sort((a, b) => Number(b.id) - Number(a.id))
      .slice(0, limit);
    return ok({ endId: rows.at(-1)?.id ?? '', commissionList: rows });
  }

  private dailyRows() {
    const buckets = new Map<string, { uid: string; date: number; coin: string; trades: FakeTrade[] }>();
    for (const trade of this.trades) {
      const date = dayStart(trade.at).getTime();
      const coin = trade.coin ?? 'USDT';
      const key = `${trade.uid}|${date}|${coin}`;
      const bucket = buckets.get(key) ?? { uid: trade.uid, date, coin, trades: [] };
      bucket.trades.push(trade);
      buckets.set(key, bucket);
    }
    return [...buckets.values()].map((bucket, index) => ({
      id: String(1000 + index),
      uid: bucket.uid,
      date: String(bucket.date),
      coin: bucket.coin,
      symbol: `BTC${bucket.coin}`,
      dealAmount: sumDecimals(bucket.trades.map((trade) => trade.volume)),
      fee: sumDecimals(bucket.trades.map((trade) => trade.fee)),
      feePaid: sumDecimals(bucket.trades.map((trade) => trade.fee)),
      rebateAmount: sumDecimals(bucket.trades.map((trade) => trade.commission)),
    }));
  }

  protected faultAnswer(kind: FaultKind): FakeResponse {
    if (kind === 'rate-limit') return error(429, '429', 'Too Many Requests');
    if (kind === 'http-429')
      return { status: 429, text: 'Too Many Requests', headers: { 'retry-after': '0' } };
    if (kind === 'server') return error(500, '40015', 'System is abnormal, please try again later');
    return FakeExchange.html502();
  }

  protected refuse(message: string): FakeResponse {
    return error(400, '40017', `Parameter verification failed: ${message}`);
  }
}

function ok(data: unknown): FakeResponse {
  return { status: 200, body: { code: '00000', msg: 'success', requestTime: Date.now(), data } };
}

function error(status: number, code: string, msg: string): FakeResponse {
  return { status, body: { code, msg, requestTime: Date.now(), data: null } };
}
