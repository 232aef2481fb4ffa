import path from 'node:path';
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
