import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createExchangeAdapters } from './registry.js';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to refuse the environment');
}

describe('exchange API settings', () => {
  it('configures no exchange and no sync when nothing is set', () => {
    const config = loadConfig({});
    expect(config.exchangeApis).toEqual({});
    expect(config.sync).toEqual({ enabled: false, intervalMinutes: 15, backfillDays: 30 });
  });

  it('reads each exchange’s key, secret, passphrase and base URL, and turns the sync on', () => {
    const config = loadConfig({
      BITGET_API_KEY: 'bg-key',
      BITGET_API_SECRET: 'bg-secret',
      BITGET_API_PASSPHRASE: 'bg-pass',
      BITGET_API_URL: 'http://127.0.0.1:9999',
      BYBIT_API_KEY: 'by-key',
      BYBIT_API_SECRET: 'by-secret',
      SYNC_INTERVAL_MINUTES: '30',
    });
    expect(config.exchangeApis).toEqual({
      bitget: {
        apiKey: 'bg-key',
        apiSecret: 'bg-secret',
        passphrase: 'bg-pass',
        baseUrl: 'http://127.0.0.1:9999',
      },
      bybit: { apiKey: 'by-key', apiSecret: 'by-secret' },
    });
    expect(config.sync).toEqual({ enabled: true, intervalMinutes: 30, backfillDays: 30 });
    expect([...createExchangeAdapters(config.exchangeApis).keys()]).toEqual(['bitget', 'bybit']);
  });

  it('lets SYNC_ENABLED=false keep the sync off with exchanges configured', () => {
    const config = loadConfig({ GATE_API_KEY: 'k', GATE_API_SECRET: 's', SYNC_ENABLED: 'false' });
    expect(config.sync.enabled).toBe(false);
    expect(config.exchangeApis.gate).toEqual({ apiKey: 'k', apiSecret: 's' });
  });

  it.each([
    [{ OKX_API_KEY: 'k' }, 'OKX_API_SECRET, OKX_API_PASSPHRASE'],
    [{ BITGET_API_KEY: 'k', BITGET_API_SECRET: 's' }, 'BITGET_API_PASSPHRASE'],
    [{ BINGX_API_SECRET: 's' }, 'BINGX_API_KEY'],
  ])('refuses an incomplete set %j, naming what is missing', (env, missing) => {
    expect(configError(env).message).toContain(`${missing}: required with the other`);
  });

  it.each([
    [{ GATE_API_URL: 'ftp://gate.example' }, 'GATE_API_URL'],
    [{ SYNC_INTERVAL_MINUTES: '0' }, 'SYNC_INTERVAL_MINUTES'],
    [{ SYNC_BACKFILL_DAYS: '400' }, 'SYNC_BACKFILL_DAYS'],
    [{ SYNC_ENABLED: 'maybe' }, 'SYNC_ENABLED'],
  ])('refuses %j, naming the variable', (env, variable) => {
    expect(configError(env).message).toContain(variable);
  });
});
