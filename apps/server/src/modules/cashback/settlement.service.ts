import type { SQL } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isLockTimeout, isUniqueViolation, violatedConstraint } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { activeInvitersOf } from '../auth/auth.service.js';
import { creditStampOf, liveOwnersOf } from '../bindings/uid-owners.js';
import { waitForLocksAtMost } from '../ledger/account-lock-wait.js';
import { accountCode, holdAccounts, postJournals } from '../ledger/ledger.service.js';
import { openDisputesOf } from '../support/frozen.js';
import {
  applySettlementPage,
  decidedPageOf,
  decideSettlementPage,
  type InvitedUid,
  insertPageEventRewards,
  insertSettledPage,
  lockExchangeLedger,
  numberDueRecords,
  pageInviteBonuses,
  type SettlementPage,
  type SettlementRuleSql,
} from './cashback.repository.js';
import type { IngestSourceKind } from './cashback.tables.js';
import { loadPartners, type Partner } from './partners.js';
import { inviteBonusSql, rebateRuleSql } from './rebate-rule.js';

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

/** Adds `more` into `total`. */
export function addSettlement(total: SettlementResult, more: SettlementResult): void {
  total.completed += more.completed;
  total.failed += more.failed;
  total.recovered += more.recovered;
  total.creditedMicro += more.creditedMicro;
  total.bonusMicro += more.bonusMicro;
}

/**
 * Settles the due records of one exchange inside the caller's transaction, which holds the exchange's
 * ledger lock. A record is due when its period ended SETTLEMENT_DELAY_HOURS ago; then:
 * - its UID is in the roster: commission 0 fails it ('noCommission'); otherwise it completes with the
 *   rule's amount, credited commission:<platId> -> cashback:<platId>:<uid>, and the invite bonus of the
 *   UID's current member's inviter, rewards-expense -> rewards:<inviterId>, in this same transaction;
 * - its UID is not in the roster REFERRAL_GRACE_DAYS after the period ended: fails ('uidNotReferred');
 * - otherwise it stays pending.
 * A record that failed as 'uidNotReferred' is decided again as soon as its UID is in the roster (a
 * roster that arrived late never loses the cashback). `scope.uid` settles that one UID only.
 * The due records are numbered by UID first and settled a page of `scope.pageSize` at a time in that
 * order: a UID's records fall in one page (two at a boundary), one journal a page paying them.
 */
export async function settleExchange(
  tx: Transaction,
  deps: AppDeps,
  partner: Partner,
  now: Date,
  scope: { uid?: string; pageSize?: number } = {},
): Promise<SettlementResult> {
  const result = noSettlement();
  const { endedBy, graceEndedBy } = settlementMoments(deps, now);
  const due = await numberDueRecords(tx, { platId: partner.platId, endedBy, uid: scope.uid });
  const pageSize = scope.pageSize ?? SETTLEMENT_PAGE;
  for (let from = 0; from < due; from += pageSize) {
    const page = await decideSettlementPage(tx, {
      platId: partner.platId,
      from,
      to: from + pageSize,
      graceEndedBy,
      rule: ruleOf(partner),
    });
    if (page.decided === 0) continue;
    await creditPage(tx, deps, partner.platId, now, page, result, async (journals, at) => {
      const moved = await applySettlementPage(tx, journals, at);
      if (moved !== page.decided) throw new Error('a rebate record changed during settlement');
    });
  }
  return result;
}

/** Why an import stops when a page finds one of its keys stored (no path stores one meanwhile). */
const STORED_MEANWHILE = 'a rebate record of the same period was stored during the import';

/** Records settled a round: a million-record import settles in pages, holding one at a time. */
export const SETTLEMENT_PAGE = 20_000;

/**
 * Stores a page of an import's rows `from < n <= to` (at most a settlement page), decided already in
 * the table `decided` (decideStagedFile): a due record is written once, completed or failed, with its
 * journal, instead of written pending and rewritten (issue 14); rows not due yet are stored pending.
 * The caller left out the keys stored already. In the import's transaction, under the exchange's
 * ledger lock. Answers how many rows were stored.
 */
export async function storeSettledRows(
  tx: Transaction,
  deps: AppDeps,
  partner: Partner,
  now: Date,
  staged: {
    decided: SQL;
    from: number;
    to: number;
    source: { kind: IngestSourceKind; label: string };
    /** The import run the rows are stored under (import_runs; null: none). */
    importRunId: number | null;
  },
  result: SettlementResult,
): Promise<number> {
  const page = await decidedPageOf(tx, staged);
  if (page.rows === 0) return 0;
  await creditPage(tx, deps, partner.platId, now, page, result, async (journals, at) => {
    // A plain insert: the exchange's ledger lock and the keys left out before make a clash
    // impossible, and `on conflict do nothing` cost a fifth of the statement (docs/decisions.md,
    // "The import stores its records without a conflict clause"). Should one happen all the same,
    // the import stops as the count check below would have stopped it.
    const stored = await insertSettledPage(tx, { platId: partner.platId, ...staged, journals, at }).catch(
      (error: unknown) => {
        // The natural key only: a clash on the id (a sequence set back by a restore) is another fault.
        if (isUniqueViolation(error) && violatedConstraint(error) === 'rebates_natural_key_unique') {
          throw new Error(STORED_MEANWHILE, { cause: error });
        }
        throw error;
      },
    );
    if (stored !== page.rows) throw new Error(STORED_MEANWHILE);
  });
  return page.rows;
}

/** The decision moments and the exchange's rule, for an import deciding its file (decideStagedFile). */
export function importRuleOf(
  deps: AppDeps,
  partner: Partner,
  now: Date,
): { endedBy: Date; graceEndedBy: Date; rule: SettlementRuleSql } {
  return { ...settlementMoments(deps, now), rule: ruleOf(partner) };
}

/** When records are due (their period ended the settlement delay ago) and when the roster's grace ends. */
function settlementMoments(deps: AppDeps, now: Date): { endedBy: Date; graceEndedBy: Date } {
  return {
    endedBy: new Date(now.getTime() - deps.config.settlementDelayHours * HOUR_MS),
    graceEndedBy: new Date(now.getTime() - REFERRAL_GRACE_DAYS * 24 * HOUR_MS),
  };
}

/** The exchange's rule as SQL. */
function ruleOf(partner: Partner): SettlementRuleSql {
  return (columns) =>
    rebateRuleSql({
      ...columns,
      cashRateBps: partner.cashRateBps,
      speedUpCashRateBps: partner.speedUpCashRateBps,
    });
}

/**
 * The ledger's side of a decided page, then its records: one journal per UID carries the cashback of
 * its records (commission -> the UID), one per inviter the invite bonuses the page earns them
 * (rewards-expense -> the inviter), and each record names its journal. A journal is named by the
 * smallest record id it pays for ('rebate:<id>', 'inviteBonus:<id>'): a record settles once, so no
 * name comes twice.
 */
async function creditPage(
  tx: Transaction,
  deps: AppDeps,
  platId: number,
  now: Date,
  page: SettlementPage,
  result: SettlementResult,
  writeRecords: (journals: Array<{ uid: string; journalId: number }>, at: Date) => Promise<void>,
): Promise<void> {
  // The UIDs' accounts held first (in code order, as the posting takes them), then the page's time
  // read: never before a binding of theirs ended (creditStampOf), so a credit that waited for a
  // holder's deletion is stamped after its cut, records, journals and bonuses alike.
  const uids = page.credits.map((credit) => credit.uid);
  await holdAccounts(
    tx,
    uids.map((uid) => accountCode.cashback(platId, uid)),
    now,
  );
  const at = uids.length > 0 ? await creditStampOf(tx, platId, uids, now) : now;
  const posted = await postJournals(
    tx,
    page.credits.map((credit) => ({
      kind: 'rebate',
      key: `rebate:${credit.firstRebateId}`,
      at,
      memo: `${credit.records} ${credit.records === 1 ? 'record' : 'records'}`,
      lines: [
        { account: accountCode.commission(platId), amount: -credit.amountMicro },
        { account: accountCode.cashback(platId, credit.uid), amount: credit.amountMicro },
      ],
    })),
  );
  if (posted.some((journal) => !journal.created)) throw new Error('a rebate journal was booked before');
  await writeRecords(
    page.credits.map((credit, n) => ({ uid: credit.uid, journalId: posted[n]?.journalId as number })),
    at,
  );
  const bonusMicro = await payInviteBonuses(tx, deps, platId, page, at);

  result.completed += page.completed;
  result.failed += page.failed;
  result.recovered += page.recovered;
  result.creditedMicro += page.credits.reduce((sum, credit) => sum + credit.amountMicro, 0n);
  result.bonusMicro += bonusMicro;
}

/**
 * The invite bonuses a page's credits earn: the member who holds the UID now, if that member was
 * invited by a member whose account still exists, earns the inviter INVITE_BONUS_PERCENT of each
 * record's cashback, floored per record. One event reward per record (what the inviter sees), one
 * journal per inviter (their sum). Answers the sum paid.
 */
async function payInviteBonuses(
  tx: Transaction,
  deps: AppDeps,
  platId: number,
  page: SettlementPage,
  now: Date,
): Promise<bigint> {
  const { credits } = page;
  const percent = deps.config.inviteBonusPercent;
  if (credits.length === 0 || percent === 0) return 0n;
  const owners = await liveOwnersOf(
    tx,
    platId,
    credits.map((credit) => credit.uid),
    now,
  );
  const ownerIds = [...owners.values()].map((owner) => owner.userId);
  const candidates = await activeInvitersOf(tx, ownerIds);
  if (candidates.size === 0) return 0n;
  // The inviters' rewards accounts held first (with rewards-expense, the order the bonus journals
  // lock them in), then the inviters read again: an account deletion holds the rewards account while
  // it forfeits it, so one that committed meanwhile is seen here and its member earns nothing more,
  // instead of a bonus landing on a deleted account after the forfeit (found in review, 2026-11-29).
  await holdAccounts(
    tx,
    [accountCode.rewardsExpense, ...new Set([...candidates.values()].map((id) => accountCode.rewards(id)))],
    now,
  );
  const inviterOf = await activeInvitersOf(tx, ownerIds);
  const invited: InvitedUid[] = [];
  for (const [uid, owner] of owners) {
    const inviterId = inviterOf.get(owner.userId);
    if (inviterId) {
      invited.push({
        uid,
        ownerId: owner.userId,
        inviterId,
        bindingId: owner.bindingId,
        holdEndsAt: owner.holdEndsAt?.toISOString() ?? null,
      });
    }
  }
  const perRecord = (cashback: SQL) => inviteBonusSql(cashback, percent);
  const bonuses = await pageInviteBonuses(tx, page.source, invited, perRecord);
  if (bonuses.length === 0) return 0n;
  const keyOf = new Map(bonuses.map((bonus) => [bonus.inviterId, `inviteBonus:${bonus.firstRebateId}`]));
  await postJournals(
    tx,
    bonuses.map((bonus) => ({
      kind: 'inviteBonus',
      key: keyOf.get(bonus.inviterId) as string,
      at: now,
      lines: [
        { account: accountCode.rewardsExpense, amount: -bonus.amountMicro },
        { account: accountCode.rewards(bonus.inviterId), amount: bonus.amountMicro },
      ],
    })),
  );
  // Under the UIDs' cashback account locks (taken by the credits above), which opening a dispute
  // takes too: a dispute committed before is seen here, one committing later comes after these bonuses.
  const disputes = await openDisputesOf(
    tx,
    platId,
    invited.map((entry) => entry.uid),
  );
  await insertPageEventRewards(
    tx,
    page.source,
    invited.flatMap((entry) => {
      const journalKey = keyOf.get(entry.inviterId);
      return journalKey ? [{ ...entry, journalKey, disputeIds: disputes.get(entry.uid) ?? null }] : [];
    }),
    { percent, perRecord },
    now,
  );
  return bonuses.reduce((sum, bonus) => sum + bonus.amountMicro, 0n);
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
      const settled = await settleExchange(tx, deps, partner, now, { uid: options.uid });
      if (options.onSettled && settled.completed + settled.failed > 0) {
        await options.onSettled(tx, partner.platId, settled);
      }
      return settled;
    });
    total.byExchange.set(partner.platId, result);
    addSettlement(total, result);
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
      await waitForLocksAtMost(tx, waitMs);
      await lockExchangeLedger(tx, platId);
      return settleExchange(tx, deps, partner, deps.clock.now(), { uid });
    });
  } catch (error) {
    if (isLockTimeout(error)) return null;
    throw error;
  }
}
