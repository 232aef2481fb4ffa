import {
  type BindingRefusal,
  CASHBACK,
  DECIMALS,
  type ExchangeBind,
  fromScaled,
  getAddress,
  State,
  type UidEligibility,
  type VerifyExchangeUidResponse,
} from '@elex/contract';
import type { SQL } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { isLiveOperator } from '../../read-models/live-operators.js';
import { importedFiguresOf, importedRosterOf } from '../../read-models/own-imports.js';
import {
  ingestReferrals,
  isReferred,
  lockExchangeLedger,
  settleUidSoon,
} from '../cashback/ingest.service.js';
import { loadPartners, type Partner } from '../cashback/partners.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import {
  deleteUidWatches,
  deleteXmeBinding,
  findBindingMember,
  findLiveBinding,
  findLiveBindingWithHistory,
  findXmeBinding,
  findXmeHolder,
  insertBindingUnlessTaken,
  insertUidWatch,
  type LiveBindingRow,
  lockXmeBindingRow,
  lockXmeUidInAnyCase,
  markOwnershipVerified,
  markUnbound,
  selectBindingRowsOfUser,
  selectLiveBindingsOfUser,
  type UnbindInput,
  upsertXmeBinding,
  volumeFromOf,
} from './bindings.repository.js';
import type { ExchangeBindingRow } from './bindings.tables.js';

export { ACCOUNT_DELETED_REASON, type LiveBindingRow } from './bindings.repository.js';
export type { ExchangeBindingRow } from './bindings.tables.js';

/** A partner that takes new bindings: a retired one refuses them (its UIDs keep their history). */
async function findPartner(deps: AppDeps, platId: number): Promise<Partner> {
  const partner = (await loadPartners(deps)).get(platId);
  if (!partner) throw new AppError(State.NotFound, 'exchangeNotFound');
  if (partner.retired) throw bindingRefused('exchangeRetired');
  return partner;
}

/**
 * A binding refusal that names its message key in the content too: the page tells 'not referred'
 * (its explanation page) from the other 1002 refusals by the key, not by the translated text.
 */
function bindingRefused(
  messageKey: BindingRefusal['messageKey'],
  values: Record<string, string | number> = {},
): AppError {
  const params: Record<string, string | number> =
    messageKey === 'uidNotYetListed' ? { hours: CASHBACK.rosterDelayHours } : values;
  return new AppError(State.Refused, messageKey, params, { messageKey });
}

/**
 * Whether a UID was referred with our code: 'referred' when the roster says so, or, for a UID the
 * roster does not know yet, when the exchange's affiliate API (an adapter configured for it) says so
 * live; a UID it confirms joins the roster (source 'api') and its waiting records settle at once.
 * 'notReferred' only when that live check says no. An exchange without a live check is fed by CSV
 * or sync: a UID it does not list may be one opened minutes ago, so it is 'notYetListed', not
 * "not referred" (CASHBACK.rosterDelayHours).
 */
async function referralOf(
  deps: AppDeps,
  partner: Partner,
  uid: string,
): Promise<'referred' | 'notReferred' | 'notYetListed'> {
  if (await isReferred(deps.db, partner.platId, uid)) return 'referred';
  const adapter =
    deps.exchangeAdapters?.get(partner.name.toLowerCase()) ??
    deps.exchangeAdapters?.get(partner.abbreviation.toLowerCase());
  if (!adapter) return 'notYetListed';
  let referral: Awaited<ReturnType<typeof adapter.checkReferral>>;
  try {
    referral = await adapter.checkReferral(uid);
  } catch {
    // The exchange did not answer: we cannot tell, so we say so rather than "not referred".
    throw bindingRefused('exchangeUnavailable');
  }
  if (!referral) return 'notReferred';
  const now = deps.clock.now();
  // An exchange clock a little ahead must not make the roster refuse a registration "in the future".
  const registeredAt = referral.registeredAt.getTime() > now.getTime() ? now : referral.registeredAt;
  const { inserted } = await ingestReferrals(
    deps,
    partner.platId,
    [{ uid, registeredAt }],
    { kind: 'api', label: `checkReferral:${adapter.exchange}` },
    { settle: false },
  );
  if (inserted > 0) await settleUidSoon(deps, partner.platId, uid);
  return 'referred';
}

/** /elex/user/verifyExchangeUid: what binding this UID would answer, for a visitor or a member. */
export async function uidEligibility(
  deps: AppDeps,
  input: { platId: number; uid: string },
  userId: number | null,
): Promise<VerifyExchangeUidResponse> {
  const partner = await findPartner(deps, input.platId);
  const binding = await findLiveBinding(deps.db, input.platId, input.uid);
  let eligibility: UidEligibility;
  if (binding) eligibility = binding.userId === userId ? 'boundToYou' : 'boundToOther';
  else {
    const referral = await referralOf(deps, partner, input.uid);
    eligibility = referral === 'referred' ? 'eligible' : referral;
  }
  return { platId: input.platId, uid: input.uid, eligibility };
}

/**
 * /elex/user/bindExchangeUid. Refusals: 'uidAlreadyBound' (to anyone, the caller included: one live
 * binding per UID), 'uidNotReferred'. Of two members binding one UID at once exactly one wins; the
 * other hears 'uidAlreadyBound'. The address is stored EIP-55 checksummed.
 */
export async function bindExchangeUid(
  deps: AppDeps,
  userId: number,
  input: { platId: number; uid: string; address: string },
): Promise<ExchangeBind> {
  const partner = await findPartner(deps, input.platId);
  const address = getAddress(input.address);
  if (await findLiveBinding(deps.db, input.platId, input.uid)) throw bindingRefused('uidAlreadyBound');
  const referral = await referralOf(deps, partner, input.uid);
  if (referral === 'notReferred') throw bindingRefused('uidNotReferred');
  if (referral === 'notYetListed') {
    // Mailed when the UID joins the roster (notifyListedUids), instead of leaving the member to check.
    await insertUidWatch(deps.db, {
      userId,
      platId: input.platId,
      uid: input.uid,
      createdAt: deps.clock.now(),
    });
    throw bindingRefused('uidNotYetListed');
  }
  const row = await deps.db.transaction(async (tx) => {
    // An operator's bind waits for an import of the exchange in flight (it holds this lock to its
    // commit), so figures they are importing now are seen below, and an import after sees the binding.
    if (await isLiveOperator(tx, userId)) await lockExchangeLedger(tx, input.platId);
    // Figures the binder imported themselves would pay them what they alone decided: the UID's
    // balance passes to its holder (bindOwnImport; importOwnUid refuses the other order).
    if (await importedFiguresOf(tx, userId, input.platId, input.uid)) {
      throw bindingRefused('bindOwnImport', { uid: input.uid });
    }
    // So would a roster line of theirs that listed the UID first: it let the UID's records settle, at
    // the rate its registration time decides (bindOwnRoster; importOwnUid refuses the other order).
    if (await importedRosterOf(tx, userId, input.platId, input.uid)) {
      throw bindingRefused('bindOwnRoster', { uid: input.uid });
    }
    return insertBindingUnlessTaken(tx, {
      userId,
      platId: input.platId,
      uid: input.uid,
      address,
      boundAt: deps.clock.now(),
    });
  });
  if (!row) throw bindingRefused('uidAlreadyBound');
  const balance = await balanceOf(deps.db, accountCode.cashback(row.platId, row.uid));
  return {
    platId: row.platId,
    uid: row.uid,
    balance: fromScaled(balance, DECIMALS.usdt),
    address: row.address,
    boundAt: row.boundAt.toISOString(),
  };
}

/**
 * Ends a UID's binding (operator issue). The UID's cashback stays on `cashback:<platId>:<uid>` for its
 * next binding. Answers the binding it ended, or undefined when the UID was not bound.
 */
/** Ends the UID's live binding; with `holderId`, only while that member still holds it. */
export async function unbindUid(
  tx: Transaction,
  input: UnbindInput,
): Promise<ExchangeBindingRow | undefined> {
  return markUnbound(tx, input);
}

/**
 * The member's live bindings, oldest first, each with `historyFrom`: where the member's view of the
 * UID's records and totals starts (after an earlier holder deleted their account; null: all of it),
 * and `volumeFrom`: where the UID's trading starts to count for the member's trade tasks (after any
 * other member's binding of it ended, `tradeVolumeFromSql`).
 */
export function liveBindingsOf(db: Executor, userId: number): Promise<LiveBindingRow[]> {
  return selectLiveBindingsOfUser(db, userId);
}

/**
 * Where the UID's trading starts to count for the trade tasks of the holder of the binding `alias`
 * (an `exchange_bindings` row in the caller's statement), as SQL: the latest end of another member's
 * earlier binding of the UID (null: the whole history). The rule liveBindingsOf's `volumeFrom` reads,
 * for the read models that place it in their statements (the task list's member facts).
 */
export function tradeVolumeFromSql(alias: string): SQL {
  return volumeFromOf(alias);
}

/** The live binding of a UID, if any, with `historyFrom` and `volumeFrom` as in liveBindingsOf. */
export function liveBindingOf(
  db: Executor,
  platId: number,
  uid: string,
): Promise<LiveBindingRow | undefined> {
  return findLiveBindingWithHistory(db, platId, uid);
}

/** XME UIDs that differ only in case are one account (the contract's XME_UID_PATTERN). */
function sameXmeUid(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * /elex/user/bindXmeUid: links the member's XME account, replacing a previous one. An XME account
 * belongs to one member: another member's answers 'uidAlreadyBound'. Once the account earned the
 * binding task it is locked ('xmeBindingLocked'): swapping it would free it for another member to
 * bind and claim the task again.
 */
export async function bindXmeUid(deps: AppDeps, userId: number, xmeUid: string): Promise<{ xmeUid: string }> {
  const current = await findXmeBinding(deps.db, userId);
  if (current?.lockedAt) {
    if (!sameXmeUid(current.xmeUid, xmeUid)) throw AppError.refused('xmeBindingLocked');
    return { xmeUid: current.xmeUid };
  }
  let written: boolean;
  try {
    written = await deps.db.transaction(async (tx) => {
      // The unique index compares the id as written, the holder check in any letter case: two members
      // binding `abc` and `ABC` at once would both pass the check and both be written. Binds of one
      // id in any case take turns here, so the second finds the first's holder.
      await lockXmeUidInAnyCase(tx, xmeUid);
      const holder = await findXmeHolder(tx, xmeUid);
      if (holder !== undefined && holder !== userId) throw AppError.refused('uidAlreadyBound');
      return upsertXmeBinding(tx, { userId, xmeUid, boundAt: deps.clock.now() });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.refused('uidAlreadyBound');
    throw error;
  }
  if (!written) {
    // Nothing changed: the same UID again, or a claim locked the binding meanwhile.
    const now = await findXmeBinding(deps.db, userId);
    if (now && !sameXmeUid(now.xmeUid, xmeUid)) throw AppError.refused('xmeBindingLocked');
    return { xmeUid: now?.xmeUid ?? xmeUid };
  }
  return { xmeUid };
}

/** The member's XME account, or null (the points issue reads it). */
export async function xmeUidOf(db: Executor, userId: number): Promise<string | null> {
  return (await findXmeBinding(db, userId))?.xmeUid ?? null;
}

/**
 * The binding task's claim: locks the member's XME binding for good and answers its UID (null without
 * one). Inside the claim's transaction, so a claim that is refused leaves it unlocked.
 */
export async function lockXmeUid(tx: Transaction, userId: number, at: Date): Promise<string | null> {
  return (await lockXmeBindingRow(tx, userId, at)) ?? null;
}

/**
 * Account deletion (auth): erases the member's XME account id, in the deletion's transaction. Answers
 * whether there was one. A task it earned stays earned (the tasks module keeps which account did).
 */
export async function eraseXmeUid(tx: Transaction, userId: number): Promise<boolean> {
  return deleteXmeBinding(tx, userId);
}

/** Account deletion: the member's waits for UIDs go with the account. */
export async function forgetUidWatches(tx: Transaction, userId: number): Promise<void> {
  await deleteUidWatches(tx, userId);
}

/** Housekeeping: watches that ended (mailed, or waiting in vain) before a cutoff. */
export { deleteUidWatchesEndedBefore } from './bindings.repository.js';

export { ownershipHeldUntil } from './ownership-hold.js';

/** An operator confirmed the live binding's member owns the UID: its hold ends now. */
export function confirmOwnership(
  tx: Transaction,
  input: { platId: number; uid: string; operatorId: number; at: Date },
): Promise<ExchangeBindingRow | undefined> {
  return markOwnershipVerified(tx, input);
}

/**
 * The member a dispute was opened against: the member of the binding it names (`bindingId`), live or
 * ended; for a dispute older than that column, whoever held the UID when it was opened (`at`).
 */
export function disputedMemberOf(
  db: Executor,
  dispute: { bindingId: number | null; platId: number; uid: string; at: Date },
): Promise<number | undefined> {
  return findBindingMember(db, dispute);
}

/** The reason a binding ends when an operator moves it to the member who disputed it. */
const DISPUTE_MOVED_REASON = 'disputeMoved';

/**
 * A dispute decided for the claimant: the holder's binding ends and the claimant holds the UID, with
 * its balance (the cashback account is the UID's) and its ownership confirmed by the operator. In the
 * caller's transaction, which holds the UID's cashback account lock. Undefined when `fromUserId` no
 * longer holds the UID (nothing to move) or another binding won meanwhile.
 */
export async function moveBinding(
  tx: Transaction,
  input: {
    platId: number;
    uid: string;
    /** The member whose binding ends: only while they still hold the UID. */
    fromUserId: number;
    toUserId: number;
    address: string;
    operatorId: number;
    at: Date;
  },
): Promise<{ from: ExchangeBindingRow; to: ExchangeBindingRow } | undefined> {
  const from = await markUnbound(tx, {
    platId: input.platId,
    uid: input.uid,
    reason: DISPUTE_MOVED_REASON,
    operatorId: input.operatorId,
    at: input.at,
    holderId: input.fromUserId,
  });
  if (!from) return undefined;
  const to = await insertBindingUnlessTaken(tx, {
    userId: input.toUserId,
    platId: input.platId,
    uid: input.uid,
    address: getAddress(input.address),
    boundAt: input.at,
    ownershipVerifiedAt: input.at,
    ownershipVerifiedBy: input.operatorId,
  });
  if (!to) return undefined;
  return { from, to };
}

/** Every binding the member ever had, live first, then newest (the console's member view, corrections). */
export function bindingHistoryOfUser(db: Executor, userId: number) {
  return selectBindingRowsOfUser(db, userId);
}
