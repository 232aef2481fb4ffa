import { createHmac } from 'node:crypto';
import {
  DAY,
  FakeExchange,
  type FakeRequest,
  type FakeResponse,
  type FaultKind,
  pageOf,
  requireLimit,
  signatureMatches,
  sumDecimals,
} from './fake-exchange.js';

/**
 * OKX as its docs describe it: OK-ACCESS-KEY, OK-ACCESS-SIGN = base64(HMAC-SHA256(timestamp + METHOD +
 * requestPath + body)) with the query in a GET's requestPath, OK-ACCESS-TIMESTAMP in ISO 8601 with
 * milliseconds, OK-ACCESS-PASSPHRASE; answers {code, msg, data}, "0" on success. The invitee list
 * gives totals per invitee over [begin, end] (at most 90 days, not before 180 days ago).
 */
export class OkxFake extends FakeExchange {
  static readonly maxRangeMs = 90 * DAY;

  protected verify(request: Omit<FakeRequest, 'signed'>): FakeResponse | undefined {
    const header = (name: string) => String(request.headers[name] ?? '');
    if (header('ok-access-key') !== this.credentials.apiKey)
      return error(401, '50111', 'Invalid OK-ACCESS-KEY');
    if (header('ok-access-passphrase') !== this.credentials.passphrase) {
      return error(401, '50105', 'Invalid OK-ACCESS-PASSPHRASE');
    }
    const timestamp = header('ok-access-timestamp');
    if (
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(timestamp) ||
      Math.abs(Date.now() - Date.parse(timestamp)) > 30_000
    ) {
      return error(401, '50102', 'Timestamp request expired');
    }
    const requestPath = `${request.path}${request.rawQuery ? `?${request.rawQuery}` : ''}`;
    const expected = createHmac('sha256', this.credentials.apiSecret)
      .update(`${timestamp}${request.method}${requestPath}${request.body}`)
      .digest();
    if (!signatureMatches(header('ok-access-sign'), 'base64', expected)) {
      return error(401, '50113', 'Invalid Sign');
    }
    return undefined;
  }

  protected answer(request: FakeRequest): FakeResponse {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /api/v5/affiliate/invitee/detail') return this.detail(request.query.get('uid') ?? '');
    if (route === 'GET /api/v5/affiliate/invitee/list') return this.list(request.query);
    return error(404, '50000', 'Not Found');
  }

  private detail(uid: string): FakeResponse {
    const referral = this.referrals.find((entry) => entry.uid === uid);
    if (!referral) return error(200, '51621', "The user isn't your invitee");
    const trades = this.trades.filter((trade) => trade.uid === uid);
    return ok([
      {
        inviteeLevel: '2',
        joinTime: String(referral.registeredAt.getTime()),
        inviteeRebateRate: '0.39',
        totalCommission: sumDecimals(trades.map((trade) => trade.commission)),
        firstTradeTime: '',
        level: 'Lv1',
        depAmt: '',
        volMonth: sumDecimals(trades.map((trade) => trade.volume)),
        accFee: sumDecimals(trades.map((trade) => trade.fee)),
        kycTime: '',
        region: 'Singapore',
        affiliateCode: 'ELEXCB',
      },
    ]);
  }

  private list(query: URLSearchParams): FakeResponse {
    const begin = Number(query.get('begin'));
    const end = Number(query.get('end'));
    const page = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 100);
    requireLimit(limit >= 1 && limit <= 100, 'limit must be between 1 and 100');
    requireLimit(end >= begin && end - begin <= OkxFake.maxRangeMs, 'the window must not exceed 90 days');
    requireLimit(begin >= Date.now() - 180 * DAY, 'begin must be within the last 180 days');
    const rows = this.referrals
      .filter((referral) => referral.registeredAt.getTime() <= end)
      .sort((a, b) => a.uid.localeCompare(b.uid))
      .map((referral) => {
        const trades = this.trades.filter(
          (trade) => trade.uid === referral.uid && trade.at.getTime() >= begin && trade.at.getTime() <= end,
        );
        return {
          uid: referral.uid,
          joinTime: String(referral.registeredAt.getTime()),
          totalVol: sumDecimals(trades.map((trade) => trade.volume)),
          totalFee: sumDecimals(trades.map((trade) => trade.fee)),
          totalCommission: sumDecimals(trades.map((trade) => trade.commission)),
        };
      });
    return ok(pageOf(rows, page, limit));
  }

  protected faultAnswer(kind: FaultKind): FakeResponse {
    if (kind === 'rate-limit') return error(429, '50011', 'Too Many Requests');
    if (kind === 'http-429') return { status: 429, text: 'Too Many Requests' };
    if (kind === 'server') return error(503, '50001', 'Service temporarily unavailable. Try again later');
    return FakeExchange.html502();
  }

  protected refuse(message: string): FakeResponse {
    return error(400, '51000', `Parameter error: ${message}`);
  }
}

function ok(data: unknown): FakeResponse {
  return { status: 200, body: { code: '0', msg: '', data } };
}

function error(status: number, code: string, msg: string): FakeResponse {
  return { status, body: { code, msg, data: [] } };
}
