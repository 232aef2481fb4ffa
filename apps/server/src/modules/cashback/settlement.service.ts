import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isLockTimeout } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { activeInviterOf } from '../auth/auth.service.js';
import { liveOwnersOf } from '../bindings/uid-owners.js';
import { accountCode, type JournalInput, postJournals } from '../ledger/ledger.service.js';
import {
  insertEventRewardRows,
  lockExchangeLedger,
  type NewEventReward,
  SETTLEMENT_START,
  type SettledRebate,
  type SettlementCursor,
  settleRebatePage,
} from './cashback.repository.js';
import { loadPartners, type Partner } from './partners.js';
import { inviteBonusAmount, rebateRuleSql } from './rebate-rule.js';

const HOUR_MS = 60 * 60 * 1000;
/**
 * A record whose UID is still not in the roster this long after its period ended fails with
 * 'uidNotReferred' (issue 5). Until then it waits: rosters and figures arrive by separate paths.
 */
export const REFERRAL_GRACE_DAYS = 7;

export interface SettlementResult {
  completed: number;
  failed: number;
  /** Of those, records once refused as 'uidNotReferred' whose UID has joined the roster since. */
  recovered: number;
  /** Cashback credited to UIDs, micro-USDT. */
  creditedMicro: bigint;
  /** Invite bonuses credited to inviters, micro-USDT. */
  bonusMicro: bigint;
}

export const noSettlement = (): SettlementResult => ({
  completed: 0,
  failed: 0,
  recovered: 0,
  creditedMicro: 0n,
  bonusMicro: 0n,
});

/**
 * Settles the due records of one exchange inside the caller's transaction, which holds the exchange's
 * ledger lock. A record is due when its period ended SETTLEMENT_DELAY_HOURS ago; then:
 * - its UID is in the roster: commission 0 fails it ('noCommission'); otherwise it completes with the
 *   rule's amount, credited commission:<platId> -> cashback:<platId>:<uid>, and the invite bonus of the
 *   UID's current member's inviter, rewards-expense -> rewards:<inviterId>, in this same transaction;
 * - its UID is not in the roster REFERRAL_GRACE_DAYS after the period ended: fails ('uidNotReferred');
 * - otherwise it stays pending.
 * A record that failed as 'uidNotReferred' is decided again as soon as its UID is in the roster (a
 * roster that arrived late never loses the cashback). `uid` settles that one UID only.
 */
export async function settleExchange(
  tx: Transaction,
  deps: AppDeps,
  partner: Partner,
  now: Date,
  uid?: string,
): Promise<SettlementResult> {
  const result = noSettlement();
  const endedBy = new Date(now.getTime() - deps.config.settlementDelayHours * HOUR_MS);
  const graceEndedBy = new Date(now.getTime() - REFERRAL_GRACE_DAYS * 24 * HOUR_MS);
  let cursor: SettlementCursor | null = SETTLEMENT_START;
  while (cursor) {
    const page = await settleRebatePage(tx, {
      platId: partner.platId,
      endedBy,
      graceEndedBy,
      uid,
      after: cursor,
      limit: SETTLEMENT_PAGE,
      at: now,
      rule: (columns) =>
        rebateRuleSql({
          ...columns,
          cashRateBps: partner.cashRateBps,
          speedUpCashRateBps: partner.speedUpCashRateBps,
        }),
    });
    if (page.settled.length !== page.decided) throw new Error('a rebate record changed during settlement');
    await creditPage(tx, deps, partner, now, page.settled, result);
    cursor = page.next;
  }
  return result;
}

/** Records settled a round: a million-record import settles in pages, holding one at a time. */
const SETTLEMENT_PAGE = 20_000;

/** The ledger's side of a decided page: cashback to each UID, the invite bonuses of their inviters. */
async function creditPage(
  tx: Transaction,
  deps: AppDeps,
  partner: Partner,
  now: Date,
  settled: readonly SettledRebate[],
  result: SettlementResult,
): Promise<void> {
  if (settled.length === 0) return;
  const credits: Array<{ rebateId: number; uid: string; amountMicro: bigint }> = [];
  for (const record of settled) {
    if (record.status === 'completed') result.completed += 1;
    else result.failed += 1;
    if (record.recovered) result.recovered += 1;
    if (record.status === 'completed' && record.amountMicro !== null && record.amountMicro > 0n) {
      credits.push({ rebateId: record.id, uid: record.uid, amountMicro: record.amountMicro });
    }
  }

  const journals: JournalInput[] = credits.map((credit) => ({
    kind: 'rebate',
    key: `rebate:${credit.rebateId}`,
    at: now,
    lines: [
      { account: accountCode.commission(partner.platId), amount: -credit.amountMicro },
      { account: accountCode.cashback(partner.platId, credit.uid), amount: credit.amountMicro },
    ],
  }));
  const rewards = await inviteBonuses(tx, deps, partner.platId, credits, now);
  for (const reward of rewards) {
    journals.push({
      kind: 'inviteBonus',
      key: reward.journalKey,
      at: now,
      lines: [
        { account: accountCode.rewardsExpense, amount: -reward.amountMicro },
        { account: accountCode.rewards(reward.userId), amount: reward.amountMicro },
      ],
    });
  }
  await postJournals(tx, journals);
  await insertEventRewardRows(tx, rewards);

  result.creditedMicro += credits.reduce((sum, credit) => sum + credit.amountMicro, 0n);
  result.bonusMicro += rewards.reduce((sum, reward) => sum + reward.amountMicro, 0n);
}

/**
 * The invite bonuses these credits earn: the member who holds the UID now, if that member was invited
 * by a member whose account still exists, earns the inviter INVITE_BONUS_PERCENT of the cashback.
 */
async function inviteBonuses(
  tx: Transaction,
  deps: AppDeps,
  platId: number,
  credits: ReadonlyArray<{ rebateId: number; uid: string; amountMicro: bigint }>,
  now: Date,
): Promise<NewEventReward[]> {
  const percent = deps.config.inviteBonusPercent;
  if (credits.length === 0 || percent === 0) return [];
  const owners = await liveOwnersOf(
    tx,
    platId,
    credits.map((credit) => credit.uid),
  );
  const inviterOf = new Map<number, number | null>();
  const rewards: NewEventReward[] = [];
  for (const credit of credits) {
    const ownerId = owners.get(credit.uid);
    if (ownerId === undefined) continue;
    if (!inviterOf.has(ownerId)) inviterOf.set(ownerId, await activeInviterOf(tx, ownerId));
    const inviterId = inviterOf.get(ownerId);
    if (!inviterId) continue;
    const amountMicro = inviteBonusAmount(credit.amountMicro, percent);
    if (amountMicro === 0n) continue;
    rewards.push({
      userId: inviterId,
      kind: 'inviteBonus',
      amountMicro,
      sourceUserId: ownerId,
      rebateId: credit.rebateId,
      bonusPercent: percent,
      journalKey: `inviteBonus:${credit.rebateId}`,
      createdAt: now,
    });
  }
  return rewards;
}

/**
 * `rebates:settle` and the sync job: settles every exchange (or one), each in its own transaction
 * under its ledger lock. `onSettled` runs in that transaction when the exchange settled anything, so
 * what it writes (the command's audit entry) commits with the money or not at all.
 */
export async function settleRebates(
  deps: AppDeps,
  options: {
    platId?: number;
    /** With platId: settle this UID's records only (an operator re-settling one UID). */
    uid?: string;
    onSettled?: (tx: Transaction, platId: number, result: SettlementResult) => Promise<void>;
  } = {},
): Promise<SettlementResult & { byExchange: Map<number, SettlementResult> }> {
  const partners = await loadPartners(deps);
  const total = { ...noSettlement(), byExchange: new Map<number, SettlementResult>() };
  for (const partner of partners.values()) {
    if (options.platId !== undefined && partner.platId !== options.platId) continue;
    const now = deps.clock.now();
    const result = await deps.db.transaction(async (tx) => {
      await lockExchangeLedger(tx, partner.platId);
      const settled = await settleExchange(tx, deps, partner, now, options.uid);
      if (options.onSettled && settled.completed + settled.failed > 0) {
        await options.onSettled(tx, partner.platId, settled);
      }
      return settled;
    });
    total.byExchange.set(partner.platId, result);
    total.completed += result.completed;
    total.failed += result.failed;
    total.recovered += result.recovered;
    total.creditedMicro += result.creditedMicro;
    total.bonusMicro += result.bonusMicro;
  }
  return total;
}

/**
 * Settles one UID's records right after a live check added it to the roster, so records refused as
 * 'uidNotReferred' pay at once. A binding must not wait for a long import of the exchange: after
 * `waitMs` for the exchange's ledger lock it gives up and answers null; the import that held the lock
 * settles the UID at its end if it saw the roster line, and otherwise the next import, the sync or
 * `rebates:settle` does.
 */
export async function settleUidSoon(
  deps: AppDeps,
  platId: number,
  uid: string,
  waitMs = 2000,
): Promise<SettlementResult | null> {
  const partner = (await loadPartners(deps)).get(platId);
  if (!partner) return null;
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = ${Math.max(1, Math.floor(waitMs))}`));
      await lockExchangeLedger(tx, platId);
      return settleExchange(tx, deps, partner, deps.clock.now(), uid);
    });
  } catch (error) {
    if (isLockTimeout(error)) return null;
    throw error;
  }
}
