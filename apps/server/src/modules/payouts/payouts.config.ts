import fs from 'node:fs';
import { DECIMALS, getAddress, isAddress, toScaled } from '@elex/contract';
import type { Address, LocalAccount } from 'viem';
import * as z from 'zod';
import { parseGweiSetting } from './gwei.js';

/**
 * The on-chain payout settings read by config.ts (docs/withdrawals.md, "On-chain payouts"). The key
 * comes from PAYOUT_PRIVATE_KEY or the file PAYOUT_PRIVATE_KEY_FILE names; it is checked here and kept
 * only in the closure of `account`, which makes the signing account on first call (viem's accounts are
 * loaded then, not at start: docs/decisions.md, "Cold start"), so no dump, log line or error of the
 * config can show it. Without a key, payouts are off and withdrawals are paid by hand as before.
 */

/** Polygon PoS mainnet's USDT (6 decimals): the documented default token. */
const POLYGON_USDT: Address = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';

/**
 * Blocks on top of the payout's own before it counts as final (docs/decisions.md, "Payout
 * confirmations"): about two minutes of Polygon blocks, deeper than the reorgs Polygon PoS has shown
 * since milestone finality, and well inside the hour members expect.
 */
const DEFAULT_CONFIRMATIONS = 64;

/** The least fee raise a node accepts for a replacement with the same nonce (geth's and Bor's 10 %). */
export const MIN_FEE_BUMP_PERCENT = 10;

/**
 * The most a payout's transaction may offer per gas by default (docs/decisions.md, "Payout fee
 * ceiling"): 1,000 gwei, so one transfer (120,000 gas at most) never costs over 0.12 POL. Polygon's
 * base fee sits far below it on ordinary days and crossed it only in the worst congestion.
 */
const DEFAULT_MAX_FEE_GWEI = 1000;

/**
 * Polygon PoS validators include no transaction that tips less than 25 gwei (30 since 2024's Bor
 * releases): a ceiling below that on Polygon mainnet would leave every payout unmined.
 */
const POLYGON_MIN_FEE_GWEI = 30;

/** A USDT amount setting: a plain decimal with at most 6 places. */
const usdtSetting = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,6})?$/, 'a USDT amount (up to 6 decimals)');

/** The window of the fast lane's limits: any 24 hours, not the calendar day (no double allowance at midnight). */
export const FAST_LANE_WINDOW_MS = 86_400_000;

/** The fast lane's limits in micro-USDT, or null when it is off. */
export interface FastLaneConfig {
  /** A withdrawal of at most this much qualifies. */
  maxMicro: bigint;
  /** Sent by the fast lane in any 24 hours: all members, and each member. */
  dailyMicro: bigint;
  memberDailyMicro: bigint;
  minAccountAgeMs: number;
}

export const payoutEnvShape = {
  PAYOUT_PRIVATE_KEY: z.string().optional(),
  PAYOUT_PRIVATE_KEY_FILE: z.string().trim().min(1).optional(),
  /** Comma list; the first answers, the next take over when it fails (viem's fallback transport). */
  PAYOUT_RPC_URLS: z.string().trim().optional(),
  PAYOUT_CHAIN_ID: z.coerce.number().int().min(1).default(137),
  PAYOUT_TOKEN_ADDRESS: z.string().trim().default(POLYGON_USDT),
  PAYOUT_CONFIRMATIONS: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_CONFIRMATIONS),
  PAYOUT_FEE_BUMP_PERCENT: z.coerce.number().int().min(MIN_FEE_BUMP_PERCENT).max(500).default(20),
  /** Gwei per gas a payout may offer at most, first send and replacements alike. */
  PAYOUT_MAX_FEE_GWEI: z.coerce.number().min(0.001).max(1_000_000).default(DEFAULT_MAX_FEE_GWEI),
  /** Seconds a transaction may wait unmined before it is replaced with a higher fee. */
  PAYOUT_STUCK_AFTER_SECONDS: z.coerce.number().int().min(10).max(86_400).default(180),
  /** How often the tracker looks at payouts in flight. */
  PAYOUT_POLL_SECONDS: z.coerce.number().min(0.05).max(600).default(5),
  /**
   * The first block whose transfers out of the wallet the reconciliation reads (the block that funded
   * it, for a wallet used before this server); without it, the head when the server first looks.
   */
  PAYOUT_SCAN_FROM_BLOCK: z.coerce.number().int().min(0).optional(),
  /**
   * The fast lane (docs/withdrawals.md "Fast lane"), off unless this is set: a withdrawal of at most
   * this many USDT from a member in good standing is sent without review, within the two limits below.
   */
  PAYOUT_FAST_LANE_MAX_USDT: usdtSetting.optional(),
  /** USDT the fast lane may send in any 24 hours, all members together. */
  PAYOUT_FAST_LANE_DAILY_USDT: usdtSetting.default('1000'),
  /** USDT the fast lane may send one member in any 24 hours. */
  PAYOUT_FAST_LANE_MEMBER_DAILY_USDT: usdtSetting.default('200'),
  /** Days a member's account must have existed before the fast lane pays them. */
  PAYOUT_FAST_LANE_MIN_ACCOUNT_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
};

export type PayoutConfig =
  | { enabled: false }
  | {
      enabled: true;
      /**
       * The account that signs the wallet's transfers, made (and viem's signing loaded) on the first call,
       * then the same one; the key lives only in closures, never in a property.
       */
      account: () => Promise<LocalAccount>;
      rpcUrls: string[];
      chainId: number;
      tokenAddress: Address;
      confirmations: number;
      feeBumpPercent: number;
      /** PAYOUT_MAX_FEE_GWEI in wei: no attempt offers more per gas (fee cap and tip alike). */
      maxFeePerGas: bigint;
      stuckAfterMs: number;
      pollMs: number;
      /** PAYOUT_SCAN_FROM_BLOCK, or null: the reconciliation starts at the head it first sees. */
      scanFromBlock: number | null;
      /** Off (null) unless PAYOUT_FAST_LANE_MAX_USDT is set above zero. */
      fastLane: FastLaneConfig | null;
    };

const KEY_PATTERN = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * Reads the payout settings; answers the problems (never quoting the key) for config.ts to report.
 */
export function readPayoutSettings(env: {
  PAYOUT_PRIVATE_KEY?: string | undefined;
  PAYOUT_PRIVATE_KEY_FILE?: string | undefined;
  PAYOUT_RPC_URLS?: string | undefined;
  PAYOUT_CHAIN_ID: number;
  PAYOUT_TOKEN_ADDRESS: string;
  PAYOUT_CONFIRMATIONS: number;
  PAYOUT_FEE_BUMP_PERCENT: number;
  PAYOUT_MAX_FEE_GWEI: number;
  PAYOUT_STUCK_AFTER_SECONDS: number;
  PAYOUT_POLL_SECONDS: number;
  PAYOUT_SCAN_FROM_BLOCK?: number | undefined;
  PAYOUT_FAST_LANE_MAX_USDT?: string | undefined;
  PAYOUT_FAST_LANE_DAILY_USDT: string;
  PAYOUT_FAST_LANE_MEMBER_DAILY_USDT: string;
  PAYOUT_FAST_LANE_MIN_ACCOUNT_DAYS: number;
}): { payouts: PayoutConfig; problems: string[] } {
  const problems: string[] = [];
  const inline = env.PAYOUT_PRIVATE_KEY?.trim() || undefined;
  if (inline && env.PAYOUT_PRIVATE_KEY_FILE) {
    problems.push('PAYOUT_PRIVATE_KEY and PAYOUT_PRIVATE_KEY_FILE: set one of them, not both');
    return { payouts: { enabled: false }, problems };
  }
  let key = inline;
  if (env.PAYOUT_PRIVATE_KEY_FILE) {
    try {
      key = fs.readFileSync(env.PAYOUT_PRIVATE_KEY_FILE, 'utf8').trim();
    } catch {
      problems.push(`PAYOUT_PRIVATE_KEY_FILE: cannot read ${env.PAYOUT_PRIVATE_KEY_FILE}`);
      return { payouts: { enabled: false }, problems };
    }
  }
  if (!key) return { payouts: { enabled: false }, problems };

  const source = env.PAYOUT_PRIVATE_KEY_FILE ? 'PAYOUT_PRIVATE_KEY_FILE' : 'PAYOUT_PRIVATE_KEY';
  if (!KEY_PATTERN.test(key)) problems.push(`${source}: not a private key (64 hex digits, 0x optional)`);
  const rpcUrls = (env.PAYOUT_RPC_URLS ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  if (rpcUrls.length === 0)
    problems.push('PAYOUT_RPC_URLS: needed with a payout key (comma list of RPC URLs)');
  for (const url of rpcUrls) {
    if (!z.url({ protocol: /^(https?|wss?)$/ }).safeParse(url).success) {
      problems.push(`PAYOUT_RPC_URLS: not an http(s) or ws(s) URL: ${url}`);
    }
  }
  if (!isAddress(env.PAYOUT_TOKEN_ADDRESS, { strict: false })) {
    problems.push(`PAYOUT_TOKEN_ADDRESS: not an address: ${env.PAYOUT_TOKEN_ADDRESS}`);
  }
  if (env.PAYOUT_CHAIN_ID === 137 && env.PAYOUT_MAX_FEE_GWEI < POLYGON_MIN_FEE_GWEI) {
    problems.push(
      `PAYOUT_MAX_FEE_GWEI: at least ${POLYGON_MIN_FEE_GWEI} on Polygon (chain 137), whose validators take no lower tip`,
    );
  }
  const fastLane = readFastLane(env, problems);
  if (problems.length > 0) return { payouts: { enabled: false }, problems };

  const hex = (key.startsWith('0x') ? key : `0x${key}`) as `0x${string}`;
  const scalar = BigInt(hex);
  if (scalar === 0n || scalar >= SECP256K1_ORDER) {
    // Out of the curve's range (what viem's privateKeyToAccount refuses): said without the key.
    problems.push(`${source}: not a valid secp256k1 private key`);
    return { payouts: { enabled: false }, problems };
  }
  return {
    payouts: {
      enabled: true,
      account: accountOnFirstUse(hex),
      rpcUrls,
      chainId: env.PAYOUT_CHAIN_ID,
      tokenAddress: getAddress(env.PAYOUT_TOKEN_ADDRESS),
      confirmations: env.PAYOUT_CONFIRMATIONS,
      feeBumpPercent: env.PAYOUT_FEE_BUMP_PERCENT,
      maxFeePerGas: parseGweiSetting(env.PAYOUT_MAX_FEE_GWEI),
      stuckAfterMs: env.PAYOUT_STUCK_AFTER_SECONDS * 1000,
      pollMs: Math.round(env.PAYOUT_POLL_SECONDS * 1000),
      scanFromBlock: env.PAYOUT_SCAN_FROM_BLOCK ?? null,
      fastLane,
    },
    problems,
  };
}

/** The order n of secp256k1's group (SEC 2): a private key is a number from 1 to n - 1. */
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The signing account of a checked key, made once on first call (viem/accounts loaded then). */
function accountOnFirstUse(key: `0x${string}`): () => Promise<LocalAccount> {
  let account: Promise<LocalAccount> | undefined;
  return () => {
    account ??= import('viem/accounts').then(({ privateKeyToAccount }) => privateKeyToAccount(key));
    return account;
  };
}

function readFastLane(
  env: {
    PAYOUT_FAST_LANE_MAX_USDT?: string | undefined;
    PAYOUT_FAST_LANE_DAILY_USDT: string;
    PAYOUT_FAST_LANE_MEMBER_DAILY_USDT: string;
    PAYOUT_FAST_LANE_MIN_ACCOUNT_DAYS: number;
  },
  problems: string[],
): FastLaneConfig | null {
  const micro = (value: string) => toScaled(value, DECIMALS.usdt);
  const maxMicro = env.PAYOUT_FAST_LANE_MAX_USDT ? micro(env.PAYOUT_FAST_LANE_MAX_USDT) : 0n;
  if (maxMicro === 0n) return null;
  const fastLane = {
    maxMicro,
    dailyMicro: micro(env.PAYOUT_FAST_LANE_DAILY_USDT),
    memberDailyMicro: micro(env.PAYOUT_FAST_LANE_MEMBER_DAILY_USDT),
    minAccountAgeMs: env.PAYOUT_FAST_LANE_MIN_ACCOUNT_DAYS * 86_400_000,
  };
  // A limit below one withdrawal's maximum would make the lane refuse what it promises to send.
  if (fastLane.dailyMicro < maxMicro)
    problems.push('PAYOUT_FAST_LANE_DAILY_USDT: must be at least PAYOUT_FAST_LANE_MAX_USDT');
  if (fastLane.memberDailyMicro < maxMicro)
    problems.push('PAYOUT_FAST_LANE_MEMBER_DAILY_USDT: must be at least PAYOUT_FAST_LANE_MAX_USDT');
  return fastLane;
}
