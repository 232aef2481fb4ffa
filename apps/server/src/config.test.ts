import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { ConfigError, checkServerConfig, loadConfig } from './config.js';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to refuse the environment');
}

describe('loadConfig', () => {
  it('starts with nothing set: port 3000, embedded database in ./data, development, info logs', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.env).toBe('development');
    expect(config.logLevel).toBe('info');
    expect(config.database).toEqual({ kind: 'pglite', dataDir: path.resolve('./data') });
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.smtpUrl).toBeUndefined();
  });

  it('resolves a relative DATA_DIR to an absolute path', () => {
    const config = loadConfig({ DATA_DIR: 'var/elex' });
    expect(config.database).toEqual({ kind: 'pglite', dataDir: path.resolve('var/elex') });
  });

  it('uses PostgreSQL when DATABASE_URL is set, even with DATA_DIR set', () => {
    const url = 'postgres://elex:pw@db.internal:5432/elex';
    const config = loadConfig({ DATA_DIR: '/srv/elex-data', DATABASE_URL: url });
    expect(config.database).toEqual({ kind: 'postgres', url });
  });

  it('accepts the postgresql:// scheme', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/elex' }).database.kind).toBe('postgres');
  });

  it('reads PORT as a number', () => {
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
  });

  it('drops a trailing slash from APP_URL so links it builds have one slash', () => {
    expect(loadConfig({ APP_URL: 'https://cashback.example.com/' }).appUrl).toBe(
      'https://cashback.example.com',
    );
  });

  it.each(['abc', '70000', '-1', '80.5'])('refuses PORT=%s, naming the variable', (port) => {
    const error = configError({ PORT: port });
    expect(error.message).toContain('PORT');
  });

  it.each(['mysql://root@localhost/elex', 'not a url', 'http://localhost:5432/elex'])(
    'refuses DATABASE_URL=%s, naming the variable',
    (url) => {
      const error = configError({ DATABASE_URL: url });
      expect(error.message).toContain('DATABASE_URL');
    },
  );

  it('reads the correction approval threshold in USDT, 100 by default, and refuses a non-amount', () => {
    expect(loadConfig({}).correctionApprovalMicro).toBe(100_000_000n);
    expect(loadConfig({ CORRECTION_APPROVAL_USDT: '2.5' }).correctionApprovalMicro).toBe(2_500_000n);
    expect(configError({ CORRECTION_APPROVAL_USDT: '-5' }).message).toContain('CORRECTION_APPROVAL_USDT');
  });

  it('names every wrong variable at once', () => {
    const error = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x/y', LOG_LEVEL: 'loud' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).toContain('LOG_LEVEL');
  });

  it('refuses to run in production without APP_SECRET', () => {
    const error = configError({ NODE_ENV: 'production' });
    expect(error.message).toContain('APP_SECRET');
  });

  it('refuses a production APP_SECRET shorter than 16 characters', () => {
    const error = configError({ NODE_ENV: 'production', APP_SECRET: 'short' });
    expect(error.message).toContain('APP_SECRET');
  });

  it('runs in production with a private APP_SECRET', () => {
    const config = loadConfig({ NODE_ENV: 'production', APP_SECRET: 'a-private-secret-of-32-characters' });
    expect(config.env).toBe('production');
    expect(config.appSecret).toBe('a-private-secret-of-32-characters');
  });
});

describe('checkServerConfig (the web server, main.ts)', () => {
  const production = { NODE_ENV: 'production', APP_SECRET: 'a-private-secret-of-32-characters' };

  it('refuses to serve in production without SMTP_URL, saying why', () => {
    const config = loadConfig(production);
    expect(() => checkServerConfig(config)).toThrow(ConfigError);
    expect(() => checkServerConfig(config)).toThrow(/^SMTP_URL must be set in production/);
  });

  it('serves in production with SMTP_URL, and anywhere else without it (the development mailbox)', () => {
    expect(() =>
      checkServerConfig(loadConfig({ ...production, SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465' })),
    ).not.toThrow();
    for (const NODE_ENV of ['development', 'test']) {
      expect(() => checkServerConfig(loadConfig({ NODE_ENV }))).not.toThrow();
    }
  });

  it('leaves operator commands alone: loadConfig itself accepts production without SMTP_URL', () => {
    expect(loadConfig(production).smtpUrl).toBeUndefined();
  });
});

describe('payout settings', () => {
  const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const hex64 = (value: bigint) => value.toString(16).padStart(64, '0');

  it('refuse a key outside the curve (0, or n and above) as viem does, and take n - 1', async () => {
    for (const key of [hex64(0n), hex64(SECP256K1_ORDER), hex64(SECP256K1_ORDER + 1n), 'f'.repeat(64)]) {
      expect(() => privateKeyToAccount(`0x${key}`)).toThrow();
      expect(
        configError({ PAYOUT_PRIVATE_KEY: key, PAYOUT_RPC_URLS: 'https://a.example' }).message,
      ).toContain('PAYOUT_PRIVATE_KEY: not a valid secp256k1 private key');
    }
    const last = `0x${hex64(SECP256K1_ORDER - 1n)}` as const;
    const config = loadConfig({ PAYOUT_PRIVATE_KEY: last, PAYOUT_RPC_URLS: 'https://a.example' });
    expect(config.payouts.enabled && (await config.payouts.account()).address).toBe(
      privateKeyToAccount(last).address,
    );
  });

  const KEY = `0x${'4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'}`;
  const ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';

  it('are off without a key: withdrawals are paid by hand', () => {
    expect(loadConfig({}).payouts).toEqual({ enabled: false });
  });

  it('read the key from the environment or a file, with Polygon USDT and the defaults', async () => {
    const config = loadConfig({
      PAYOUT_PRIVATE_KEY: KEY,
      PAYOUT_RPC_URLS: 'https://a.example, https://b.example',
    });
    expect(config.payouts).toMatchObject({
      enabled: true,
      rpcUrls: ['https://a.example', 'https://b.example'],
      chainId: 137,
      tokenAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
      confirmations: 64,
      feeBumpPercent: 20,
      stuckAfterMs: 180_000,
    });
    expect(config.payouts.enabled && (await config.payouts.account()).address).toBe(ADDRESS);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-key-'));
    const file = path.join(dir, 'payout.key');
    fs.writeFileSync(file, `${KEY.slice(2)}\n`);
    const fromFile = loadConfig({ PAYOUT_PRIVATE_KEY_FILE: file, PAYOUT_RPC_URLS: 'https://a.example' });
    expect(fromFile.payouts.enabled && (await fromFile.payouts.account()).address).toBe(ADDRESS);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never show the key: not in a dump of the config, nor in a refusal', async () => {
    const config = loadConfig({ PAYOUT_PRIVATE_KEY: KEY, PAYOUT_RPC_URLS: 'https://a.example' });
    const bare = KEY.slice(2);
    const dumps = () => [
      JSON.stringify(config, (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
      util.inspect(config, { depth: 20, showHidden: true }),
    ];
    for (const dump of dumps()) expect(dump).not.toContain(bare);
    // The account, once made, is the same one each time and shows no key either.
    const account = config.payouts.enabled ? await config.payouts.account() : undefined;
    expect(config.payouts.enabled && (await config.payouts.account())).toBe(account);
    for (const dump of [...dumps(), util.inspect(account, { depth: 20, showHidden: true })])
      expect(dump).not.toContain(bare);

    const bad = `${bare.slice(0, 60)}zzzz`;
    for (const env of [
      { PAYOUT_PRIVATE_KEY: bad, PAYOUT_RPC_URLS: 'https://a.example' },
      { PAYOUT_PRIVATE_KEY: KEY },
      { PAYOUT_PRIVATE_KEY: KEY, PAYOUT_PRIVATE_KEY_FILE: '/nowhere', PAYOUT_RPC_URLS: 'https://a.example' },
    ]) {
      const error = configError(env);
      expect(error.message).toMatch(/PAYOUT_/);
      expect(error.message).not.toContain(bare);
      expect(error.message).not.toContain(bad);
    }
  });

  it('refuse a fee bump below what nodes accept for a replacement', () => {
    expect(
      configError({
        PAYOUT_PRIVATE_KEY: KEY,
        PAYOUT_RPC_URLS: 'https://a.example',
        PAYOUT_FEE_BUMP_PERCENT: '5',
      }).message,
    ).toContain('PAYOUT_FEE_BUMP_PERCENT');
  });

  it('cap the fee at 1,000 gwei unless told otherwise, and keep the fast lane off unless its maximum is set', () => {
    const base = { PAYOUT_PRIVATE_KEY: KEY, PAYOUT_RPC_URLS: 'https://a.example' };
    expect(loadConfig(base).payouts).toMatchObject({ maxFeePerGas: 1_000_000_000_000n, fastLane: null });
    expect(loadConfig({ ...base, PAYOUT_MAX_FEE_GWEI: '42.5' }).payouts).toMatchObject({
      maxFeePerGas: 42_500_000_000n,
    });
    expect(configError({ ...base, PAYOUT_MAX_FEE_GWEI: '0' }).message).toContain('PAYOUT_MAX_FEE_GWEI');
    // Below Polygon's minimum tip no payout would ever be mined there; another chain may go lower.
    expect(configError({ ...base, PAYOUT_MAX_FEE_GWEI: '29' }).message).toContain('at least 30 on Polygon');
    expect(
      loadConfig({ ...base, PAYOUT_CHAIN_ID: '80002', PAYOUT_MAX_FEE_GWEI: '2.5' }).payouts,
    ).toMatchObject({
      chainId: 80002,
    });

    expect(loadConfig({ ...base, PAYOUT_FAST_LANE_MAX_USDT: '0' }).payouts).toMatchObject({ fastLane: null });
    expect(loadConfig({ ...base, PAYOUT_FAST_LANE_MAX_USDT: '100' }).payouts).toMatchObject({
      fastLane: {
        maxMicro: 100_000_000n,
        dailyMicro: 1_000_000_000n,
        memberDailyMicro: 200_000_000n,
        minAccountAgeMs: 14 * 86_400_000,
      },
    });
    for (const [env, named] of [
      [
        { PAYOUT_FAST_LANE_MAX_USDT: '100', PAYOUT_FAST_LANE_DAILY_USDT: '50' },
        'PAYOUT_FAST_LANE_DAILY_USDT',
      ],
      [{ PAYOUT_FAST_LANE_MAX_USDT: '300' }, 'PAYOUT_FAST_LANE_MEMBER_DAILY_USDT'],
      [{ PAYOUT_FAST_LANE_MAX_USDT: '1e3' }, 'PAYOUT_FAST_LANE_MAX_USDT'],
      [{ PAYOUT_FAST_LANE_MAX_USDT: '10.1234567' }, 'PAYOUT_FAST_LANE_MAX_USDT'],
    ] as const) {
      expect(configError({ ...base, ...env }).message).toContain(named);
    }
  });
});
