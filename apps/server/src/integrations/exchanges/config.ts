import * as z from 'zod';
import type { Credentials } from './adapter.js';

/**
 * The exchange API settings read by config.ts: per exchange <PREFIX>_API_KEY, _API_SECRET,
 * _API_PASSPHRASE (Bitget, OKX) and _API_URL (defaults to the real host; tests point it at a fake),
 * and the sync job's SYNC_ENABLED, SYNC_INTERVAL_MINUTES and SYNC_BACKFILL_DAYS.
 */
const EXCHANGE_API_NAMES = ['bitget', 'okx', 'bybit', 'gate', 'bingx'] as const;
export type ExchangeApiName = (typeof EXCHANGE_API_NAMES)[number];

const NEEDS_PASSPHRASE: ReadonlySet<ExchangeApiName> = new Set(['bitget', 'okx']);

const prefix = (name: ExchangeApiName) => name.toUpperCase();
const optionalText = z.string().trim().min(1).optional();
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => ['true', '1', 'yes'].includes(value))
  .optional();

type CredentialVariable = `${Uppercase<ExchangeApiName>}_API_${'KEY' | 'SECRET' | 'PASSPHRASE' | 'URL'}`;

const credentialShape = Object.fromEntries(
  EXCHANGE_API_NAMES.flatMap((name) => [
    [`${prefix(name)}_API_KEY`, optionalText],
    [`${prefix(name)}_API_SECRET`, optionalText],
    [`${prefix(name)}_API_PASSPHRASE`, optionalText],
    [`${prefix(name)}_API_URL`, z.url({ protocol: /^https?$/ }).optional()],
  ]),
) as Record<CredentialVariable, z.ZodOptional<z.ZodType<string>>>;

/** Merged into config.ts's EnvSchema. */
export const exchangeEnvShape = {
  ...credentialShape,
  /** Default: on when at least one exchange API is configured. */
  SYNC_ENABLED: flag,
  SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Where a first sync of an exchange starts (clamped to how far back its API answers). */
  SYNC_BACKFILL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
};

export type ExchangeApisConfig = Partial<Record<ExchangeApiName, Credentials>>;

export interface SyncConfig {
  enabled: boolean;
  intervalMinutes: number;
  backfillDays: number;
}

/**
 * Reads the exchanges from parsed env values; answers the problems (a key without its secret ...)
 * so config.ts reports them with the rest.
 */
export function readExchangeSettings(env: Record<string, unknown>): {
  exchangeApis: ExchangeApisConfig;
  sync: SyncConfig;
  problems: string[];
} {
  const exchangeApis: ExchangeApisConfig = {};
  const problems: string[] = [];
  for (const name of EXCHANGE_API_NAMES) {
    const read = (suffix: string) => env[`${prefix(name)}_API_${suffix}`] as string | undefined;
    const [apiKey, apiSecret, passphrase, baseUrl] = [
      read('KEY'),
      read('SECRET'),
      read('PASSPHRASE'),
      read('URL'),
    ];
    if (!apiKey && !apiSecret && !passphrase) continue;
    const missing = [
      apiKey ? undefined : 'KEY',
      apiSecret ? undefined : 'SECRET',
      NEEDS_PASSPHRASE.has(name) && !passphrase ? 'PASSPHRASE' : undefined,
    ].filter(Boolean);
    if (missing.length > 0) {
      problems.push(
        `${missing.map((suffix) => `${prefix(name)}_API_${suffix}`).join(', ')}: required with the other ${prefix(name)}_API_* settings`,
      );
      continue;
    }
    exchangeApis[name] = {
      apiKey: apiKey as string,
      apiSecret: apiSecret as string,
      ...(passphrase ? { passphrase } : {}),
      ...(baseUrl ? { baseUrl } : {}),
    };
  }
  const configured = Object.keys(exchangeApis).length > 0;
  return {
    exchangeApis,
    sync: {
      enabled: (env.SYNC_ENABLED as boolean | undefined) ?? configured,
      intervalMinutes: env.SYNC_INTERVAL_MINUTES as number,
      backfillDays: env.SYNC_BACKFILL_DAYS as number,
    },
    problems,
  };
}
