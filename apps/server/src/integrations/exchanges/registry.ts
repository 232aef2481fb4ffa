import type { AdapterOptions, Credentials, SyncableExchangeAdapter } from './adapter.js';
import { createBingxAdapter } from './bingx.js';
import { createBitgetAdapter } from './bitget.js';
import { createBybitAdapter } from './bybit.js';
import type { ExchangeApiName, ExchangeApisConfig } from './config.js';
import { createGateAdapter } from './gate.js';
import { createOkxAdapter } from './okx.js';

const FACTORIES: Record<
  ExchangeApiName,
  (credentials: Credentials, options?: AdapterOptions) => SyncableExchangeAdapter
> = {
  bitget: createBitgetAdapter,
  okx: createOkxAdapter,
  bybit: createBybitAdapter,
  gate: createGateAdapter,
  bingx: createBingxAdapter,
};

/**
 * One adapter per configured exchange, keyed by its lower-case name ('bitget' ...), which matches the
 * catalog's exchange name. Built once per process: each adapter's rate limiter is shared by the sync
 * and by live UID checks. Binance has no adapter: its data comes by CSV (`rebates:import`).
 */
export function createExchangeAdapters(
  apis: ExchangeApisConfig,
  options: AdapterOptions = {},
): Map<string, SyncableExchangeAdapter> {
  const adapters = new Map<string, SyncableExchangeAdapter>();
  for (const [name, credentials] of Object.entries(apis) as [ExchangeApiName, Credentials | undefined][]) {
    if (credentials) adapters.set(name, FACTORIES[name](credentials, options));
  }
  return adapters;
}
