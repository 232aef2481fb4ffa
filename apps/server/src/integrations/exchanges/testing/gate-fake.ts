import { createHash, createHmac } from 'node:crypto';
import {
  DAY,
  FakeExchange,
  type FakeRequest,
  type FakeResponse,
  type FaultKind,
  requireLimit,
  signatureMatches,
} from './fake-exchange.js';

/**
 * Gate APIv4 as its docs describe it: KEY, Timestamp (s), SIGN = hex(HMAC-SHA512(METHOD\npath\nquery\n
 * hex(SHA512(body))\ntimestamp)) over the full path (/api/v4/...); success is the bare answer, errors
 * are {label, message} with a 4xx/5xx status. Commission history rows are single credits.
 */
export class GateFake extends FakeExchange {
  static readonly maxRangeMs = 30 * DAY;
  /** UIDs that are customers of a sub-partner (type 2), not ours directly. */
  readonly indirect: string[] = [];

  protected verify(request: Omit<FakeRequest, 'signed'>): FakeResponse | undefined {
    const header = (name: string) => String(request.headers[name] ?? '');
    if (header('key') !== this.credentials.apiKey) return error(401, 'INVALID_KEY', 'Invalid key provided');
    const timestamp = header('timestamp');
    if (!/^\d{10}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 60) {
      return error(403, 'REQUEST_EXPIRED', 'gap between request Timestamp and server time exceeds 60');
    }
    const bodyHash = createHash('sha512').update(request.body).digest('hex');
    const expected = createHmac('sha512', this.credentials.apiSecret)
      .update(`${request.method}\n${request.path}\n${request.rawQuery}\n${bodyHash}\n${timestamp}`)
      .digest();
    if (!signatureMatches(header('sign'), 'hex', expected)) {
      return error(401, 'INVALID_SIGNATURE', 'Signature mismatch');
    }
    return undefined;
  }

  protected answer(request: FakeRequest): FakeResponse {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /api/v4/rebate/user/sub_relation') return this.subRelation(request.query);
    if (route === 'GET /api/v4/rebate/partner/sub_list') return this.subList(request.query);
    if (route === 'GET /api/v4/rebate/partner/commission_history')
      return this.commissionHistory(request.query);
    if (route === 'GET /api/v4/rebate/partner/transaction_history') {
      return this.transactionHistory(request.query);
    }
    return error(404, 'NOT_FOUND', 'Not found');
  }

  private subRelation(query: URLSearchParams): FakeResponse {
    const uids = (query.get('user_id_list') ?? '').split(',');
    const list = uids.flatMap((uid) => {
      if (this.referrals.some((referral) => referral.uid === uid)) {
        return [{ uid: Number(uid), belong: 'partner', type: 3, ref_uid: 0 }];
      }
      if (this.indirect.includes(uid))
        return [{ uid: Number(uid), belong: 'partner', type: 2, ref_uid: 777 }];
      return [];
    });
    return { status: 200, body: { list } };
  }

  private subList(query: URLSearchParams): FakeResponse {
    const limit = Number(query.get('limit') ?? 100);
    const offset = Number(query.get('offset') ?? 0);
    requireLimit(limit >= 1 && limit <= 1000, 'limit must be between 1 and 1000');
    const userId = query.get('user_id');
    const rows = [
      ...this.referrals.map((referral) => ({
        user_id: Number(referral.uid),
        user_join_time: Math.floor(referral.registeredAt.getTime() / 1000),
        type: 3,
      })),
      ...this.indirect.map((uid) => ({ user_id: Number(uid), user_join_time: 1_760_000_000, type: 2 })),
    ]
      .filter((row) => (userId ? String(row.user_id) === userId : true))
      .sort((a, b) => a.user_id - b.user_id);
    return { status: 200, body: { total: rows.length, list: rows.slice(offset, offset + limit) } };
  }

  private commissionHistory(query: URLSearchParams): FakeResponse {
    const { from, to, limit, offset } = this.historyRange(query);
    const rows = this.trades
      .map((trade) => ({
        commission_time: Math.floor(trade.at.getTime() / 1000),
        user_id: Number(trade.uid),
        group_name: '',
        commission_amount: trade.commission,
        commission_asset: trade.coin ?? 'USDT',
        source: 'FUTURES',
      }))
      .filter((row) => row.commission_time >= from && row.commission_time <= to)
      .sort((a, b) => b.commission_time - a.commission_time);
    return { status: 200, body: { total: rows.length, list: rows.slice(offset, offset + limit) } };
  }

  /** Trades with their fee and amount, newest first. */
  private transactionHistory(query: URLSearchParams): FakeResponse {
    const { from, to, limit, offset } = this.historyRange(query);
    const rows = this.trades
      .map((trade) => ({
        transaction_time: Math.floor(trade.at.getTime() / 1000),
        user_id: Number(trade.uid),
        group_name: '',
        fee: trade.fee,
        fee_asset: trade.coin ?? 'USDT',
        currency_pair: 'BTC_USDT',
        amount: trade.volume,
        amount_asset: 'USDT',
        source: 'FUTURES',
      }))
      .filter((row) => row.transaction_time >= from && row.transaction_time <= to)
      .sort((a, b) => b.transaction_time - a.transaction_time);
    return { status: 200, body: { total: rows.length, list: rows.slice(offset, offset + limit) } };
  }

  private historyRange(query: URLSearchParams) {
    const from = Number(query.get('from'));
    const to = Number(query.get('to'));
    const limit = Number(query.get('limit') ?? 100);
    const offset = Number(query.get('offset') ?? 0);
    requireLimit(
      to >= from && (to - from) * 1000 <= GateFake.maxRangeMs,
      'the range between from and to must not exceed 30 days',
    );
    requireLimit(limit >= 1 && limit <= 100, 'limit must be between 1 and 100');
    return { from, to, limit, offset };
  }

  protected faultAnswer(kind: FaultKind): FakeResponse {
    if (kind === 'rate-limit') return error(429, 'TOO_MANY_REQUESTS', 'Request Rate limit Exceeded');
    if (kind === 'http-429') return { status: 429, text: 'Too Many Requests' };
    if (kind === 'server') return error(500, 'SERVER_ERROR', 'Internal server error');
    return FakeExchange.html502();
  }

  protected refuse(message: string): FakeResponse {
    return error(400, 'INVALID_PARAM_VALUE', message);
  }
}

function error(status: number, label: string, message: string): FakeResponse {
  return { status, body: { label, message } };
}
