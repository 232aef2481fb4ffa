import {
  type Locale,
  type PayoutSummary,
  type SendResult,
  translate,
  type WithdrawalQueueItem,
  type WithdrawalQueuePage,
  type WithdrawalStatus,
} from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { findUserById } from '../auth/auth.service.js';
import { fastLaneVerdicts } from '../payouts/payouts.fast-lane.js';
import { sendWithdrawal, sendWithdrawals } from '../payouts/payouts.send.js';
import { latestPayouts, type PayoutBrief, type PayoutView } from '../payouts/payouts.service.js';
import {
  approveWithdrawal,
  type DecisionResult,
  rejectWithdrawal,
} from '../withdrawals/withdrawals.decisions.js';
import { listWithdrawalQueue } from '../withdrawals/withdrawals.queue.js';
import { confirmOperatorRole, recordAudit } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';

/**
 * The withdrawal queue of the console: the withdrawals module decides (status, ledger, result mail);
 * the audit entry is written in the same transaction (the module's transaction runs inside ours).
 */

/** /elex/admin/withdrawalQueue: oldest first, each with the member and the balance history. */
export async function withdrawalQueue(
  deps: AppDeps,
  query: { status: WithdrawalStatus; page: number; pageSize: number },
): Promise<WithdrawalQueuePage> {
  const page = await listWithdrawalQueue(deps, query);
  const payouts = await latestPayouts(
    deps,
    page.items.map((item) => Number(item.id)),
  );
  const summaries = await summariesOf(deps, [...payouts.values()]);
  const lane = await fastLaneVerdicts(
    deps,
    page.items.map((item) => Number(item.id)),
  );
  return {
    rows: page.items.map(
      (item): WithdrawalQueueItem => ({
        id: item.id,
        status: item.status,
        platId: item.platId,
        uid: item.uid,
        amount: item.amount,
        cashbackPart: item.cashbackPart,
        rewardsPart: item.rewardsPart,
        address: item.address,
        createdAt: item.createdAt,
        decidedAt: item.decidedAt,
        txHash: item.txHash,
        failureReason: item.failureReason,
        member: item.member,
        isBindingLive: item.isBindingLive,
        isOverdue: item.isOverdue,
        balanceHistory: item.balanceHistory,
        summary: item.summary,
        payout: summaries.get(Number(item.id)) ?? null,
        // A payout on its way is the whole story; after a failed one the lane says it leaves it to them.
        fastLane: isOnItsWay(summaries.get(Number(item.id))) ? null : (lane.get(Number(item.id)) ?? null),
      }),
    ),
    total: page.total,
    page: page.page,
    pageSize: page.pageSize,
  };
}

/** A payout that moved or may still move the money (not reverted or dropped). */
const isOnItsWay = (payout: PayoutSummary | undefined) =>
  payout !== undefined && payout.state !== 'reverted' && payout.state !== 'dropped';

/**
 * One operator decision and its audit entry, committed together. The console's calls and the
 * `withdrawals:approve` / `withdrawals:reject` commands (`via: 'cli'`, their operator) both come
 * through here.
 */
type DecisionContext = ActionContext & { via?: 'cli' };

async function decideAudited(
  deps: AppDeps,
  context: DecisionContext,
  action: 'withdrawal.approve' | 'withdrawal.reject',
  decide: (within: AppDeps) => Promise<DecisionResult>,
) {
  return deps.db.transaction(async (tx) => {
    await confirmOperatorRole(tx, context.actor);
    const { before, after } = await decide({ ...deps, db: tx });
    await recordAudit(tx, {
      actor: context.actor,
      action,
      target: `withdrawal:${after.id}`,
      before,
      after,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return after;
  });
}

/** Paid on chain with this transaction hash -> completed; audited. */
export function approveAudited(
  deps: AppDeps,
  context: DecisionContext,
  input: { id: string; txHash: string },
) {
  return decideAudited(deps, context, 'withdrawal.approve', (within) =>
    approveWithdrawal(within, {
      id: input.id,
      txHash: input.txHash,
      operatorId: context.actor.userId,
      ...(context.via ? { via: context.via } : {}),
    }),
  );
}

/** -> failed with the reason; the hold returns to where it came from; audited. */
export function rejectAudited(
  deps: AppDeps,
  context: DecisionContext,
  input: { id: string; reason: string },
) {
  return decideAudited(deps, context, 'withdrawal.reject', (within) =>
    rejectWithdrawal(within, {
      id: input.id,
      reason: input.reason,
      operatorId: context.actor.userId,
      ...(context.via ? { via: context.via } : {}),
    }),
  );
}

/** /elex/admin/approveWithdrawal */
export async function approve(deps: AppDeps, context: ActionContext, input: { id: string; txHash: string }) {
  const after = await approveAudited(deps, context, input);
  return { id: after.id, status: after.status, txHash: after.txHash, decidedAt: after.decidedAt };
}

/** /elex/admin/rejectWithdrawal */
export async function reject(deps: AppDeps, context: ActionContext, input: { id: string; reason: string }) {
  const after = await rejectAudited(deps, context, input);
  return {
    id: after.id,
    status: after.status,
    failureReason: after.failureReason,
    decidedAt: after.decidedAt,
  };
}

// ---------------------------------------------------------------------------------------------------
// On-chain payouts from the console (docs/withdrawals.md "On-chain payouts"). The payouts module writes
// the audit entry in the transaction that records the signed transfer, so these do not open their own:
// the broadcast has to follow that commit.

/** Operator e-mails of these user ids (the few operators who send), for "sent by". */
async function operatorLabels(
  deps: AppDeps,
  ids: ReadonlyArray<number | null>,
): Promise<Map<number, string>> {
  const labels = new Map<number, string>();
  for (const id of new Set(ids)) {
    if (id === null) continue;
    const user = await findUserById(deps.db, id);
    if (user?.email) labels.set(id, user.email);
  }
  return labels;
}

function toSummary(brief: PayoutBrief, labels: Map<number, string>): PayoutSummary {
  return {
    id: brief.id,
    state: brief.state,
    txHash: brief.txHash,
    explorerUrl: brief.explorerUrl,
    nonce: brief.nonce,
    confirmations: brief.confirmations,
    confirmationsNeeded: brief.confirmationsNeeded,
    attempts: brief.attempts,
    sentBy: brief.sentBy === null ? null : (labels.get(brief.sentBy) ?? null),
    sentVia: brief.sentVia,
    createdAt: brief.createdAt,
    finishedAt: brief.finishedAt,
    failureReason: brief.failureReason,
    lastError: brief.lastError,
    feeHeld: brief.feeHeld,
  };
}

/** Summaries by withdrawal id. */
async function summariesOf(deps: AppDeps, briefs: PayoutBrief[]): Promise<Map<number, PayoutSummary>> {
  const labels = await operatorLabels(
    deps,
    briefs.map((brief) => brief.sentBy),
  );
  return new Map(briefs.map((brief) => [brief.withdrawalId, toSummary(brief, labels)]));
}

const briefOf = (view: PayoutView): PayoutBrief => ({ ...view, attempts: view.attempts.length });

/** /elex/admin/sendWithdrawal: one withdrawal's payout, signed, recorded, audited, then broadcast. */
export async function sendOne(
  deps: AppDeps,
  context: ActionContext,
  input: { id: string },
): Promise<{ created: boolean; payout: PayoutSummary }> {
  const outcome = await sendWithdrawal(deps, {
    id: input.id,
    operatorId: context.actor.userId,
    via: 'console',
    audit: { actor: context.actor, requestId: context.requestId },
  });
  const summaries = await summariesOf(deps, [briefOf(outcome.payout)]);
  return { created: outcome.created, payout: summaries.get(outcome.payout.withdrawalId) as PayoutSummary };
}

/**
 * /elex/admin/sendWithdrawals: several, one after the other; a refusal of one (decided meanwhile, a
 * dispute, the operator's own) is said beside it in the operator's language and the others go on.
 */
export async function sendMany(
  deps: AppDeps,
  context: ActionContext,
  input: { ids: string[] },
  locale: Locale,
): Promise<{ results: SendResult[] }> {
  const outcomes = await sendWithdrawals(deps, {
    ids: input.ids,
    operatorId: context.actor.userId,
    via: 'console',
    audit: { actor: context.actor, requestId: context.requestId },
  });
  const briefs = outcomes.flatMap(({ outcome }) => ('payout' in outcome ? [briefOf(outcome.payout)] : []));
  const summaries = await summariesOf(deps, briefs);
  return {
    results: outcomes.map(({ id, outcome }) =>
      'refused' in outcome
        ? {
            id,
            created: false,
            payout: null,
            refusal: translate(locale, outcome.refused.messageKey, outcome.refused.values),
          }
        : {
            id,
            created: outcome.created,
            payout: summaries.get(outcome.payout.withdrawalId) ?? null,
            refusal: null,
          },
    ),
  };
}
