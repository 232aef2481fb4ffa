import { createHmac } from 'node:crypto';
import {
  FakeExchange,
  type FakeRequest,
  type FakeResponse,
  type FaultKind,
  requireLimit,
  signatureMatches,
  sumDecimals,
} from './fake-exchange.js';

/**
 * Bybit as its docs describe it: X-BAPI-API-KEY, X-BAPI-TIMESTAMP (ms), X-BAPI-RECV-WINDOW,
 * X-BAPI-SIGN = hex(HMAC-SHA256(timestamp + apiKey + recvWindow + queryString)); answers
 * {retCode, retMsg, result, retExtInfo, time}. Its IP rate limit is an HTTP 403 with a text body
 * (the 'http-429' fault here).
 */
export class BybitFake extends FakeExchange {
  protected verify(request: Omit<FakeRequest, 'signed'>): FakeResponse | undefined {
    const header = (name: string) => String(request.headers[name] ?? '');
    if (header('x-bapi-api-key') !== this.credentials.apiKey) return error(10003, 'API key is invalid.');
    const timestamp = header('x-bapi-timestamp');
    const recvWindow = header('x-bapi-recv-window') || '5000';
    if (!/^\d{13}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > Number(recvWindow)) {
      return error(10002, 'invalid request, please check your server timestamp or recv_window param');
    }
    const payload = request.method === 'GET' ? request.rawQuery : request.body;
    const expected = createHmac('sha256', this.credentials.apiSecret)
      .update(`${timestamp}${this.credentials.apiKey}${recvWindow}${payload}`)
      .digest();
    if (!signatureMatches(header('x-bapi-sign'), 'hex', expected)) {
      return error(10004, 'error sign! origin_string[...]');
    }
    return undefined;
  }

  protected answer(request: FakeRequest): FakeResponse {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /v5/user/aff-customer-info') return this.customerInfo(request.query.get('uid') ?? '');
    if (route === 'GET /v5/affiliate/aff-user-list') return this.userList(request.query);
    return { status: 404, body: { retCode: 10017, retMsg: 'route not found' } };
  }

  private customerInfo(uid: string): FakeResponse {
    if (!this.referrals.some((referral) => referral.uid === uid)) return error(10001, 'params error');
    const trades = this.trades.filter((trade) => trade.uid === uid);
    const volume = sumDecimals(trades.map((trade) => trade.volume));
    return ok({
      uid,
      vipLevel: 'No VIP',
      takerVol30Day: volume,
      makerVol30Day: '0',
      tradeVol30Day: volume,
      depositAmount30Day: '0',
      takerVol365Day: volume,
      makerVol365Day: '0',
      tradeVol365Day: volume,
      depositAmount365Day: '0',
      totalWalletBalance: '1',
      depositUpdateTime: '2026-01-15 00:00:00',
      volUpdateTime: '2026-01-15 00:00:00',
      KycLevel: 1,
    });
  }

  private userList(query: URLSearchParams): FakeResponse {
    const size = Number(query.get('size') ?? 0) || 1000;
    requireLimit(size >= 1 && size <= 1000, 'size must be between 0 and 1000');
    const offset = Number(query.get('cursor') || 0);
    const rows = [...this.referrals].sort((a, b) => a.uid.localeCompare(b.uid));
    const page = rows.slice(offset, offset + size).map((referral) => ({
      userId: referral.uid,
      registerTime: referral.registeredAt.toISOString().slice(0, 19).replace('T', ' '),
      source: 'ELEXCB',
      remarks: '',
      isKyc: true,
    }));
    const next = offset + size < rows.length ? String(offset + size) : '';
    return ok({ list: page, nextPageCursor: next });
  }

  protected faultAnswer(kind: FaultKind): FakeResponse {
    if (kind === 'rate-limit') return error(10006, 'Too many visits!');
    if (kind === 'http-429') return { status: 403, text: 'access too frequent' };
    if (kind === 'server') return { status: 502, body: { retCode: 10016, retMsg: 'Internal server error.' } };
    return FakeExchange.html502();
  }

  protected refuse(message: string): FakeResponse {
    return error(10001, `params error: ${message}`);
  }
}

function ok(result: unknown): FakeResponse {
  return { status: 200, body: { retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: Date.now() } };
}

function error(retCode: number, retMsg: string): FakeResponse {
  return { status: 200, body: { retCode, retMsg, result: {}, retExtInfo: {}, time: Date.now() } };
}
