import {
  DECIMALS,
  fromScaled,
  type PayoutProgress,
  POLYGON_EXPLORER_TX_URL,
  payoutStageOf,
} from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { formatGwei } from './gwei.js';
import type { EnabledPayoutConfig, PayoutChain } from './payouts.chain.js';
import {
  attemptCounts,
  attemptsOf,
  latestAttemptHashes,
  latestPayoutsOf,
  payoutsOfWithdrawal,
  selectLatestPayoutStates,
  selectPayouts,
} from './payouts.repository.js';
import type { PayoutAttemptRow, PayoutRow, PayoutState, PayoutVia } from './payouts.tables.js';

/**
 * On-chain payouts (issue 17, docs/withdrawals.md "On-chain payouts"). `sendWithdrawal` signs an
 * ERC-20 transfer of a pending withdrawal's amount to its address and commits it with its nonce before
 * any node sees it; the tracker (`trackPayouts`, run by jobs/payout-tracker.ts) broadcasts what is
 * recorded, replaces what is stuck or dropped with the same nonce and a higher fee, counts
 * confirmations and then completes the withdrawal through `approveWithdrawal` (hold -> payout, the
 * mail), or marks a revert and leaves the withdrawal pending for the operator.
 *
 * This file holds what the others share (the dependencies, the chain, the views of a payout); sending
 * is in payouts.send.ts, tracking in payouts.track.ts, the wallet's health in payouts.wallet.ts, the
 * fast lane in payouts.fast-lane.ts and the reconciliation in payouts.reconciliation.ts.
 */

/**
 * Points where a test makes the flow fail: 'send:afterRecord' inside the send's transaction after the
 * payout and its attempt are written; 'send:beforeBroadcast' after that commit, before the node is
 * asked; 'track:beforeComplete' inside the completing transaction. Never set in production.
 */
export type PayoutFaultPoint = 'send:afterRecord' | 'send:beforeBroadcast' | 'track:beforeComplete';

export type PayoutDeps = AppDeps & {
  payoutFaults?: Partial<Record<PayoutFaultPoint, () => void | Promise<void>>>;
};

export async function checkpoint(deps: PayoutDeps, point: PayoutFaultPoint) {
  await deps.payoutFaults?.[point]?.();
}

const chains = new WeakMap<EnabledPayoutConfig, Promise<PayoutChain>>();

/** The chain of a configuration, made once (one fallback transport, one account), viem loaded then. */
export function payoutChainOf(config: EnabledPayoutConfig): Promise<PayoutChain> {
  let chain = chains.get(config);
  if (!chain) {
    chain = loadPayoutChain(config);
    chains.set(config, chain);
    // A failed load (the account, the module) is tried again next time, not kept.
    chain.catch(() => chains.delete(config));
  }
  return chain;
}

async function loadPayoutChain(config: EnabledPayoutConfig): Promise<PayoutChain> {
  const [{ createPayoutChain }, account] = await Promise.all([
    import('./payouts.chain-client.js'),
    config.account(),
  ]);
  return createPayoutChain(config, account);
}

/** The payout chain, or the operator's refusal when no key is configured. */
export async function payoutChain(deps: AppDeps): Promise<PayoutChain> {
  if (!deps.config.payouts.enabled) throw AppError.refused('payoutsOff');
  return payoutChainOf(deps.config.payouts);
}

// ---------------------------------------------------------------------------------------------------
// What the console, the CLI and (later) the member's page see

interface PayoutAttemptView {
  txHash: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  createdAt: string;
  broadcastAt: string | null;
}

export interface PayoutView {
  id: number;
  withdrawalId: number;
  state: PayoutState;
  chainId: number;
  from: string;
  to: string;
  token: string;
  nonce: number;
  /** USDT, 6 decimals. */
  amount: string;
  /** The attempt that landed (mined/confirmed/reverted), else the latest signed one. */
  txHash: string;
  /** Polygonscan's page of txHash on Polygon mainnet; null on another chain. */
  explorerUrl: string | null;
  confirmations: number;
  /** The depth at which it counts as final (PAYOUT_CONFIRMATIONS). */
  confirmationsNeeded: number;
  minedBlock: number | null;
  sentBy: number | null;
  sentVia: PayoutVia;
  createdAt: string;
  broadcastAt: string | null;
  finishedAt: string | null;
  failureReason: string | null;
  lastError: string | null;
  /** Held below the network's ask by the fee ceiling (gwei per gas), else null. */
  feeHeld: { askedGwei: string; ceilingGwei: string } | null;
  attempts: PayoutAttemptView[];
}

const explorerUrlOf = (chainId: number, txHash: string) =>
  chainId === 137 && txHash ? `${POLYGON_EXPLORER_TX_URL}${txHash}` : null;

const confirmationsNeeded = (deps: AppDeps) =>
  deps.config.payouts.enabled ? deps.config.payouts.confirmations : 0;

function toView(deps: AppDeps, row: PayoutRow, attempts: PayoutAttemptRow[]): PayoutView {
  const own = attempts.filter((attempt) => attempt.payoutId === row.id);
  const txHash = row.minedHash ?? own.at(-1)?.txHash ?? '';
  return {
    id: row.id,
    withdrawalId: row.withdrawalId,
    state: row.state,
    chainId: row.chainId,
    from: row.fromAddress,
    to: row.toAddress,
    token: row.tokenAddress,
    nonce: row.nonce,
    amount: fromScaled(row.amountMicro, DECIMALS.usdt),
    txHash,
    explorerUrl: explorerUrlOf(row.chainId, txHash),
    confirmations: row.confirmations,
    confirmationsNeeded: confirmationsNeeded(deps),
    minedBlock: row.minedBlock,
    sentBy: row.sentBy,
    sentVia: row.sentVia,
    createdAt: row.createdAt.toISOString(),
    broadcastAt: row.broadcastAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    failureReason: row.failureReason,
    lastError: row.lastError,
    feeHeld:
      row.heldFeeAsked !== null && deps.config.payouts.enabled
        ? {
            askedGwei: formatGwei(row.heldFeeAsked),
            ceilingGwei: formatGwei(deps.config.payouts.maxFeePerGas),
          }
        : null,
    attempts: own.map((attempt) => ({
      txHash: attempt.txHash,
      maxFeePerGas: attempt.maxFeePerGas.toString(),
      maxPriorityFeePerGas: attempt.maxPriorityFeePerGas.toString(),
      createdAt: attempt.createdAt.toISOString(),
      broadcastAt: attempt.broadcastAt?.toISOString() ?? null,
    })),
  };
}

export async function viewsOf(deps: AppDeps, rows: PayoutRow[]): Promise<PayoutView[]> {
  const attempts = await attemptsOf(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toView(deps, row, attempts));
}

/** A withdrawal's payouts, newest first: the live or confirmed one, and any reverted or dropped before it. */
export async function withdrawalPayouts(deps: AppDeps, withdrawalId: number): Promise<PayoutView[]> {
  return viewsOf(deps, await payoutsOfWithdrawal(deps.db, withdrawalId));
}

/** The payouts, newest first, optionally in one state. */
export async function listPayouts(
  deps: AppDeps,
  query: { state?: PayoutState | undefined; limit?: number },
): Promise<PayoutView[]> {
  return viewsOf(deps, await selectPayouts(deps.db, { state: query.state, limit: query.limit ?? 100 }));
}

/** The console's summary of a payout: its view without the attempts' details, with their count. */
export interface PayoutBrief extends Omit<PayoutView, 'attempts'> {
  attempts: number;
}

/**
 * The newest payout of each withdrawal (the console's queue), by withdrawal id: three queries for a
 * page whatever its size.
 */
export async function latestPayouts(
  deps: AppDeps,
  withdrawalIds: readonly number[],
): Promise<Map<number, PayoutBrief>> {
  const rows = await latestPayoutsOf(deps.db, withdrawalIds);
  const ids = rows.map((row) => row.id);
  const [counts, hashes] = await Promise.all([
    attemptCounts(deps.db, ids),
    latestAttemptHashes(deps.db, ids),
  ]);
  const briefs = new Map<number, PayoutBrief>();
  for (const row of rows) {
    const view = toView(deps, row, []);
    const txHash = row.minedHash ?? hashes.get(row.id) ?? '';
    briefs.set(row.withdrawalId, {
      ...view,
      txHash,
      explorerUrl: explorerUrlOf(row.chainId, txHash),
      attempts: counts.get(row.id) ?? 0,
    });
  }
  return briefs;
}

/**
 * What the member sees of each withdrawal's payout (sent / confirming / completed, the hash and its
 * page), by withdrawal id; a reverted or dropped payout is not shown (the withdrawal is under review).
 */
export async function payoutProgress(
  deps: AppDeps,
  withdrawalIds: readonly number[],
): Promise<Map<number, PayoutProgress>> {
  const progress = new Map<number, PayoutProgress>();
  const needed = confirmationsNeeded(deps);
  for (const latest of await selectLatestPayoutStates(deps.db, withdrawalIds)) {
    const stage = payoutStageOf(latest.state);
    if (!stage) continue;
    progress.set(latest.withdrawalId, {
      stage,
      txHash: latest.txHash,
      explorerUrl: explorerUrlOf(latest.chainId, latest.txHash),
      confirmations: Math.min(latest.confirmations, needed),
      confirmationsNeeded: needed,
    });
  }
  return progress;
}
