import {
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  fallback,
  type Hash,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbiItem,
  parseTransaction,
  type TransactionReceipt,
  webSocket,
} from 'viem';
import { polygon } from 'viem/chains';
import { MIN_FEE_BUMP_PERCENT, type PayoutConfig } from './payouts.config.js';

/**
 * The payout wallet's view of the chain (viem): one public client per configuration, over the RPC
 * URLs as a fallback transport, and the local signing of ERC-20 transfers. The private key never
 * leaves the account object; only signed bytes do.
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

const clients = new WeakMap<EnabledPayoutConfig, PayoutChain>();

/** The chain of a configuration, made once (one fallback transport, one account). */
export function payoutChainOf(config: EnabledPayoutConfig): PayoutChain {
  let chain = clients.get(config);
  if (!chain) {
    chain = createPayoutChain(config);
    clients.set(config, chain);
  }
  return chain;
}

function chainDefinition(config: EnabledPayoutConfig): Chain {
  if (config.chainId === polygon.id) return { ...polygon, rpcUrls: { default: { http: config.rpcUrls } } };
  return defineChain({
    id: config.chainId,
    name: `chain ${config.chainId}`,
    nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: config.rpcUrls } },
  });
}

function createPayoutChain(config: EnabledPayoutConfig): PayoutChain {
  const { account } = config;
  const chain = chainDefinition(config);
  const transports = config.rpcUrls.map((url) =>
    url.startsWith('ws') ? webSocket(url, { retryCount: 1 }) : http(url, { retryCount: 1, timeout: 15_000 }),
  );
  const client = createPublicClient({
    chain,
    transport: transports.length === 1 ? (transports[0] as ReturnType<typeof http>) : fallback(transports),
  });
  const token = config.tokenAddress;

  return {
    config,
    address: account.address,
    client,
    nonceAt: (blockTag) => client.getTransactionCount({ address: account.address, blockTag }),
    async currentFees() {
      const fees = await client.estimateFeesPerGas({ type: 'eip1559' });
      return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    },
    async signTransfer({ to, amountMicro, nonce, fees }) {
      const rawTx = await account.signTransaction({
        type: 'eip1559',
        chainId: config.chainId,
        nonce,
        to: token,
        value: 0n,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amountMicro] }),
        gas: TRANSFER_GAS_LIMIT,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      return { rawTx, txHash: keccak256(rawTx), gasLimit: TRANSFER_GAS_LIMIT, ...fees };
    },
    async resign(rawTx, fees) {
      const original = parseTransaction(rawTx);
      if (original.type !== 'eip1559' || original.to?.toLowerCase() !== token.toLowerCase()) {
        throw new Error('a payout attempt that is not an EIP-1559 call of the payout token');
      }
      const signed = await account.signTransaction({
        type: 'eip1559',
        chainId: config.chainId,
        nonce: original.nonce ?? 0,
        to: original.to,
        value: 0n,
        data: original.data ?? '0x',
        gas: original.gas ?? TRANSFER_GAS_LIMIT,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      return {
        rawTx: signed,
        txHash: keccak256(signed),
        gasLimit: original.gas ?? TRANSFER_GAS_LIMIT,
        ...fees,
      };
    },
    async broadcast(rawTx) {
      try {
        await client.request({ method: 'eth_sendRawTransaction', params: [rawTx] });
        return { outcome: 'accepted' };
      } catch (error) {
        const text = errorText(error);
        if (/already known|known transaction|already imported|already exists/i.test(text)) {
          return { outcome: 'accepted' };
        }
        if (/nonce too low|nonce has already been used|invalid nonce/i.test(text))
          return { outcome: 'nonceUsed' };
        if (/underpriced|replacement fee too low/i.test(text)) return { outcome: 'underpriced' };
        return { error: text.slice(0, 500) };
      }
    },
    async receipt(hash) {
      try {
        return await client.getTransactionReceipt({ hash });
      } catch (error) {
        if (error instanceof BaseError && error.name === 'TransactionReceiptNotFoundError') return null;
        throw error;
      }
    },
    async isKnown(hash) {
      try {
        await client.getTransaction({ hash });
        return true;
      } catch (error) {
        if (error instanceof BaseError && error.name === 'TransactionNotFoundError') return false;
        throw error;
      }
    },
    blockNumber: () => client.getBlockNumber({ cacheTime: 0 }),
    async revertReason({ to, amountMicro, block }) {
      try {
        await client.simulateContract({
          account: account.address,
          address: token,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, amountMicro],
          blockNumber: block,
        });
        return undefined;
      } catch (error) {
        if (error instanceof BaseError) {
          const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
          if (reverted instanceof ContractFunctionRevertedError && reverted.reason) return reverted.reason;
        }
        return undefined;
      }
    },
    tokenBalance: () =>
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account.address],
      }),
    gasBalance: () => client.getBalance({ address: account.address }),
    async transfersFrom(fromBlock, toBlock) {
      const logs = await client.getLogs({
        address: token,
        event: TRANSFER_EVENT,
        args: { from: account.address },
        fromBlock,
        toBlock,
        strict: true,
      });
      return logs.map((log) => ({
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        to: log.args.to,
        amountMicro: log.args.value,
      }));
    },
  };
}

const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/** An RPC error's words, without viem's request dump (which repeats the raw transaction). */
export function errorText(error: unknown): string {
  if (error instanceof BaseError) {
    // The node's own words are the deepest `details`; the short messages above them are viem's.
    const words: string[] = [];
    error.walk((cause) => {
      const item = cause as { details?: string; shortMessage?: string };
      for (const text of [item.details, item.shortMessage])
        if (text && !words.includes(text)) words.push(text);
      return false;
    });
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
