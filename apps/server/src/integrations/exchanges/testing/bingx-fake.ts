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
 * BingX as its docs describe it: header X-BX-APIKEY; the parameters plus timestamp (ms) sorted by
 * name and joined k=v&..., signed with hex(HMAC-SHA256), sent as &signature=; recvWindow at most
 * 5000; answers {code, msg, data}, 0 on success. Commission rows are daily per UID, asked for by
 * YYYYMMDD days (at most 30, within the last 365 days).
 */
export class BingxFake extends FakeExchange {
  static readonly maxRangeDays = 30;
  /** UIDs invited through a sub-agent: inviteResult true, directInvitation false. */
  readonly indirect: string[] = [];

  protected verify(request: Omit<FakeRequest, 'signed'>): FakeResponse | undefined {
    if (request.headers['x-bx-apikey'] !== this.credentials.apiKey) return error(100413, 'Incorrect apiKey');
    const params = [...request.query.entries()];
    const signature = request.query.get('signature') ?? '';
    const signedParams = params.filter(([key]) => key !== 'signature');
    const timestamp = Number(request.query.get('timestamp'));
    const recvWindow = Number(request.query.get('recvWindow') ?? 5000);
    if (recvWindow > 5000) return error(100400, 'recvWindow must not exceed 5000');
    if (!timestamp || Math.abs(Date.now() - timestamp) > recvWindow) {
      return error(100421, 'Null timestamp or timestamp mismatch');
    }
    const sorted = [...signedParams]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => `${key}=${value}`)
      .join('&');
    const expected = createHmac('sha256', this.credentials.apiSecret).update(sorted).digest();
    if (!signatureMatches(signature, 'hex', expected)) {
      return error(100001, 'Signature verification failed due to signature mismatch');
    }
    return undefined;
  }

  protected answer(request: FakeRequest): FakeResponse {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /openApi/agent/v1/account/inviteRelationCheck')
      return this.relation(request.query.get('uid') ?? '');
    if (route === 'GET /openApi/agent/v1/account/inviteAccountList') return this.inviteList(request.query);
    if (route === 'GET /openApi/agent/v2/reward/commissionDataList') return this.commissions(request.query);
    return { status: 404, body: { code: 100404, msg: 'not found' } };
  }

  private relation(uid: string): FakeResponse {
    const referral = this.referrals.find((entry) => entry.uid === uid);
    const indirect = this.indirect.includes(uid);
    return ok({
      uid: Number(uid),
      existInviter: Boolean(referral) || indirect,
      inviteResult: Boolean(referral) || indirect,
      directInvitation: Boolean(referral),
      registerTime: referral?.registeredAt.getTime() ?? 1_760_000_000_000,
      deposit: false,
      kycResult: true,
      balanceVolume: '0',
      trade: false,
      userLevel: 1,
      commissionRatio: 0.3,
      currentBenefit: 0,
      benefitRatio: 0,
      benefitExpiration: 0,
    });
  }

  private inviteList(query: URLSearchParams): FakeResponse {
    const start = Number(query.get('startTime'));
    const end = Number(query.get('endTime'));
    const pageIndex = Number(query.get('pageIndex') ?? 1);
    const pageSize = Number(query.get('pageSize') ?? 100);
    requireLimit(pageSize >= 1 && pageSize <= 200, 'pageSize must be between 1 and 200');
    requireLimit(
      end >= start && end - start <= BingxFake.maxRangeDays * DAY,
      'the range must not exceed 30 days',
    );
    const rows = this.referrals
      .filter(
        (referral) => referral.registeredAt.getTime() >= start && referral.registeredAt.getTime() <= end,
      )
      .sort((a, b) => a.uid.localeCompare(b.uid))
      .map((referral) => ({
        uid: Number(referral.uid),
        registerTime: referral.registeredAt.getTime(),
        directInvitation: true,
        kycResult: 'true',
        deposit: false,
        balanceVolume: '0',
        trade: false,
      }));
    return ok({ list: pageOf(rows, pageIndex, pageSize), total: rows.length });
  }

  private commissions(query: URLSearchParams): FakeResponse {
    const startDay = query.get('startTime') ?? '';
    const endDay = query.get('endTime') ?? '';
    requireLimit(/^\d{8}$/.test(startDay) && /^\d{8}$/.test(endDay), 'startTime and endTime are YYYYMMDD');
    const start = Date.parse(
      `${startDay.slice(0, 4)}-${startDay.slice(4, 6)}-${startDay.slice(6)}T00:00:00Z`,
    );
    const end = Date.parse(`${endDay.slice(0, 4)}-${endDay.slice(4, 6)}-${endDay.slice(6)}T00:00:00Z`);
    requireLimit(end >= start && (end - start) / DAY + 1 <= BingxFake.maxRangeDays, 'at most 30 days');
    requireLimit(start >= dayStart(new Date(Date.now() - 365 * DAY)).getTime(), 'only the last 365 days');
    const pageIndex = Number(query.get('pageIndex') ?? 1);
    const pageSize = Number(query.get('pageSize') ?? 100);
    requireLimit(pageSize >= 1 && pageSize <= 100, 'pageSize must be between 1 and 100');
    const buckets = new Map<string, { uid: string; day: number; trades: FakeTrade[] }>();
    for (const trade of this.trades) {
      const day = dayStart(trade.at).getTime();
      if (day < start || day > end) continue;
      const key = `${trade.uid}|${day}`;
      const bucket = buckets.get(key) ?? { uid: trade.uid, day, trades: [] };
      bucket.trades.push(trade);
      buckets.set(key, bucket);
    }
    const rows = [...buckets.values()]
      .sort((a, b) => a.day - b.day || a.uid.localeCompare(b.uid))
      .map((bucket) => ({
        uid: Number(bucket.uid),
        commissionTime: bucket.day,
        tradingVolume: sumDecimals(bucket.trades.map((trade) => trade.volume)),
        commissionVolume: sumDecimals(bucket.trades.map((trade) => trade.commission)),
      }));
    return ok({ list: pageOf(rows, pageIndex, pageSize), total: rows.length });
  }

  protected faultAnswer(kind: FaultKind): FakeResponse {
    if (kind === 'rate-limit') return error(100410, 'rate limitation');
    if (kind === 'http-429') return { status: 429, text: 'Too Many Requests' };
    if (kind === 'server') return { status: 500, body: { code: 100500, msg: 'Internal system error' } };
    return FakeExchange.html502();
  }

  protected refuse(message: string): FakeResponse {
    return error(100400, message);
  }
}

function ok(data: unknown): FakeResponse {
  return { status: 200, body: { code: 0, msg: '', timestamp: Date.now(), data } };
}

function error(code: number, msg: string): FakeResponse {
  return { status: 200, body: { code, msg, timestamp: Date.now() } };
}
