import {
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  fallback,
  http,
  keccak256,
  type LocalAccount,
  parseAbiItem,
  parseTransaction,
  webSocket,
} from 'viem';
import { polygon } from 'viem/chains';
import {
  type EnabledPayoutConfig,
  errorText,
  type PayoutChain,
  TRANSFER_GAS_LIMIT,
} from './payouts.chain.js';

/**
 * viem's part of the payout chain (payouts.chain.ts): loaded by `payoutChainOf` on first use, never
 * imported statically, so a start does not compile viem's clients, transports and signing.
 */

function chainDefinition(config: EnabledPayoutConfig): Chain {
  if (config.chainId === polygon.id) return { ...polygon, rpcUrls: { default: { http: config.rpcUrls } } };
  return defineChain({
    id: config.chainId,
    name: `chain ${config.chainId}`,
    nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: config.rpcUrls } },
  });
}

export function createPayoutChain(config: EnabledPayoutConfig, account: LocalAccount): PayoutChain {
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
