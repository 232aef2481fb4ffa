import type { AdapterOptions, SyncableExchangeAdapter } from '../adapter.js';
import { createBingxAdapter } from '../bingx.js';
import { createBitgetAdapter } from '../bitget.js';
import { createBybitAdapter } from '../bybit.js';
import { createGateAdapter } from '../gate.js';
import { createOkxAdapter } from '../okx.js';
import { BingxFake } from './bingx-fake.js';
import { BitgetFake } from './bitget-fake.js';
import { BybitFake } from './bybit-fake.js';
import type { FakeExchange, FakeRequest } from './fake-exchange.js';
import { GateFake } from './gate-fake.js';
import { OkxFake } from './okx-fake.js';

export const TEST_CREDENTIALS = {
  apiKey: 'test-key',
  apiSecret: 'test-secret',
  passphrase: 'test-passphrase',
};

/** What a test needs to drive one exchange's adapter against its fake. */
export interface ExchangeCase {
  name: 'bitget' | 'okx' | 'bybit' | 'gate' | 'bingx';
  envPrefix: string;
  createFake(): FakeExchange;
  createAdapter(fake: FakeExchange, options?: AdapterOptions, secret?: string): SyncableExchangeAdapter;
  /** Which figures the API gives besides our commission. */
  gives: { volume: boolean; fee: boolean; commissions: boolean };
  /** The commission call, and the range [from, to] one request of it asked for (epoch ms). */
  commissionPath?: string;
  requestedRange?(request: FakeRequest): { from: number; to: number };
  maxRangeMs?: number;
  /** The smallest step of the requested ranges (Gate asks in whole seconds). */
  rangeResolutionMs?: number;
}

const connect = (fake: FakeExchange, secret?: string) => ({
  ...TEST_CREDENTIALS,
  ...(secret === undefined ? {} : { apiSecret: secret }),
  baseUrl: fake.url,
});

const dayOf = (text: string | null) =>
  Date.parse(`${text?.slice(0, 4)}-${text?.slice(4, 6)}-${text?.slice(6, 8)}T00:00:00Z`);

export const EXCHANGE_CASES: ExchangeCase[] = [
  {
    name: 'bitget',
    envPrefix: 'BITGET',
    createFake: () => new BitgetFake(TEST_CREDENTIALS),
    createAdapter: (fake, options, secret) => createBitgetAdapter(connect(fake, secret), options),
    gives: { volume: true, fee: true, commissions: true },
    commissionPath: '/api/v2/broker/customer-commissions',
    requestedRange: (request) => ({
      from: Number(request.query.get('startTime')),
      to: Number(request.query.get('endTime')),
    }),
    maxRangeMs: BitgetFake.maxRangeMs,
  },
  {
    name: 'okx',
    envPrefix: 'OKX',
    createFake: () => new OkxFake(TEST_CREDENTIALS),
    createAdapter: (fake, options, secret) => createOkxAdapter(connect(fake, secret), options),
    gives: { volume: true, fee: true, commissions: true },
    commissionPath: '/api/v5/affiliate/invitee/list',
    requestedRange: (request) => ({
      from: Number(request.query.get('begin')),
      to: Number(request.query.get('end')),
    }),
    maxRangeMs: OkxFake.maxRangeMs,
  },
  {
    name: 'bybit',
    envPrefix: 'BYBIT',
    createFake: () => new BybitFake(TEST_CREDENTIALS),
    createAdapter: (fake, options, secret) => createBybitAdapter(connect(fake, secret), options),
    gives: { volume: false, fee: false, commissions: false },
  },
  {
    name: 'gate',
    envPrefix: 'GATE',
    createFake: () => new GateFake(TEST_CREDENTIALS),
    createAdapter: (fake, options, secret) => createGateAdapter(connect(fake, secret), options),
    gives: { volume: true, fee: true, commissions: true },
    commissionPath: '/api/v4/rebate/partner/commission_history',
    requestedRange: (request) => ({
      from: Number(request.query.get('from')) * 1000,
      to: Number(request.query.get('to')) * 1000,
    }),
    maxRangeMs: GateFake.maxRangeMs,
    rangeResolutionMs: 1000,
  },
  {
    name: 'bingx',
    envPrefix: 'BINGX',
    createFake: () => new BingxFake(TEST_CREDENTIALS),
    createAdapter: (fake, options, secret) => createBingxAdapter(connect(fake, secret), options),
    gives: { volume: true, fee: false, commissions: true },
    commissionPath: '/openApi/agent/v2/reward/commissionDataList',
    // Whole days, both inclusive: the range ends at the end of the last day.
    requestedRange: (request) => ({
      from: dayOf(request.query.get('startTime')),
      to: dayOf(request.query.get('endTime')) + 86_400_000 - 1,
    }),
    maxRangeMs: 30 * 86_400_000,
  },
];

export function exchangeCase(name: ExchangeCase['name']): ExchangeCase {
  const found = EXCHANGE_CASES.find((entry) => entry.name === name);
  if (!found) throw new Error(`no test case for ${name}`);
  return found;
}
