import { DECIMALS, fromScaled, type WithdrawalStatus } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { memberIdentities } from '../auth/auth.service.js';
import { liveBindingOf } from '../bindings/bindings.service.js';
import {
  accountCode,
  balancesOf,
  creditedByAccount,
  EARNED_CASHBACK_JOURNAL_KINDS,
  EARNED_REWARD_JOURNAL_KINDS,
  recentMovements,
} from '../ledger/ledger.service.js';
import { isOverdue } from './withdrawals.decisions.js';
import { toSnapshot, type WithdrawalSnapshot } from './withdrawals.model.js';
import { selectQueuePage, selectStatusTotals } from './withdrawals.repository.js';

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

/**
 * The console's withdrawal queue (apart from the request, withdrawals.service, and the decisions,
 * withdrawals.decisions): each
 * pending withdrawal with what an operator weighs before paying.
 */

/** What an operator weighs before paying: the member's money story in a few figures. */
interface BalanceHistorySummary {
  /** All cashback ever credited to this withdrawal's UID (rebates), and what it holds now. */
  cashbackEarned: string;
  cashbackBalance: string;
  /** All event rewards ever credited to the member, and what they hold now. */
  rewardsEarned: string;
  rewardsBalance: string;
  /** The member's withdrawals by status: how many and how much (this one included). */
  withdrawals: Record<WithdrawalStatus, { count: number; amount: string }>;
}

/** One movement of the UID's cashback or the member's rewards, signed, with that account's balance after it. */
interface BalanceMovement {
  at: string;
  account: 'cashback' | 'rewards';
  /** The journal kind: 'rebate', 'inviteBonus', 'withdrawalHold', 'withdrawalRelease' ... */
  kind: string;
  amount: string;
  balanceAfter: string;
}

/** How many movements of the two accounts a queue item carries. */
const QUEUE_HISTORY_MOVEMENTS = 20;

interface QueueItem extends WithdrawalSnapshot {
  member: {
    userId: number;
    email: string | null;
    userCode: string;
    memberSince: string | null;
    suspendedAt: string | null;
  };
  /** Whether the UID is still bound to this member (an operator may have unbound it since). */
  isBindingLive: boolean;
  /** Pending for longer than the 48 hours the spec promises. */
  isOverdue: boolean;
  /** The UID's cashback account and the member's rewards, latest movements first. */
  balanceHistory: BalanceMovement[];
  summary: BalanceHistorySummary;
}

export interface WithdrawalQueuePage {
  items: QueueItem[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * The operator queue, oldest first, optionally one status (the console shows 'pending' by default),
 * each withdrawal with the member's e-mail, user code and balance history summary.
 */
export async function listWithdrawalQueue(
  deps: AppDeps,
  query: { status?: WithdrawalStatus | undefined; page: number; pageSize: number },
): Promise<WithdrawalQueuePage> {
  const page = Math.max(1, Math.floor(query.page));
  const pageSize = Math.min(100, Math.max(1, Math.floor(query.pageSize)));
  const { rows, total } = await selectQueuePage(deps.db, { status: query.status, page, pageSize });
  const userIds = [...new Set(rows.map((row) => row.userId))];
  const cashbackCodes = rows.map((row) => accountCode.cashback(row.platId, row.uid));
  const rewardsCodes = userIds.map((userId) => accountCode.rewards(userId));
  const [identities, balances, cashbackEarned, rewardsEarned, totals] = await Promise.all([
    memberIdentities(deps.db, userIds),
    balancesOf(deps.db, [...cashbackCodes, ...rewardsCodes]),
    creditedByAccount(deps.db, cashbackCodes, EARNED_CASHBACK_JOURNAL_KINDS),
    creditedByAccount(deps.db, rewardsCodes, EARNED_REWARD_JOURNAL_KINDS),
    selectStatusTotals(deps.db, userIds),
  ]);
  const items: QueueItem[] = [];
  for (const row of rows) {
    const cashbackCode = accountCode.cashback(row.platId, row.uid);
    const rewardsCode = accountCode.rewards(row.userId);
    const identity = identities.get(row.userId);
    const binding = await liveBindingOf(deps.db, row.platId, row.uid);
    const movements = await recentMovements(deps.db, [cashbackCode, rewardsCode], QUEUE_HISTORY_MOVEMENTS);
    const byStatus = Object.fromEntries(
      (['pending', 'completed', 'failed', 'cancelled'] as const).map((status) => {
        const found = totals.find((entry) => entry.userId === row.userId && entry.status === status);
        return [status, { count: found?.count ?? 0, amount: usdt(found?.amountMicro ?? 0n) }];
      }),
    ) as BalanceHistorySummary['withdrawals'];
    items.push({
      ...toSnapshot(row),
      member: {
        userId: row.userId,
        email: identity?.email ?? null,
        userCode: identity?.userCode ?? '',
        memberSince: identity?.createdAt.toISOString() ?? null,
        suspendedAt: identity?.suspendedAt?.toISOString() ?? null,
      },
      isBindingLive: binding?.userId === row.userId,
      isOverdue: row.status === 'pending' && isOverdue(row.createdAt, deps.clock.now()),
      balanceHistory: movements.map((movement) => ({
        at: movement.at.toISOString(),
        account: movement.account === cashbackCode ? 'cashback' : 'rewards',
        kind: movement.kind,
        amount: usdt(movement.amountMicro),
        balanceAfter: usdt(movement.balanceAfterMicro),
      })),
      summary: {
        cashbackEarned: usdt(cashbackEarned.get(cashbackCode) ?? 0n),
        cashbackBalance: usdt(balances.get(cashbackCode) ?? 0n),
        rewardsEarned: usdt(rewardsEarned.get(rewardsCode) ?? 0n),
        rewardsBalance: usdt(balances.get(rewardsCode) ?? 0n),
        withdrawals: byStatus,
      },
    });
  }
  return { items, total, page, pageSize };
}
