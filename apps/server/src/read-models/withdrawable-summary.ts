import type { Executor } from '../db/client.js';
import { queryPrepared } from '../db/prepared.js';
import {
  HELD_INVITE_BONUSES_NEXT_CHANGE,
  HELD_INVITE_BONUSES_TOTAL,
  type HeldInviteBonuses,
  type HeldInviteBonusesRow,
  toHeldInviteBonuses,
} from './held-invite-bonuses.js';

interface WithdrawableBinding {
  platId: number;
  uid: string;
  address: string;
  boundAt: Date;
  ownershipVerifiedAt: Date | null;
  /** The UID's kept cashback balance (micro-USDT). */
  cashbackMicro: bigint;
  /** An open dispute freezes it (docs/support.md). */
  frozen: boolean;
}

export interface WithdrawableSummary {
  withdrawalLockedUntil: Date | null;
  /** The member's kept rewards balance (micro-USDT). */
  rewardsMicro: bigint;
  /** The part of it in invite bonuses held for their friends' ownership checks (held-invite-bonuses.ts). */
  heldBonuses: HeldInviteBonuses;
  /** Live bindings, oldest first. */
  bindings: WithdrawableBinding[];
  /**
   * When the held bonuses may next change by time alone (a hold ends, a decided dispute's wait ends),
   * or null: the summary read at `now` is the summary until then unless something is written.
   */
  heldChangesAt: Date | null;
}

/**
 * /elex/user/withdrawable in one round trip (issue 14): the member's lock, rewards balance (with its
 * held invite bonuses) and live bindings, each with its kept cashback balance and whether a dispute
 * freezes it. It was four statements in two round trips; at -c 50 the calls a page makes are bounded
 * by the statements the database runs, not by the rows it reads. The account codes are the ledger's (`rewards:<userId>`,
 * `cashback:<platId>:<uid>`, ledger/accounts.ts); withdrawals.test.ts holds the answer to the balances.
 * Kept per process (withdrawals.service, migration 0052): a table read here that no trigger names the
 * member for would serve a stale balance; `held_changes_at` bounds how long it may be kept.
 */
const WITHDRAWABLE_SUMMARY = `
  -- Materialized: as a subquery the planner may run it again for each live binding.
  with h as materialized (${HELD_INVITE_BONUSES_TOTAL})
  select u.withdrawal_locked_until,
    coalesce((select balance from ledger_accounts where code = 'rewards:' || u.id), 0)::text as rewards,
    b.plat_id, b.uid, b.address, b.bound_at, b.ownership_verified_at,
    coalesce((select balance from ledger_accounts where code = 'cashback:' || b.plat_id || ':' || b.uid), 0)::text
      as cashback,
    exists (
      select 1 from support_requests s
      where s.kind = 'uidBoundByOther' and s.status <> 'closed' and s.plat_id = b.plat_id and s.uid = b.uid
    ) as frozen,
    h.held_rewards, h.held_until, h.held_disputed,
    (${HELD_INVITE_BONUSES_NEXT_CHANGE}) as held_changes_at
  from users u
  cross join h
  left join exchange_bindings b on b.user_id = u.id and b.unbound_at is null
  where u.id = $1::bigint
  order by b.bound_at, b.id`;

export async function selectWithdrawableSummary(
  db: Executor,
  userId: number,
  now: Date,
): Promise<WithdrawableSummary> {
  const rows = await queryPrepared<
    HeldInviteBonusesRow & {
      withdrawal_locked_until: Date | string | null;
      rewards: string;
      plat_id: number | null;
      uid: string | null;
      address: string | null;
      bound_at: Date | string | null;
      ownership_verified_at: Date | string | null;
      cashback: string;
      frozen: boolean;
      held_changes_at: Date | string | null;
    }
  >(db, 'withdrawable_summary_v5', WITHDRAWABLE_SUMMARY, [userId, now.toISOString()]);
  const first = rows[0];
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    withdrawalLockedUntil: date(first?.withdrawal_locked_until ?? null),
    rewardsMicro: BigInt(first?.rewards ?? '0'),
    heldBonuses: toHeldInviteBonuses(first),
    bindings: rows
      .filter((row) => row.plat_id !== null)
      .map((row) => ({
        platId: Number(row.plat_id),
        uid: row.uid as string,
        address: row.address as string,
        boundAt: new Date(row.bound_at as Date | string),
        ownershipVerifiedAt: date(row.ownership_verified_at),
        cashbackMicro: BigInt(row.cashback),
        frozen: row.frozen,
      })),
    heldChangesAt: date(first?.held_changes_at ?? null),
  };
}
