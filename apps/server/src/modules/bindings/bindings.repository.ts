import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { chunks, rowsOf } from '../../db/rows.js';
import { type ExchangeBindingRow, exchangeBindings, uidWatches, xmeBindings } from './bindings.tables.js';

const live = isNull(exchangeBindings.unboundAt);

export async function findLiveBinding(
  db: Executor,
  platId: number,
  uid: string,
): Promise<ExchangeBindingRow | undefined> {
  const [row] = await db
    .select()
    .from(exchangeBindings)
    .where(and(eq(exchangeBindings.platId, platId), eq(exchangeBindings.uid, uid), live))
    .limit(1);
  return row;
}

/**
 * The reason a binding ends when its member deletes the account: the UID's balance is forfeited then
 * (terms s.8), so whatever the UID earned before belongs to a history the next holder does not see.
 */
export const ACCOUNT_DELETED_REASON = 'accountDeleted';

/**
 * A live binding, where its member's view of the UID's history starts (null: all of it), and where
 * the UID's trading starts to count for the member's trade tasks (null: all of it).
 */
export type LiveBindingRow = ExchangeBindingRow & { historyFrom: Date | null; volumeFrom: Date | null };

/**
 * When an earlier holder of the same UID deleted their account before this binding began: the latest
 * such moment. One correlated subquery, so a member's list needs no parameter per binding. The outer
 * row's columns are named with their table: drizzle writes a column of a one-table select without it,
 * and inside the subquery a bare "plat_id" is `earlier`'s own (found 2026-11-29: the subquery compared
 * each earlier binding with itself, so the trade-task claims counted a deleted holder's volume).
 */
const historyFrom = sql<Date | string | null>`(
  select max(earlier.unbound_at) from exchange_bindings earlier
  where earlier.plat_id = exchange_bindings.plat_id and earlier.uid = exchange_bindings.uid
    and earlier.unbind_reason = ${ACCOUNT_DELETED_REASON}
    and earlier.unbound_at <= exchange_bindings.bound_at)`;

/**
 * Where the UID's trading starts to count for the trade tasks of the member holding the binding
 * `binding` (the alias, or table name, of an `exchange_bindings` row in the statement): the latest end
 * of an earlier binding of the UID held by ANOTHER member, ended by this binding's start; null when
 * there is none (the UID's whole history counts). The one text of that rule: the claim reads it through
 * liveBindingsOf, the task list (read-models/member-task-facts.ts) gets it from the tasks service.
 *
 * Every record counted for a holder's tiers while they held the UID (volume counts whatever the
 * status) was imported before their binding ended; the next member counts those imported after it
 * (cashback's volumeRecords), so a tier is never paid twice on the same trades: not after a deletion
 * (the same trader under a new e-mail), not after an operator's move or unbind (the squatter paid on
 * the owner's volume, then the owner). The member's own earlier bindings of the UID do not cut it:
 * a member's tiers are paid once whatever they count. Found in review, 2026-11-30 (decisions).
 */
export function volumeFromOf(binding: string): SQL {
  const b = sql.raw(binding);
  return sql`(select max(earlier.unbound_at) from exchange_bindings earlier
    where earlier.plat_id = ${b}.plat_id and earlier.uid = ${b}.uid
      and earlier.user_id <> ${b}.user_id and earlier.unbound_at <= ${b}.bound_at)`;
}

/** In the bindings' own one-table selects the outer row is named by its table (see historyFrom). */
const volumeFrom = sql<Date | string | null>`${volumeFromOf('exchange_bindings')}`;

const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));
const liveRow = (row: {
  binding: ExchangeBindingRow;
  historyFrom: Date | string | null;
  volumeFrom: Date | string | null;
}): LiveBindingRow => ({
  ...row.binding,
  historyFrom: asDate(row.historyFrom),
  volumeFrom: asDate(row.volumeFrom),
});

export async function selectLiveBindingsOfUser(db: Executor, userId: number): Promise<LiveBindingRow[]> {
  const rows = await db
    .select({ binding: exchangeBindings, historyFrom, volumeFrom })
    .from(exchangeBindings)
    .where(and(eq(exchangeBindings.userId, userId), live))
    .orderBy(asc(exchangeBindings.boundAt), asc(exchangeBindings.id));
  return rows.map(liveRow);
}

/** The live binding of a UID with where its holder's view of the history starts. */
export async function findLiveBindingWithHistory(
  db: Executor,
  platId: number,
  uid: string,
): Promise<LiveBindingRow | undefined> {
  const [row] = await db
    .select({ binding: exchangeBindings, historyFrom, volumeFrom })
    .from(exchangeBindings)
    .where(and(eq(exchangeBindings.platId, platId), eq(exchangeBindings.uid, uid), live))
    .limit(1);
  return row && liveRow(row);
}

export interface LiveOwner {
  userId: number;
  bindingId: number;
  boundAt: Date;
  ownershipVerifiedAt: Date | null;
}

export async function selectLiveOwners(
  db: Executor,
  platId: number,
  uids: readonly string[],
): Promise<Map<string, LiveOwner>> {
  const owners = new Map<string, LiveOwner>();
  // In chunks: a settlement asks about every UID it credits, which can pass PostgreSQL's 65,535
  // parameters a statement (issue 13).
  for (const part of chunks([...new Set(uids)])) {
    const rows = await db
      .select({
        uid: exchangeBindings.uid,
        userId: exchangeBindings.userId,
        bindingId: exchangeBindings.id,
        boundAt: exchangeBindings.boundAt,
        ownershipVerifiedAt: exchangeBindings.ownershipVerifiedAt,
      })
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.platId, platId), inArray(exchangeBindings.uid, part), live));
    for (const { uid, ...owner } of rows) owners.set(uid, owner);
  }
  return owners;
}

/** When the latest binding of any of these UIDs ended (null when none has ended). */
export async function selectLastBindingEnd(
  db: Executor,
  platId: number,
  uids: readonly string[],
): Promise<Date | null> {
  let last: Date | null = null;
  for (const part of chunks([...new Set(uids)])) {
    const [row] = await db
      .select({ ended: sql<Date | string | null>`max(${exchangeBindings.unboundAt})` })
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.platId, platId), inArray(exchangeBindings.uid, part)));
    const ended = asDate(row?.ended ?? null);
    if (ended && (!last || ended > last)) last = ended;
  }
  return last;
}

/**
 * Inserts a live binding unless the UID has one: the partial unique index decides a race, so of two
 * members binding one UID at once exactly one row is written. Undefined when the UID was taken.
 *
 * The binding never starts before an earlier binding of the UID ended (found in review,
 * 2026-11-29): the previous holder's deletion may carry a later time than this insert's clock
 * (another instance whose clock is behind, a clock set back), and where the new holder's history
 * starts is read from those times (`historyFrom`: the deletions that ended by the start). The start
 * is moved up by a second statement: the insert could only go in once that binding's end had
 * committed (the unique index waits for it), so this statement sees it, where the insert's own
 * snapshot may not. In a transaction, so that nobody reads the binding with its earlier start.
 */
export async function insertBindingUnlessTaken(
  tx: Transaction,
  binding: {
    userId: number;
    platId: number;
    uid: string;
    address: string;
    boundAt: Date;
    ownershipVerifiedAt?: Date;
    ownershipVerifiedBy?: number;
  },
): Promise<ExchangeBindingRow | undefined> {
  const [row] = await tx
    .insert(exchangeBindings)
    .values(binding)
    .onConflictDoNothing({
      target: [exchangeBindings.platId, exchangeBindings.uid],
      where: sql`${exchangeBindings.unboundAt} is null`,
    })
    .returning();
  if (!row) return undefined;
  const [moved] = await tx
    .update(exchangeBindings)
    .set({ boundAt: sql`${previousEnd(row)}` })
    .where(and(eq(exchangeBindings.id, row.id), sql`${exchangeBindings.boundAt} < ${previousEnd(row)}`))
    .returning();
  return moved ?? row;
}

/** The latest end of the UID's other bindings (null when none ended). */
const previousEnd = (row: ExchangeBindingRow) => sql`(
  select max(earlier.unbound_at) from exchange_bindings earlier
  where earlier.plat_id = ${row.platId} and earlier.uid = ${row.uid} and earlier.id <> ${row.id})`;

export interface UnbindInput {
  platId: number;
  uid: string;
  reason: string;
  operatorId: number | null;
  at: Date;
  /** Ends the binding only while this member holds it. */
  holderId?: number | undefined;
}

export async function markUnbound(tx: Executor, input: UnbindInput): Promise<ExchangeBindingRow | undefined> {
  const held = input.holderId === undefined ? undefined : eq(exchangeBindings.userId, input.holderId);
  const [row] = await tx
    .update(exchangeBindings)
    .set({
      // Never before the binding began: an instance whose clock is behind the binder's would otherwise
      // end it before its start (ledger:check invariant 9), and the UID's next binding, which starts
      // after this end, would reach back over the cut.
      unboundAt: sql`greatest(${input.at.toISOString()}::timestamptz, ${exchangeBindings.boundAt})`,
      unbindReason: input.reason,
      unboundBy: input.operatorId,
    })
    .where(and(eq(exchangeBindings.platId, input.platId), eq(exchangeBindings.uid, input.uid), live, held))
    .returning();
  return row;
}

export async function findXmeBinding(db: Executor, userId: number) {
  const [row] = await db.select().from(xmeBindings).where(eq(xmeBindings.userId, userId)).limit(1);
  return row;
}

/** Who holds this XME account; UIDs that differ only in case are one account. */
export async function findXmeHolder(db: Executor, xmeUid: string): Promise<number | undefined> {
  const [row] = await db
    .select({ userId: xmeBindings.userId })
    .from(xmeBindings)
    .where(sql`lower(${xmeBindings.xmeUid}) = lower(${xmeUid})`)
    .limit(1);
  return row?.userId;
}

/**
 * Links the member to an XME account, replacing their previous one unless that one is locked. Another
 * member holding the XME account makes the unique index on xme_uid refuse it (a unique violation the
 * caller turns into a refusal). False when nothing was written (the same UID, or a locked binding).
 */
/** A transaction-scoped lock on an XME id in any letter case (released at commit or rollback). */
export async function lockXmeUidInAnyCase(tx: Executor, xmeUid: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`xme:${xmeUid.toLowerCase()}`}))`);
}

export async function upsertXmeBinding(
  db: Executor,
  binding: { userId: number; xmeUid: string; boundAt: Date },
): Promise<boolean> {
  const written = await db
    .insert(xmeBindings)
    .values(binding)
    .onConflictDoUpdate({
      target: xmeBindings.userId,
      set: { xmeUid: binding.xmeUid, boundAt: binding.boundAt },
      setWhere: sql`${xmeBindings.xmeUid} is distinct from ${binding.xmeUid} and ${xmeBindings.lockedAt} is null`,
    })
    .returning({ userId: xmeBindings.userId });
  return written.length > 0;
}

/**
 * Locks the member's XME binding (kept if already locked) and answers its UID, or undefined without
 * one. The row lock it takes makes a concurrent change wait for the locking transaction.
 */
export async function lockXmeBindingRow(tx: Executor, userId: number, at: Date): Promise<string | undefined> {
  const [row] = await tx
    .update(xmeBindings)
    .set({ lockedAt: sql`coalesce(${xmeBindings.lockedAt}, ${at.toISOString()}::timestamptz)` })
    .where(eq(xmeBindings.userId, userId))
    .returning({ xmeUid: xmeBindings.xmeUid });
  return row?.xmeUid;
}

/**
 * Account deletion: the member's XME link goes. Only `task_payouts` still names the XME UID, if it
 * earned the binding task (kept so it can never earn it twice; the privacy policy says so).
 */
export async function deleteXmeBinding(tx: Executor, userId: number): Promise<boolean> {
  const deleted = await tx
    .delete(xmeBindings)
    .where(eq(xmeBindings.userId, userId))
    .returning({ userId: xmeBindings.userId });
  return deleted.length > 0;
}

/**
 * Remembers that a member waits for a UID to join the roster (once per member and UID). Trying again
 * restarts a wait not yet answered, so housekeeping counts its 30 days from the member's latest try.
 */
export async function insertUidWatch(
  db: Executor,
  watch: { userId: number; platId: number; uid: string; createdAt: Date },
): Promise<void> {
  await db
    .insert(uidWatches)
    .values(watch)
    .onConflictDoUpdate({
      target: [uidWatches.userId, uidWatches.platId, uidWatches.uid],
      set: { createdAt: watch.createdAt },
      setWhere: isNull(uidWatches.notifiedAt),
    });
}

/**
 * Marks as notified every waiting watch of an exchange whose UID is in the roster now, and answers
 * them (one set-based statement: no parameter per UID, whatever the roster's size).
 */
export async function markListedWatches(
  tx: Executor,
  platId: number,
  at: Date,
): Promise<Array<{ userId: number; uid: string }>> {
  const result = await tx.execute(sql`
    update uid_watches w set notified_at = ${at.toISOString()}::timestamptz
    from referrals r
    where w.plat_id = ${platId} and w.notified_at is null and r.plat_id = w.plat_id and r.uid = w.uid
    returning w.user_id, w.uid`);
  return rowsOf<{ user_id: string | number; uid: string }>(result).map((row) => ({
    userId: Number(row.user_id),
    uid: row.uid,
  }));
}

/**
 * Housekeeping, in bounded batches: watches whose member was mailed before `cutoff`, and watches still
 * waiting since before it (a mistyped UID, or an account not opened through our link, waits forever).
 */
export async function deleteUidWatchesEndedBefore(
  db: Executor,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const rows = rowsOf<{ user_id: string | number }>(
    await db.execute(sql`
      delete from uid_watches where (user_id, plat_id, uid) in (
        select user_id, plat_id, uid from uid_watches
        where coalesce(notified_at, created_at) < ${cutoff.toISOString()}::timestamptz
        limit ${limit}
        for update skip locked)
      returning user_id`),
  );
  return rows.length;
}

/** Account deletion: the member's waits go with the account. */
export async function deleteUidWatches(tx: Executor, userId: number): Promise<void> {
  await tx.delete(uidWatches).where(eq(uidWatches.userId, userId));
}

/** Records that an operator confirmed the live binding's member as the UID's owner. */
export async function markOwnershipVerified(
  tx: Executor,
  input: { platId: number; uid: string; operatorId: number; at: Date },
): Promise<ExchangeBindingRow | undefined> {
  const [row] = await tx
    .update(exchangeBindings)
    .set({ ownershipVerifiedAt: input.at, ownershipVerifiedBy: input.operatorId })
    .where(and(eq(exchangeBindings.platId, input.platId), eq(exchangeBindings.uid, input.uid), live))
    .returning();
  return row;
}

/**
 * The member of a binding, live or ended (`bindingId`); without one, the member whose binding was live
 * at `at` (a dispute older than `support_requests.binding_id`). Undefined when there was none.
 */
export async function findBindingMember(
  db: Executor,
  input: { bindingId: number | null; platId: number; uid: string; at: Date },
): Promise<number | undefined> {
  const which =
    input.bindingId !== null
      ? eq(exchangeBindings.id, input.bindingId)
      : and(
          eq(exchangeBindings.platId, input.platId),
          eq(exchangeBindings.uid, input.uid),
          sql`${exchangeBindings.boundAt} <= ${input.at}`,
          sql`(${exchangeBindings.unboundAt} is null or ${exchangeBindings.unboundAt} > ${input.at})`,
        );
  const [row] = await db
    .select({ userId: exchangeBindings.userId })
    .from(exchangeBindings)
    .where(which)
    .orderBy(desc(exchangeBindings.boundAt))
    .limit(1);
  return row?.userId;
}

/** Every binding the member ever had, live first, then newest. */
export async function selectBindingRowsOfUser(db: Executor, userId: number) {
  return db
    .select()
    .from(exchangeBindings)
    .where(eq(exchangeBindings.userId, userId))
    .orderBy(sql`${exchangeBindings.unboundAt} is not null`, desc(exchangeBindings.boundAt));
}
