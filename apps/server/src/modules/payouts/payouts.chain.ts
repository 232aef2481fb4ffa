import type { Address, Hash, Hex, PublicClient, TransactionReceipt } from 'viem';
import { MIN_FEE_BUMP_PERCENT, type PayoutConfig } from './payouts.config.js';

/**
 * The payout wallet's view of the chain (viem): one public client per configuration, over the RPC
 * URLs as a fallback transport, and the local signing of ERC-20 transfers. The private key never
 * leaves the account object; only signed bytes do.
 *
 * viem itself (clients, transports, signing: a quarter of the server's code) is loaded on first use
 * from payouts.chain-client.ts by `payoutChainOf` (payouts.service.ts), never at start: a server without
 * a payout key never loads it (docs/decisions.md, "Cold start"). This file holds the types, the fee
 * arithmetic and the reading of RPC errors.
 */

export type EnabledPayoutConfig = Extract<PayoutConfig, { enabled: true }>;

/**
 * Gas for one ERC-20 transfer: Polygon's USDT (a proxied child token) uses about 40-65 thousand;
 * the margin covers a cold recipient. Unused gas is not paid for.
 */
export const TRANSFER_GAS_LIMIT = 120_000n;

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SignedTransfer extends Fees {
  rawTx: Hex;
  txHash: Hash;
  gasLimit: bigint;
}

export interface PayoutChain {
  config: EnabledPayoutConfig;
  address: Address;
  client: PublicClient;
  /** The wallet's next nonce counting transactions in the mempool ('pending'), or mined only ('latest'). */
  nonceAt(blockTag: 'pending' | 'latest'): Promise<number>;
  /** What the network asks now (base fee with headroom, plus the node's suggested tip). */
  currentFees(): Promise<Fees>;
  signTransfer(input: {
    to: Address;
    amountMicro: bigint;
    nonce: number;
    fees: Fees;
  }): Promise<SignedTransfer>;
  /**
   * The same transaction as `rawTx` (recipient, data, nonce, gas) with other fees: a replacement copies
   * what was signed first, never what a database row says now.
   */
  resign(rawTx: Hex, fees: Fees): Promise<SignedTransfer>;
  /**
   * Hands signed bytes to the node. 'accepted' also when the node already has them; 'nonceUsed' when
   * the nonce is mined already (by this or another transaction: the receipts tell); 'underpriced' when
   * the node holds another of our attempts at this nonce that pays at least as much.
   */
  broadcast(rawTx: Hex): Promise<{ outcome: 'accepted' | 'nonceUsed' | 'underpriced' } | { error: string }>;
  receipt(hash: Hash): Promise<TransactionReceipt | null>;
  /** Whether the node knows the transaction (mempool or chain): a dropped one it forgets. */
  isKnown(hash: Hash): Promise<boolean>;
  blockNumber(): Promise<bigint>;
  /** Best effort: why a transfer reverted, replayed at its block (the token's reason string). */
  revertReason(input: { to: Address; amountMicro: bigint; block: bigint }): Promise<string | undefined>;
  tokenBalance(): Promise<bigint>;
  gasBalance(): Promise<bigint>;
  /** The token's Transfer events out of the wallet in these blocks (inclusive), oldest first. */
  transfersFrom(fromBlock: bigint, toBlock: bigint): Promise<WalletTransfer[]>;
}

/** One USDT transfer out of the payout wallet, as the chain's logs tell it. */
interface WalletTransfer {
  txHash: Hash;
  logIndex: number;
  blockNumber: bigint;
  to: Address;
  amountMicro: bigint;
}

/**
 * An RPC error's words, without viem's request dump (which repeats the raw transaction). viem's errors
 * (its BaseError: a `shortMessage`, `details`, and the causes beneath) are told by their shape, so
 * this file needs no viem at run time.
 */
export function errorText(error: unknown): string {
  if (
    error instanceof Error &&
    'shortMessage' in error &&
    typeof (error as { walk?: unknown }).walk === 'function'
  ) {
    // The node's own words are the deepest `details`; the short messages above them are viem's.
    const words: string[] = [];
    // What BaseError.walk visits: the error, then each `cause` beneath it.
    for (let cause: unknown = error; cause !== undefined && cause !== null; ) {
      const item = cause as { details?: string; shortMessage?: string; cause?: unknown };
      for (const text of [item.details, item.shortMessage])
        if (text && !words.includes(text)) words.push(text);
      cause = typeof cause === 'object' && 'cause' in cause ? item.cause : undefined;
    }
    return words.join(' | ');
  }
  return error instanceof Error ? error.message : String(error);
}

/** At least `percent` more than before (rounded up), and at least what the network asks now. */
export function bumpedFees(previous: Fees, current: Fees, percent: number): Fees {
  const bump = (value: bigint) => (value * BigInt(100 + percent) + 99n) / 100n;
  const maxPriorityFeePerGas = max(bump(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const maxFeePerGas = max(bump(previous.maxFeePerGas), current.maxFeePerGas, maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The fees, each no higher than the ceiling (PAYOUT_MAX_FEE_GWEI). */
export function cappedFees(fees: Fees, ceiling: bigint): Fees {
  return {
    maxFeePerGas: min(fees.maxFeePerGas, ceiling),
    maxPriorityFeePerGas: min(fees.maxPriorityFeePerGas, ceiling),
  };
}

/**
 * Whether a node takes `next` in place of `previous` at the same nonce: both its fee cap and its tip
 * at least MIN_FEE_BUMP_PERCENT higher (geth's and Bor's rule). A replacement the ceiling holds below
 * that would only be refused as underpriced.
 */
export function replacesAtNode(previous: Fees, next: Fees): boolean {
  const floor = (value: bigint) => (value * BigInt(100 + MIN_FEE_BUMP_PERCENT) + 99n) / 100n;
  return (
    next.maxFeePerGas >= floor(previous.maxFeePerGas) &&
    next.maxPriorityFeePerGas >= floor(previous.maxPriorityFeePerGas)
  );
}

const min = (...values: bigint[]) => values.reduce((a, b) => (a < b ? a : b));
const max = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b));
