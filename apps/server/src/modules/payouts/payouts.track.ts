import { DECIMALS, fromScaled } from '@elex/contract';
import type { Address, Hash, Hex } from 'viem';
import type { AppDeps } from '../../deps.js';
import { sendAlertOnce } from '../alerts/alerts.service.js';
import { approveWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import { formatGwei } from './gwei.js';
import { bumpedFees, cappedFees, type PayoutChain, replacesAtNode } from './payouts.chain.js';
import {
  attemptsOf,
  claimInFlight,
  findPayout,
  insertAttempt,
  releaseLease,
  updatePayout,
} from './payouts.repository.js';
import { attemptRow, broadcastAttempt, heldBelow } from './payouts.send.js';
import { checkpoint, type PayoutDeps, payoutChainOf } from './payouts.service.js';
import { PAYOUT_IN_FLIGHT, type PayoutAttemptRow, type PayoutRow } from './payouts.tables.js';

/** Following payouts on chain to their end (the tracker job runs trackPayouts). */

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
 * How long the payout's nonce must stay used on chain with no receipt of ours before the payout counts
 * as dropped: long enough for any node behind another to catch up, and nothing waits on it but a
 * withdrawal that could not be paid anyway.
 */
export const NONCE_TAKEN_AFTER_MS = 10 * 60_000;

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
  const chain = await payoutChainOf(deps.config.payouts);
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
    // The nonce is final on chain and no receipt of ours was found: the wallet sent something else with
    // it (a payment made by hand from the same key?), or the node that answered the receipts is behind
    // the one that counted (a load balancer, a fallback URL). Dropping puts the withdrawal back in the
    // queue, where a second send would pay it twice if ours did land: only a look that still finds no
    // receipt NONCE_TAKEN_AFTER_MS after the first decides.
    const seenAt = payout.nonceTakenSeenAt;
    if (!seenAt) {
      await updatePayout(deps.db, payout.id, PAYOUT_IN_FLIGHT, { nonceTakenSeenAt: now, updatedAt: now });
      return undefined;
    }
    if (now.getTime() - seenAt.getTime() < NONCE_TAKEN_AFTER_MS) return undefined;
    await finishPayout(deps, payout.id, 'dropped', {
      failureReason:
        `nonce ${payout.nonce} of the wallet was used by another transaction; this payout never ` +
        'reached the chain and moved nothing',
    });
    return 'dropped';
  }
  if (payout.nonceTakenSeenAt) {
    // A reorg or a node that caught up: the earlier look no longer holds.
    await updatePayout(deps.db, payout.id, PAYOUT_IN_FLIGHT, { nonceTakenSeenAt: null, updatedAt: now });
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
    return insertAttempt(tx, attemptRow(payout.id, signed, now));
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
