import { fromScaled } from '@elex/contract';

/**
 * Gwei (10^9 wei) both ways, as viem's `formatGwei` / `parseGwei` answer them, without importing viem:
 * any value import from viem's index brings its clients and signing into the server's start
 * (docs/decisions.md, "Cold start"). gwei.test.ts checks both against viem.
 */

const GWEI_DECIMALS = 9;

/** 1_500_000_000n -> "1.5"; trailing zeros and a bare point dropped, as viem's formatGwei. */
export function formatGwei(wei: bigint): string {
  return fromScaled(wei, GWEI_DECIMALS).replace(/\.?0+$/, '');
}

/**
 * A setting in gwei (PAYOUT_MAX_FEE_GWEI, at most 1e6) in wei. Exact for up to 9 decimals: the product
 * stays under 2^53, within a quarter wei of the integer it stands for.
 */
export function parseGweiSetting(gwei: number): bigint {
  return BigInt(Math.round(gwei * 10 ** GWEI_DECIMALS));
}
