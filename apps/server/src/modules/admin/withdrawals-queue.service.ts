import type { WithdrawalQueueItem, WithdrawalQueuePage, WithdrawalStatus } from '@elex/contract';
import type { AppDeps } from '../../app.js';
import {
  approveWithdrawal,
  type DecisionResult,
  listWithdrawalQueue,
  rejectWithdrawal,
} from '../withdrawals/withdrawals.service.js';
import { recordAudit } from './audit.service.js';
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
      }),
    ),
    total: page.total,
    page: page.page,
    pageSize: page.pageSize,
  };
}

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
