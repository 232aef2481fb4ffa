import type { FastLaneVerdict } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { fastLaneCandidates, fastLaneConditionsOf, fastLaneSentSince } from '../../read-models/fast-lane.js';
import type { AuditActor } from '../admin/audit.service.js';
import { isUidFrozen } from '../support/frozen.js';
import type { WithdrawalRow } from '../withdrawals/withdrawals.tables.js';
import { FAST_LANE_WINDOW_MS, type FastLaneConfig } from './payouts.config.js';
import { payoutHeldByFees } from './payouts.repository.js';
import { sendWithdrawal } from './payouts.send.js';
import type { PayoutDeps } from './payouts.service.js';

/**
 * The fast lane (issue 17, docs/withdrawals.md "Fast lane"): off unless PAYOUT_FAST_LANE_MAX_USDT is
 * set. Small withdrawals from members in good standing are sent on chain without an operator, within
 * a limit per 24 hours for all members and one per member; the tracker runs a pass after each of its
 * own. Everything else waits for an operator as before.
 */

/** The audit log's name for the fast lane's sends (no person sent them). */
export const FAST_LANE_ACTOR: AuditActor = { userId: null, label: 'system:fast-lane' };

/** How far back a rejected withdrawal keeps a member out of the fast lane. */
const REJECTION_LOOKBACK_MS = 30 * 86_400_000;

/** Withdrawals one pass sends at most, and candidates it reads per query. */
const SENDS_PER_PASS = 10;
const CANDIDATE_PAGE = 50;

export interface FastLaneSummary {
  /** Sent on chain by this pass. */
  sent: number;
  /** Left for an operator this pass: a limit reached, the UID under dispute, a refusal of the send. */
  waiting: number;
}

/**
 * Why a candidate waits for its limit: the lane's total for any 24 hours (with what is left of it), or
 * the member's.
 */
class OverLimit extends Error {
  constructor(
    readonly which: 'all' | 'member',
    readonly leftMicro: bigint,
  ) {
    super(`fast lane ${which === 'all' ? 'daily' : 'member daily'} limit reached`);
  }
}

async function refuseOverLimit(db: Executor, lane: FastLaneConfig, withdrawal: WithdrawalRow, now: Date) {
  const sent = await fastLaneSentSince(db, new Date(now.getTime() - FAST_LANE_WINDOW_MS), withdrawal.userId);
  if (sent.allMicro + withdrawal.amountMicro > lane.dailyMicro) {
    throw new OverLimit('all', lane.dailyMicro - sent.allMicro);
  }
  if (sent.memberMicro + withdrawal.amountMicro > lane.memberDailyMicro) {
    throw new OverLimit('member', lane.memberDailyMicro - sent.memberMicro);
  }
}

/**
 * One pass: the oldest qualifying withdrawals, each checked against the limits (again under the
 * wallet's lock inside the send, where every send of the wallet queues, so two instances cannot both
 * spend the last of a limit) and sent as `auto`, audited under FAST_LANE_ACTOR. A wallet that cannot
 * pay or a node that does not answer ends the pass (the operators have the wallet's alert); so does a
 * payout held by the fee ceiling (a new send would only queue behind it, signed at the ceiling). Once
 * the all-members limit is met, only what fits in the rest of it is looked at.
 */
export async function sendFastLane(deps: PayoutDeps): Promise<FastLaneSummary> {
  const summary: FastLaneSummary = { sent: 0, waiting: 0 };
  const lane = deps.config.payouts.enabled ? deps.config.payouts.fastLane : null;
  if (!lane) return summary;
  if (await payoutHeldByFees(deps.db)) return summary;
  const now = deps.clock.now();
  let afterId = 0;
  let maxMicro = lane.maxMicro;
  while (summary.sent < SENDS_PER_PASS && maxMicro > 0n) {
    const candidates = await fastLaneCandidates(deps.db, {
      ...laneTerms(lane, now),
      maxMicro,
      afterId,
      limit: CANDIDATE_PAGE,
    });
    for (const withdrawal of candidates) {
      afterId = withdrawal.id;
      if (summary.sent >= SENDS_PER_PASS) break;
      if (withdrawal.amountMicro > maxMicro) {
        summary.waiting += 1;
        continue;
      }
      const outcome = await sendOne(deps, lane, withdrawal, now);
      if (outcome === 'stop') return summary;
      if (typeof outcome === 'object') {
        maxMicro = outcome.leftMicro < maxMicro ? outcome.leftMicro : maxMicro;
        summary.waiting += 1;
        continue;
      }
      summary[outcome] += 1;
    }
    if (candidates.length < CANDIDATE_PAGE) break;
  }
  return summary;
}

/**
 * What the lane does with each pending withdrawal among `ids` (absent: not pending; an empty map when
 * the lane is off), for the console: 'sends' when it is eligible as things stand, else the first
 * reason it is not: its own conditions (one statement for the page), then a payout held by the fee
 * ceiling, an open dispute on the UID, the limits for all members and for the member, asked with the
 * pass's own helpers (two queries for each withdrawal that meets every condition: few, since the lane
 * sends those within seconds unless one of these holds them). A pass sends oldest first and ten at
 * most, and stops when the wallet cannot pay: an eligible withdrawal goes in turn.
 */
export async function fastLaneVerdicts(
  deps: PayoutDeps,
  ids: number[],
): Promise<Map<number, FastLaneVerdict>> {
  const verdicts = new Map<number, FastLaneVerdict>();
  const lane = deps.config.payouts.enabled ? deps.config.payouts.fastLane : null;
  if (!lane || ids.length === 0) return verdicts;
  const now = deps.clock.now();
  const checked = await fastLaneConditionsOf(deps.db, { ids, ...laneTerms(lane, now) });
  const held = checked.some((row) => row.failed === null) && (await payoutHeldByFees(deps.db));
  for (const { withdrawal, failed } of checked) {
    verdicts.set(withdrawal.id, failed ?? (await waitsFor(deps, lane, withdrawal, now, held)));
  }
  return verdicts;
}

/** Why a withdrawal that meets the lane's conditions would still wait, or 'sends'. */
async function waitsFor(
  deps: PayoutDeps,
  lane: FastLaneConfig,
  withdrawal: WithdrawalRow,
  now: Date,
  heldByFees: boolean,
): Promise<FastLaneVerdict> {
  // The pass's order: a held payout stops it before any withdrawal is looked at.
  if (heldByFees) return 'feeCeiling';
  if (await isUidFrozen(deps.db, withdrawal.platId, withdrawal.uid)) return 'uidFrozen';
  try {
    await refuseOverLimit(deps.db, lane, withdrawal, now);
    return 'sends';
  } catch (error) {
    if (error instanceof OverLimit) return error.which === 'all' ? 'dailyLimit' : 'memberDailyLimit';
    throw error;
  }
}

/** The lane's maximum and the two moments its conditions compare with, as of `now`. */
function laneTerms(lane: FastLaneConfig, now: Date) {
  return {
    maxMicro: lane.maxMicro,
    now,
    accountBefore: new Date(now.getTime() - lane.minAccountAgeMs),
    rejectedSince: new Date(now.getTime() - REJECTION_LOOKBACK_MS),
  };
}

async function sendOne(
  deps: PayoutDeps,
  lane: FastLaneConfig,
  withdrawal: WithdrawalRow,
  now: Date,
): Promise<'sent' | 'waiting' | 'stop' | { leftMicro: bigint }> {
  // Cheap checks first, so a withdrawal that must wait costs no call to the node on every pass.
  if (await isUidFrozen(deps.db, withdrawal.platId, withdrawal.uid)) return 'waiting';
  try {
    await refuseOverLimit(deps.db, lane, withdrawal, now);
    const { created } = await sendWithdrawal(deps, {
      id: withdrawal.id,
      operatorId: null,
      via: 'auto',
      audit: { actor: FAST_LANE_ACTOR, requestId: null },
      guard: (tx, locked) => refuseOverLimit(tx, lane, locked, deps.clock.now()),
    });
    return created ? 'sent' : 'waiting';
  } catch (error) {
    if (error instanceof OverLimit) return error.which === 'all' ? { leftMicro: error.leftMicro } : 'waiting';
    if (!(error instanceof AppError)) throw error;
    const key = error.messageKey;
    if (
      key === 'payoutNodeUnreachable' ||
      key === 'payoutWalletShortUsdt' ||
      key === 'payoutWalletShortGas'
    ) {
      return 'stop';
    }
    // Suspended, cancelled or decided meanwhile: the operator's queue has it.
    return 'waiting';
  }
}
