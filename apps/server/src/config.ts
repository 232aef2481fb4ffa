import path from 'node:path';
import { CHECK_IN, DECIMALS, INVITE_REWARD_DEFAULTS, toScaled } from '@elex/contract';
import * as z from 'zod';
import {
  type ExchangeApisConfig,
  exchangeEnvShape,
  readExchangeSettings,
  type SyncConfig,
} from './integrations/exchanges/config.js';
import { readSocialSettings, type SocialConfig, socialEnvShape } from './integrations/social/config.js';
import { type PayoutConfig, payoutEnvShape, readPayoutSettings } from './modules/payouts/payouts.config.js';
import { serverRoot } from './paths.js';

/** A lost listener is noticed within two of these (a heartbeat that does not come back in one). */
const MEMBER_CACHE_HEARTBEAT_MS = 5_000;
/** The first reconnection of a lost listener; each next one waits twice as long, up to 30 s. */
const MEMBER_CACHE_RETRY_MS = 200;

/** Every setting comes from the environment, parsed here once (epic-stack's env.server.ts habit). */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().default('Elex Cashback <no-reply@elex.local>'),
  APP_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Keyed hashes (deleted e-mails, tokens) use this pepper; a development default keeps `npm start` one command. */
  APP_SECRET: z.string().min(16).default('development-secret-change-me'),
  WEB_DIST: z.string().optional(),
  /** Shared rate-limit counters for several instances; in-memory counters without it. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /**
   * Sessions and myInfo answers kept per process, evicted by the database's notifications
   * (db/member-answers.ts); 'off' reads the database on every call.
   */
  MEMBER_CACHE: z.enum(['on', 'off']).default('on'),
  /** Points for one daily check-in (spec: points per day from config). */
  CHECK_IN_POINTS: z.coerce.number().int().min(1).max(100_000).default(CHECK_IN.defaultPointsPerDay),
  /** Hours after a rebate period ends before it may settle (exchanges revise the last hours' figures). */
  SETTLEMENT_DELAY_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  /**
   * How long a member's or an operator's money action (a withdrawal, a decision, a correction, a
   * dispute, a deletion) waits for a ledger account another transaction holds, such as a long import
   * settling that UID, before it answers 'accountBusy' having changed nothing (docs/ledger.md).
   */
  ACCOUNT_LOCK_WAIT_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** The inviter's bonus, percent of a friend's cashback (docs/cashback.md). */
  INVITE_BONUS_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
  /** Points for registering with a friend's invite code, and for the inviter per such friend (docs/engagement.md). */
  INVITE_SIGNUP_POINTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(INVITE_REWARD_DEFAULTS.friendSignupPoints),
  INVITE_FRIEND_POINTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(INVITE_REWARD_DEFAULTS.inviterPointsPerFriend),
  /**
   * Operator corrections above this many USDT (absolute value) wait for a second operator's approval
   * (docs/operator-console.md, "Corrections"); up to it they post at once.
   */
  CORRECTION_APPROVAL_USDT: z
    .string()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, 'a USDT amount with up to 6 decimals, e.g. 100')
    .default('100'),
  /**
   * Which proxies may set X-Forwarded-For: unset or 'false' when clients connect directly (the
   * default, `npm start`); behind a proxy its addresses or CIDRs ('10.0.0.0/8,127.0.0.1', or
   * 'loopback'). Trusting every client would let anyone pick the IP that per-IP limits count.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|[\w.:/]+(\s*,\s*[\w.:/]+)*)$/)
    .optional(),
  /** Operators' alerts also go here as a JSON POST (docs/operations.md, "Alerts"); mail only without it. */
  ALERT_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** An exchange's sync alerts the operators once it has failed this many runs in a row. */
  ALERT_SYNC_FAILURES: z.coerce.number().int().min(1).max(1000).default(3),
  /**
   * An instance whose clock is more than this many ms off the database's logs an error, alerts the
   * operators and says so in /healthz (docs/operations.md, "Clock skew").
   */
  ALERT_CLOCK_SKEW_MS: z.coerce.number().int().min(100).max(3_600_000).default(2_000),
  /** Exchange affiliate APIs and the sync job (integrations/exchanges/config.ts). */
  ...exchangeEnvShape,
  /** Community bots that verify the social tasks (integrations/social/config.ts). */
  ...socialEnvShape,
  /** The payout wallet and its chain (modules/payouts/payouts.config.ts); no key = payouts off. */
  ...payoutEnvShape,
});

type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  logLevel: Env['LOG_LEVEL'];
  appSecret: string;
  /** The built SPA; absent in tests that only call the API. */
  webDist: string | undefined;
  redisUrl: string | undefined;
  /**
   * Member answers kept per process (db/member-answers.ts): off reads the database on every call;
   * `heartbeatMs`, how often the listener proves that notifications still arrive; `retryMs`, its
   * first reconnection's wait.
   */
  memberCache: { enabled: boolean; heartbeatMs: number; retryMs: number };
  checkInPoints: number;
  settlementDelayHours: number;
  /** ACCOUNT_LOCK_WAIT_MS: a request's longest wait for a ledger account another transaction holds. */
  accountLockWaitMs: number;
  inviteBonusPercent: number;
  /** Invite points: the friend's at registration, the inviter's per friend who registers. */
  invitePoints: { friendSignup: number; perFriend: number };
  /** Corrections whose absolute amount exceeds this (micro-USDT) need a second operator. */
  correctionApprovalMicro: bigint;
  /** Telegram and Discord bots for the social tasks; a network without its settings is null. */
  social: SocialConfig;
  /** Fastify's trustProxy: false, true, or the proxies' addresses (comma-separated). */
  trustProxy: boolean | string;
  /** Configured exchange affiliate APIs, by lower-case name; absent = not configured. */
  exchangeApis: ExchangeApisConfig;
  sync: SyncConfig;
  /**
   * Operators' alerts: the webhook (absent: mail only), the sync failures in a row that alert, and the
   * largest difference (ms) between an instance's clock and the database's that does not.
   */
  alerts: { webhookUrl: string | undefined; syncFailures: number; clockSkewMs: number };
  /** On-chain payouts from the hot wallet; `enabled: false` without a key (manual payment only). */
  payouts: PayoutConfig;
}

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  const exchangeSettings = readExchangeSettings(env);
  if (exchangeSettings.problems.length > 0) {
    throw new ConfigError(`Invalid environment:\n  ${exchangeSettings.problems.join('\n  ')}`);
  }
  const payoutSettings = readPayoutSettings(env);
  if (payoutSettings.problems.length > 0) {
    throw new ConfigError(`Invalid environment:\n  ${payoutSettings.problems.join('\n  ')}`);
  }
  if (env.NODE_ENV === 'production' && env.APP_SECRET === 'development-secret-change-me') {
    throw new ConfigError(
      'APP_SECRET must be set to a private value of at least 16 characters in production',
    );
  }
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    // spec: DATABASE_URL wins over DATA_DIR
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'pglite', dataDir: path.resolve(env.DATA_DIR) },
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    appUrl: env.APP_URL.replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL,
    appSecret: env.APP_SECRET,
    webDist: env.WEB_DIST ?? path.resolve(serverRoot, '../web/dist'),
    redisUrl: env.REDIS_URL,
    memberCache: {
      enabled: env.MEMBER_CACHE === 'on',
      heartbeatMs: MEMBER_CACHE_HEARTBEAT_MS,
      retryMs: MEMBER_CACHE_RETRY_MS,
    },
    checkInPoints: env.CHECK_IN_POINTS,
    settlementDelayHours: env.SETTLEMENT_DELAY_HOURS,
    accountLockWaitMs: env.ACCOUNT_LOCK_WAIT_MS,
    inviteBonusPercent: env.INVITE_BONUS_PERCENT,
    invitePoints: { friendSignup: env.INVITE_SIGNUP_POINTS, perFriend: env.INVITE_FRIEND_POINTS },
    correctionApprovalMicro: toScaled(env.CORRECTION_APPROVAL_USDT, DECIMALS.usdt),
    social: readSocialSettings(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    exchangeApis: exchangeSettings.exchangeApis,
    sync: exchangeSettings.sync,
    alerts: {
      webhookUrl: env.ALERT_WEBHOOK_URL,
      syncFailures: env.ALERT_SYNC_FAILURES,
      clockSkewMs: env.ALERT_CLOCK_SKEW_MS,
    },
    payouts: payoutSettings.payouts,
  };
}

/**
 * What the web server needs on top of `loadConfig` (operator commands only queue mail, so they do not
 * ask): in production, mail must be able to leave. Without SMTP_URL every verification code and
 * notice would be written to the log and lost, and nobody could register or log in; the development
 * mailbox that shows such mail does not exist in production. Refusing to start says so at once.
 */
export function checkServerConfig(config: Config): void {
  if (config.env === 'production' && !config.smtpUrl) {
    throw new ConfigError(
      'SMTP_URL must be set in production (smtp://user:pass@host:port or smtps://…): without it no ' +
        'verification code or notice mail can be sent, so nobody could register or log in',
    );
  }
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  // Fastify refuses a bare hop count (it cannot tell a proxy from a client); addresses it is.
  return value;
}
