import {
  DECIMALS,
  fromScaled,
  type PayoutProgress,
  type PayoutWallet,
  POLYGON_EXPLORER_ADDRESS_URL,
  POLYGON_EXPLORER_TX_URL,
  payoutStageOf,
} from '@elex/contract';
import { type Address, formatGwei, type Hash, type Hex } from 'viem';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { type AuditActor, recordAudit } from '../admin/audit.service.js';
import { sendAlertOnce } from '../alerts/alerts.service.js';
import {
  approveWithdrawal,
  lockWithdrawal,
  pendingWithdrawalTotals,
  refuseUnlessPayable,
} from '../withdrawals/withdrawals.service.js';
import type { WithdrawalRow } from '../withdrawals/withdrawals.tables.js';
import {
  bumpedFees,
  cappedFees,
  type EnabledPayoutConfig,
  errorText,
  type Fees,
  type PayoutChain,
  payoutChainOf,
  replacesAtNode,
  TRANSFER_GAS_LIMIT,
} from './payouts.chain.js';
import { FAST_LANE_WINDOW_MS } from './payouts.config.js';
import { fastLaneSentSince } from './payouts.fast-lane.repository.js';
import {
  attemptCounts,
  attemptsOf,
  claimInFlight,
  findPayout,
  inFlightTotals,
  insertAttempt,
  insertPayout,
  latestAttemptHashes,
  latestPayoutsOf,
  livePayoutOf,
  lockWalletNonce,
  markAttemptBroadcast,
  payoutsOfWithdrawal,
  releaseLease,
  selectPayouts,
  setWalletNonce,
  updatePayout,
} from './payouts.repository.js';
import {
  PAYOUT_IN_FLIGHT,
  type PayoutAttemptRow,
  type PayoutRow,
  type PayoutState,
  type PayoutVia,
} from './payouts.tables.js';

/**
 * On-chain payouts (issue 17, docs/withdrawals.md "On-chain payouts"). `sendWithdrawal` signs an
 * ERC-20 transfer of a pending withdrawal's amount to its address and commits it with its nonce before
 * any node sees it; the tracker (`trackPayouts`, run by jobs/payout-tracker.ts) broadcasts what is
 * recorded, replaces what is stuck or dropped with the same nonce and a higher fee, counts
 * confirmations and then completes the withdrawal through `approveWithdrawal` (hold -> payout, the
 * mail), or marks a revert and leaves the withdrawal pending for the operator.
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

async function checkpoint(deps: PayoutDeps, point: PayoutFaultPoint) {
  await deps.payoutFaults?.[point]?.();
}

/** The payout chain, or the operator's refusal when no key is configured. */
export function payoutChain(deps: AppDeps): PayoutChain {
  if (!deps.config.payouts.enabled) throw AppError.refused('payoutsOff');
  return payoutChainOf(deps.config.payouts);
}

export const payoutsEnabled = (deps: AppDeps) => deps.config.payouts.enabled;

// ---------------------------------------------------------------------------------------------------
// What the console, the CLI and (later) the member's page see

export interface PayoutAttemptView {
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

async function viewsOf(deps: AppDeps, rows: PayoutRow[]): Promise<PayoutView[]> {
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

export async function getPayout(deps: AppDeps, id: number): Promise<PayoutView | undefined> {
  const row = await findPayout(deps.db, id);
  return row ? (await viewsOf(deps, [row]))[0] : undefined;
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
  for (const [withdrawalId, brief] of await latestPayouts(deps, withdrawalIds)) {
    const stage = payoutStageOf(brief.state);
    if (!stage) continue;
    progress.set(withdrawalId, {
      stage,
      txHash: brief.txHash,
      explorerUrl: brief.explorerUrl,
      confirmations: Math.min(brief.confirmations, brief.confirmationsNeeded),
      confirmationsNeeded: brief.confirmationsNeeded,
    });
  }
  return progress;
}

// ---------------------------------------------------------------------------------------------------
// Sending

export interface SendOutcome {
  payout: PayoutView;
  /** False when the withdrawal already had a payout on its way (or paid): nothing new was signed. */
  created: boolean;
}

/**
 * Sends a pending withdrawal on chain. In one transaction under the withdrawal's row lock: a payout
 * already live for it is answered as it is (a second click, a retry, a racing instance); otherwise
 * the checks of a payment by hand, the wallet's nonce taken under its row lock, the transfer signed
 * and the payout with its first attempt written. Only after that commit is the transaction handed to
 * the node; if that fails or the process dies, the tracker broadcasts the recorded bytes.
 */
export async function sendWithdrawal(
  deps: PayoutDeps,
  input: {
    id: string | number;
    operatorId: number | null;
    via: PayoutVia;
    /** The operator's audit entry, written in the transaction that records the payout. */
    audit?: { actor: AuditActor; requestId: string | null };
    /**
     * A last check under the wallet's lock, which every send of the wallet takes (the fast lane's
     * limits): throwing refuses the send with nothing signed.
     */
    guard?: (tx: Transaction, withdrawal: WithdrawalRow) => Promise<void>;
  },
): Promise<SendOutcome> {
  const chain = payoutChain(deps);
  const { config } = chain;
  // Read before the transaction, so no lock waits on the network: the chain's count lets the nonce
  // skip past transactions the wallet sent elsewhere; the fees are today's.
  let chainNonce: number;
  let asked: Fees;
  let held: { usdt: bigint; gas: bigint };
  try {
    const [nonce, today, usdt, gas] = await Promise.all([
      chain.nonceAt('pending'),
      chain.currentFees(),
      chain.tokenBalance(),
      chain.gasBalance(),
    ]);
    [chainNonce, asked, held] = [nonce, today, { usdt, gas }];
  } catch (error) {
    // Nothing is signed yet: the operator may simply try again.
    throw AppError.refused('payoutNodeUnreachable', { error: errorText(error).slice(0, 200) });
  }

  // Never above the ceiling: a send in a fee spike is signed at it and waits (the tracker says so).
  const fees = cappedFees(asked, config.maxFeePerGas);
  let recorded: { payout: PayoutRow; attempt: PayoutAttemptRow; created: boolean };
  try {
    recorded = await deps.db.transaction(async (tx) => {
      const withdrawal = await lockWithdrawal(tx, input.id);
      const live = await livePayoutOf(tx, withdrawal.id);
      if (live) {
        const attempts = await attemptsOf(tx, [live.id]);
        return { payout: live, attempt: attempts.at(-1) as PayoutAttemptRow, created: false };
      }
      await refuseUnlessPayable(tx, deps, withdrawal, input.operatorId);
      const now = deps.clock.now();
      const wallet = { chainId: config.chainId, address: chain.address };
      const stored = await lockWalletNonce(tx, wallet, chainNonce, now);
      // Under the wallet's lock, so sends of this wallet count each other: a transfer the wallet
      // cannot pay is refused here rather than sent to revert (and burn gas).
      await refuseUnlessWalletCovers(tx, held, fees, withdrawal.amountMicro);
      await input.guard?.(tx, withdrawal);
      const nonce = Math.max(stored, chainNonce);
      const signed = await chain.signTransfer({
        to: withdrawal.address as Address,
        amountMicro: withdrawal.amountMicro,
        nonce,
        fees,
      });
      const payout = await insertPayout(tx, {
        withdrawalId: withdrawal.id,
        chainId: config.chainId,
        fromAddress: chain.address,
        nonce,
        toAddress: withdrawal.address,
        tokenAddress: config.tokenAddress,
        amountMicro: withdrawal.amountMicro,
        state: 'signed',
        sentBy: input.operatorId,
        sentVia: input.via,
        heldFeeAsked: heldBelow(asked, fees),
        createdAt: now,
        updatedAt: now,
      });
      const attempt = await insertAttempt(tx, {
        payoutId: payout.id,
        txHash: signed.txHash,
        rawTx: signed.rawTx,
        gasLimit: signed.gasLimit,
        maxFeePerGas: signed.maxFeePerGas,
        maxPriorityFeePerGas: signed.maxPriorityFeePerGas,
        createdAt: now,
      });
      await setWalletNonce(tx, wallet, nonce + 1, now);
      if (input.audit) {
        await recordAudit(tx, {
          actor: input.audit.actor,
          action: 'withdrawal.send',
          target: `withdrawal:${withdrawal.id}`,
          before: { status: withdrawal.status, amount: fromScaled(withdrawal.amountMicro, DECIMALS.usdt) },
          after: {
            payoutId: payout.id,
            from: chain.address,
            to: withdrawal.address,
            nonce,
            txHash: signed.txHash,
            via: input.via,
          },
          at: now,
          requestId: input.audit.requestId,
        });
      }
      await checkpoint(deps, 'send:afterRecord');
      return { payout, attempt, created: true };
    });
  } catch (error) {
    // Two sends that got past each other's lock (cannot happen under the row lock; the index says so
    // too): the one that lost answers the winner's payout.
    if (!isUniqueViolation(error)) throw error;
    const withdrawalId = Number(input.id);
    const live = Number.isSafeInteger(withdrawalId) ? await livePayoutOf(deps.db, withdrawalId) : undefined;
    if (!live) throw error;
    const views = await viewsOf(deps, [live]);
    return { payout: views[0] as PayoutView, created: false };
  }

  if (recorded.created) {
    await checkpoint(deps, 'send:beforeBroadcast');
    await broadcastAttempt(deps, chain, recorded.payout, recorded.attempt);
  }
  const fresh = (await findPayout(deps.db, recorded.payout.id)) ?? recorded.payout;
  const views = await viewsOf(deps, [fresh]);
  return { payout: views[0] as PayoutView, created: recorded.created };
}

/**
 * Refuses a send the wallet cannot cover: its USDT (read before the transaction) must pay this one and
 * every payout signed and not yet in a block (a mined one has left the balance already); its gas must
 * let a node accept each of them at today's fee cap. Money on its way in a block meanwhile is counted
 * out of both sides, so the check errs by at most what the block moved.
 */
async function refuseUnlessWalletCovers(
  tx: Parameters<typeof inFlightTotals>[0],
  held: { usdt: bigint; gas: bigint },
  fees: { maxFeePerGas: bigint },
  amountMicro: bigint,
) {
  const { unmined } = await inFlightTotals(tx);
  const usdtNeeded = unmined.amountMicro + amountMicro;
  if (held.usdt < usdtNeeded) {
    throw AppError.refused('payoutWalletShortUsdt', {
      held: fromScaled(held.usdt, DECIMALS.usdt),
      needed: fromScaled(usdtNeeded, DECIMALS.usdt),
    });
  }
  const gasNeeded = BigInt(unmined.count + 1) * TRANSFER_GAS_LIMIT * fees.maxFeePerGas;
  if (held.gas < gasNeeded) {
    throw AppError.refused('payoutWalletShortGas', {
      held: fromScaled(held.gas, 18),
      needed: fromScaled(gasNeeded, 18),
    });
  }
}

export interface BatchSendResult {
  id: string;
  outcome: SendOutcome | { refused: AppError };
}

/**
 * Sends several withdrawals, one after the other (each takes the next nonce); a refusal of one does
 * not stop the others. No node answering refuses the rest with the same reason; other errors (the
 * database) stop the batch.
 */
export async function sendWithdrawals(
  deps: PayoutDeps,
  input: {
    ids: ReadonlyArray<string | number>;
    operatorId: number | null;
    via: PayoutVia;
    audit?: { actor: AuditActor; requestId: string | null };
  },
): Promise<BatchSendResult[]> {
  const results: BatchSendResult[] = [];
  for (const id of input.ids) {
    try {
      results.push({
        id: String(id),
        outcome: await sendWithdrawal(deps, {
          id,
          operatorId: input.operatorId,
          via: input.via,
          ...(input.audit ? { audit: input.audit } : {}),
        }),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id: String(id), outcome: { refused: error } });
      // No node answers: the rest would wait for the same timeouts and fail the same way.
      if (error.messageKey === 'payoutNodeUnreachable') {
        for (const rest of input.ids.slice(results.length)) {
          results.push({ id: String(rest), outcome: { refused: error } });
        }
        break;
      }
    }
  }
  return results;
}

/** Hands an attempt to the node; a refusal is kept on the payout for the operator, never thrown. */
async function broadcastAttempt(
  deps: AppDeps,
  chain: PayoutChain,
  payout: PayoutRow,
  attempt: PayoutAttemptRow,
): Promise<{ accepted: boolean; error?: string }> {
  const answer = await chain.broadcast(attempt.rawTx as Hex).catch((error: unknown) => ({
    error: error instanceof Error ? error.message : String(error),
  }));
  const now = deps.clock.now();
  if ('error' in answer) {
    await updatePayout(deps.db, payout.id, PAYOUT_IN_FLIGHT, { lastError: answer.error, updatedAt: now });
    return { accepted: false, error: answer.error };
  }
  await markAttemptBroadcast(deps.db, attempt.id, now);
  await updatePayout(deps.db, payout.id, ['signed'], {
    state: 'broadcast',
    broadcastAt: now,
    updatedAt: now,
  });
  await updatePayout(deps.db, payout.id, ['broadcast', 'mined'], { lastError: null, updatedAt: now });
  return { accepted: true };
}

// ---------------------------------------------------------------------------------------------------
// Tracking

export interface TrackSummary {
  looked: number;
  broadcast: number;
  replaced: number;
  /**
   * Stuck, and the fee ceiling lets no replacement a node would take: left waiting; the operators are
   * told when the network asks more than it offers (else it waits only for a block).
   */
  held: number;
  confirmed: number;
  reverted: number;
  dropped: number;
}

const LEASE_MS = 2 * 60_000;
/** How long a broadcast transaction may be unknown to the node before it counts as dropped. */
export const DROPPED_AFTER_MS = 30_000;

/**
 * One pass over the payouts in flight (lowest nonce first), each under a lease: broadcast what no node
 * has taken, read receipts of every attempt, count confirmations, complete or mark reverted at depth,
 * replace a stuck or dropped transaction. Safe on several instances at once: the lease keeps them off
 * one payout, and every step is idempotent (same bytes, same hash; one decision per withdrawal).
 */
export async function trackPayouts(
  deps: PayoutDeps,
  options: { limit?: number } = {},
): Promise<TrackSummary> {
  const summary: TrackSummary = {
    looked: 0,
    broadcast: 0,
    replaced: 0,
    held: 0,
    confirmed: 0,
    reverted: 0,
    dropped: 0,
  };
  if (!deps.config.payouts.enabled) return summary;
  const chain = payoutChainOf(deps.config.payouts);
  const now = deps.clock.now();
  const claimed = await claimInFlight(deps.db, now, new Date(now.getTime() + LEASE_MS), options.limit ?? 50);
  if (claimed.length === 0) return summary;
  let head: bigint;
  try {
    head = await chain.blockNumber();
  } catch (error) {
    // The node is away: let the next pass (of any instance) have them at once.
    for (const payout of claimed) await releaseLease(deps.db, payout.id);
    throw error;
  }
  for (const payout of claimed) {
    summary.looked += 1;
    try {
      const step = await trackOne(deps, chain, payout, head);
      if (step) summary[step] += 1;
    } finally {
      await releaseLease(deps.db, payout.id);
    }
  }
  return summary;
}

type TrackStep = Exclude<keyof TrackSummary, 'looked'> | undefined;

async function trackOne(
  deps: PayoutDeps,
  chain: PayoutChain,
  payout: PayoutRow,
  head: bigint,
): Promise<TrackStep> {
  const { config } = chain;
  const attempts = await attemptsOf(deps.db, [payout.id]);
  const latest = attempts.at(-1);
  if (!latest) throw new Error(`payout ${payout.id} has no attempt`);

  // The count first, the receipts after: a nonce counted as used here was mined by then, so if one of
  // ours did it, its receipt is found below.
  const finalBlock = head - BigInt(config.confirmations) + 1n;
  const usedUpToFinal =
    finalBlock >= 0n
      ? await chain.client.getTransactionCount({ address: chain.address, blockNumber: finalBlock })
      : 0;

  for (const attempt of [...attempts].reverse()) {
    const receipt = await chain.receipt(attempt.txHash as Hash);
    if (!receipt) continue;
    return settleMined(deps, chain, payout, attempt.txHash, receipt.blockNumber, receipt.status, head);
  }

  const now = deps.clock.now();
  if (payout.state === 'mined') {
    // Its block is gone (a reorg): back to waiting; the attempts are still valid.
    await updatePayout(deps.db, payout.id, ['mined'], {
      state: 'broadcast',
      minedHash: null,
      minedBlock: null,
      confirmations: 0,
      updatedAt: now,
    });
  }
  if (usedUpToFinal > payout.nonce) {
    // The nonce is final on chain and none of our transactions used it: the wallet sent something else
    // with it (a payment made by hand from the same key?). Ours can never land; nothing moved.
    await finishPayout(deps, payout.id, 'dropped', {
      failureReason:
        `nonce ${payout.nonce} of the wallet was used by another transaction; this payout never ` +
        'reached the chain and moved nothing',
    });
    return 'dropped';
  }

  if (!latest.broadcastAt || payout.state === 'signed') {
    const answer = await broadcastAttempt(deps, chain, payout, latest);
    if (answer.accepted) return 'broadcast';
    // No node takes it (a fee below what the node accepts, no gas ...): every later payout waits
    // behind this nonce, so past the stuck time the operators hear why, once per payout and day.
    if (now.getTime() - latest.createdAt.getTime() >= config.stuckAfterMs) {
      await alertStuckPayout(deps, payout, latest, { reason: 'refused', error: answer.error ?? null });
    }
    return undefined;
  }
  const age = now.getTime() - latest.createdAt.getTime();
  const stuck = age >= config.stuckAfterMs;
  // A node behind a load balancer may not know a transaction another backend took: only one unknown
  // for a while counts as dropped, or each pass would raise the fee again.
  const dropped =
    age >= Math.min(DROPPED_AFTER_MS, config.stuckAfterMs) && !(await chain.isKnown(latest.txHash as Hash));
  if (!stuck && !dropped) return undefined;
  return replace(deps, chain, payout, latest, { dropped });
}

/** The network's ask when the ceiling holds `fees` below it, else null (what `held_fee_asked` keeps). */
function heldBelow(asked: Fees, fees: Fees): bigint | null {
  return asked.maxFeePerGas > fees.maxFeePerGas ? asked.maxFeePerGas : null;
}

/**
 * Signs the same transaction again (copied from the last signed bytes: recipient, amount, nonce) with
 * higher fees, no higher than the ceiling, records it, then broadcasts it. When the ceiling leaves no
 * raise a node would take, the payout waits as it is (a dropped one is handed to the node again, same
 * bytes) and the operators are alerted (docs/withdrawals.md, "Fee ceiling").
 */
async function replace(
  deps: PayoutDeps,
  chain: PayoutChain,
  payout: PayoutRow,
  latest: PayoutAttemptRow,
  options: { dropped: boolean },
): Promise<TrackStep> {
  const asked = await chain.currentFees();
  const fees = cappedFees(bumpedFees(latest, asked, chain.config.feeBumpPercent), chain.config.maxFeePerGas);
  const heldFeeAsked = heldBelow(asked, fees);
  if (!replacesAtNode(latest, fees)) {
    await updatePayout(deps.db, payout.id, PAYOUT_IN_FLIGHT, { heldFeeAsked, updatedAt: deps.clock.now() });
    if (options.dropped) await broadcastAttempt(deps, chain, payout, latest);
    if (heldFeeAsked !== null) {
      await alertStuckPayout(deps, payout, latest, { reason: 'feeCeiling', askedPerGas: heldFeeAsked });
    }
    return 'held';
  }
  const signed = await chain.resign(latest.rawTx as Hex, fees);
  const attempt = await deps.db.transaction(async (tx) => {
    const current = await findPayout(tx, payout.id, { forUpdate: true });
    if (!current || !PAYOUT_IN_FLIGHT.includes(current.state)) return undefined;
    const now = deps.clock.now();
    await updatePayout(tx, payout.id, PAYOUT_IN_FLIGHT, { heldFeeAsked, updatedAt: now });
    return insertAttempt(tx, {
      payoutId: payout.id,
      txHash: signed.txHash,
      rawTx: signed.rawTx,
      gasLimit: signed.gasLimit,
      maxFeePerGas: signed.maxFeePerGas,
      maxPriorityFeePerGas: signed.maxPriorityFeePerGas,
      createdAt: now,
    });
  });
  if (!attempt) return undefined;
  await broadcastAttempt(deps, chain, payout, attempt);
  return 'replaced';
}

/**
 * The `payoutStuck` alert (mail and webhook): held by the fee ceiling, or refused by every node; once
 * per payout and UTC day, whichever instance sees it. Every later payout of the wallet waits behind
 * this nonce, so the operators must know.
 */
async function alertStuckPayout(
  deps: AppDeps,
  payout: PayoutRow,
  latest: PayoutAttemptRow,
  why: { reason: 'feeCeiling'; askedPerGas: bigint } | { reason: 'refused'; error: string | null },
) {
  const now = deps.clock.now();
  const ceiling = deps.config.payouts.enabled ? deps.config.payouts.maxFeePerGas : latest.maxFeePerGas;
  await sendAlertOnce(deps, `payoutStuck:${payout.id}:${now.toISOString().slice(0, 10)}`, 'payoutStuck', {
    reason: why.reason,
    payoutId: payout.id,
    withdrawalId: payout.withdrawalId,
    amount: fromScaled(payout.amountMicro, DECIMALS.usdt),
    to: payout.toAddress,
    nonce: payout.nonce,
    txHash: latest.txHash,
    offeredGwei: formatGwei(latest.maxFeePerGas),
    askedGwei: why.reason === 'feeCeiling' ? formatGwei(why.askedPerGas) : null,
    ceilingGwei: formatGwei(ceiling),
    error: why.reason === 'refused' ? (why.error ?? '').slice(0, 300) : null,
    since: latest.createdAt.toISOString(),
    at: now.toISOString(),
  });
}

async function settleMined(
  deps: PayoutDeps,
  chain: PayoutChain,
  payout: PayoutRow,
  txHash: string,
  block: bigint,
  status: 'success' | 'reverted',
  head: bigint,
): Promise<TrackStep> {
  const confirmations = head >= block ? Number(head - block) + 1 : 0;
  const now = deps.clock.now();
  await updatePayout(deps.db, payout.id, PAYOUT_IN_FLIGHT, {
    state: 'mined',
    minedHash: txHash,
    minedBlock: Number(block),
    confirmations,
    lastError: null,
    heldFeeAsked: null,
    updatedAt: now,
  });
  if (confirmations < chain.config.confirmations) return undefined;
  if (status === 'success') {
    await completePayout(deps, payout.id, txHash);
    return 'confirmed';
  }
  const reason = await chain.revertReason({
    to: payout.toAddress as Address,
    amountMicro: payout.amountMicro,
    block,
  });
  await finishPayout(deps, payout.id, 'reverted', {
    failureReason:
      `the transfer reverted on chain in block ${block} (${txHash})` +
      `${reason ? `: ${reason}` : ''}; nothing was paid, the withdrawal is back in the queue`,
  });
  return 'reverted';
}

/** Final and paid: the withdrawal completes with the landed hash (hold -> payout, the mail), in one transaction. */
async function completePayout(deps: PayoutDeps, payoutId: number, txHash: string) {
  await deps.db.transaction(async (tx) => {
    const payout = await findPayout(tx, payoutId, { forUpdate: true });
    if (!payout || !PAYOUT_IN_FLIGHT.includes(payout.state)) return;
    await approveWithdrawal(
      { ...deps, db: tx },
      {
        id: payout.withdrawalId,
        txHash,
        operatorId: payout.sentBy,
        via: payout.sentVia,
        payoutId: payout.id,
      },
    );
    await checkpoint(deps, 'track:beforeComplete');
    await updatePayout(tx, payout.id, PAYOUT_IN_FLIGHT, {
      state: 'confirmed',
      finishedAt: deps.clock.now(),
      updatedAt: deps.clock.now(),
    });
  });
}

async function finishPayout(
  deps: AppDeps,
  payoutId: number,
  state: 'reverted' | 'dropped',
  fields: { failureReason: string },
) {
  const now = deps.clock.now();
  await updatePayout(deps.db, payoutId, PAYOUT_IN_FLIGHT, {
    state,
    failureReason: fields.failureReason,
    finishedAt: now,
    updatedAt: now,
  });
}

// ---------------------------------------------------------------------------------------------------
// The wallet

export interface WalletStatus {
  chainId: number;
  address: string;
  token: string;
  /** USDT the wallet holds (6 decimals) and native gas (18 decimals: POL on Polygon). */
  tokenBalance: string;
  gasBalance: string;
  /** Payouts signed or on their way and not yet final. */
  inFlight: { count: number; amount: string };
  confirmations: number;
  /** PAYOUT_MAX_FEE_GWEI: no payout offers more per gas. */
  feeCeilingGwei: string;
}

export async function walletStatus(deps: AppDeps): Promise<WalletStatus> {
  const chain = payoutChain(deps);
  const config: EnabledPayoutConfig = chain.config;
  const [tokenBalance, gasBalance, inFlight] = await Promise.all([
    chain.tokenBalance(),
    chain.gasBalance(),
    inFlightTotals(deps.db),
  ]);
  return {
    chainId: config.chainId,
    address: chain.address,
    token: config.tokenAddress,
    tokenBalance: fromScaled(tokenBalance, DECIMALS.usdt),
    gasBalance: fromScaled(gasBalance, 18),
    inFlight: { count: inFlight.count, amount: fromScaled(inFlight.amountMicro, DECIMALS.usdt) },
    confirmations: config.confirmations,
    feeCeilingGwei: formatGwei(config.maxFeePerGas),
  };
}

/**
 * The wallet's health for the console (docs/withdrawals.md "Wallet health"): its balances, what it will
 * be asked for (pending withdrawals not yet sent, plus payouts signed and not yet in a block) and
 * whether its USDT or its gas falls short of that. Gas is counted at the transfer's gas limit and
 * today's fee cap, which is what a node wants the wallet to hold before it accepts a transfer; at
 * least one transfer's worth, so an empty tank shows before the next withdrawal arrives. A node that
 * does not answer leaves the balances null with the reason; the rest still answers.
 */
export async function walletHealth(deps: AppDeps): Promise<PayoutWallet> {
  if (!deps.config.payouts.enabled) return { enabled: false };
  const chain = payoutChain(deps);
  const { config } = chain;
  const lane = config.fastLane;
  const [pending, inFlight, laneSent] = await Promise.all([
    pendingWithdrawalTotals(deps),
    inFlightTotals(deps.db),
    lane
      ? fastLaneSentSince(deps.db, new Date(deps.clock.now().getTime() - FAST_LANE_WINDOW_MS), null)
      : null,
  ]);
  const awaiting = {
    count: Math.max(pending.count - inFlight.count, 0),
    amountMicro: pending.amountMicro > inFlight.amountMicro ? pending.amountMicro - inFlight.amountMicro : 0n,
  };
  const neededUsdt = awaiting.amountMicro + inFlight.unmined.amountMicro;
  const transfers = BigInt(Math.max(awaiting.count + inFlight.unmined.count, 1));

  let balances: { usdt: bigint; gas: bigint } | null = null;
  let neededGas: bigint | null = null;
  let askedFee: bigint | null = null;
  let unreachable: string | null = null;
  try {
    const [usdt, gas, fees] = await Promise.all([
      chain.tokenBalance(),
      chain.gasBalance(),
      chain.currentFees(),
    ]);
    balances = { usdt, gas };
    askedFee = fees.maxFeePerGas;
    neededGas = transfers * TRANSFER_GAS_LIMIT * cappedFees(fees, config.maxFeePerGas).maxFeePerGas;
  } catch (error) {
    unreachable = errorText(error);
  }
  const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
  return {
    enabled: true,
    chainId: config.chainId,
    address: chain.address,
    explorerUrl: config.chainId === 137 ? `${POLYGON_EXPLORER_ADDRESS_URL}${chain.address}` : null,
    token: config.tokenAddress,
    confirmations: config.confirmations,
    balances: balances ? { usdt: usdt(balances.usdt), gas: fromScaled(balances.gas, 18) } : null,
    unreachable,
    awaiting: { count: awaiting.count, amount: usdt(awaiting.amountMicro) },
    inFlight: { count: inFlight.count, amount: usdt(inFlight.amountMicro) },
    fees: {
      askedGwei: askedFee === null ? null : formatGwei(askedFee),
      ceilingGwei: formatGwei(config.maxFeePerGas),
    },
    needed: { usdt: usdt(neededUsdt), gas: neededGas === null ? null : fromScaled(neededGas, 18) },
    shortOfUsdt: balances !== null && balances.usdt < neededUsdt,
    shortOfGas: balances !== null && neededGas !== null && balances.gas < neededGas,
    fastLane:
      lane && laneSent
        ? {
            max: usdt(lane.maxMicro),
            daily: usdt(lane.dailyMicro),
            memberDaily: usdt(lane.memberDailyMicro),
            minAccountDays: Math.round(lane.minAccountAgeMs / 86_400_000),
            sentLast24h: usdt(laneSent.allMicro),
          }
        : null,
  };
}

/**
 * Alerts the operators (the `payoutWalletShort` alert, mail and webhook) when the wallet's USDT or gas
 * falls short of what the withdrawals waiting need: once per shortage, wallet and UTC day, whichever
 * instance sees it first. Answers what it alerted about. A node that does not answer alerts nothing
 * here (the balances are unknown; the console says so).
 */
export async function alertIfWalletShort(deps: AppDeps): Promise<Array<'usdt' | 'gas'>> {
  const health = await walletHealth(deps);
  if (!health.enabled || !health.balances) return [];
  const now = deps.clock.now();
  const day = now.toISOString().slice(0, 10);
  const alerted: Array<'usdt' | 'gas'> = [];
  const waiting = health.awaiting.count + health.inFlight.count;
  if (health.shortOfUsdt) {
    const sent = await sendAlertOnce(
      deps,
      `payoutWallet:usdt:${health.address}:${day}`,
      'payoutWalletShort',
      {
        short: 'usdt',
        address: health.address,
        held: health.balances.usdt,
        needed: health.needed.usdt,
        awaiting: waiting,
        at: now.toISOString(),
      },
    );
    if (sent) alerted.push('usdt');
  }
  if (health.shortOfGas && health.needed.gas !== null) {
    const sent = await sendAlertOnce(deps, `payoutWallet:gas:${health.address}:${day}`, 'payoutWalletShort', {
      short: 'gas',
      address: health.address,
      held: health.balances.gas,
      needed: health.needed.gas,
      awaiting: waiting,
      at: now.toISOString(),
    });
    if (sent) alerted.push('gas');
  }
  return alerted;
}
