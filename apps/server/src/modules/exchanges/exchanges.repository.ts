import { asc, count, eq, max, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { nextVersion } from '../../db/row-version.js';
import { rowsOf } from '../../db/rows.js';
import { exchangeActivities, exchanges, exchangeVipTiers, publicStatistics } from './exchanges.tables.js';

export type ExchangeRow = typeof exchanges.$inferSelect;
export type NewExchange = typeof exchanges.$inferInsert;
export type VipTierRow = typeof exchangeVipTiers.$inferSelect;
export type NewVipTier = Omit<typeof exchangeVipTiers.$inferInsert, 'id' | 'exchangeId' | 'position'>;
export type ActivityRow = typeof exchangeActivities.$inferSelect;
export type NewActivity = Omit<typeof exchangeActivities.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Everything the public pages show, in catalog order: three queries, whatever the catalog size. */
export async function selectCatalog(db: Executor) {
  // One after another: inside a transaction a driver connection runs one query at a time anyway.
  const exchangeRows = await db.select().from(exchanges).orderBy(asc(exchanges.position), asc(exchanges.id));
  const tierRows = await db
    .select()
    .from(exchangeVipTiers)
    .orderBy(asc(exchangeVipTiers.exchangeId), asc(exchangeVipTiers.position));
  const activityRows = await db
    .select()
    .from(exchangeActivities)
    .orderBy(asc(exchangeActivities.position), asc(exchangeActivities.id));
  return { exchangeRows, tierRows, activityRows };
}

export async function countExchanges(db: Executor): Promise<number> {
  const [row] = await db.select({ value: count() }).from(exchanges);
  return row?.value ?? 0;
}

/**
 * One partner's row, held `FOR NO KEY UPDATE` until the transaction ends: two edits or status changes
 * of it go in turn, while the inserts that name the partner (an import's records, a binding, a sync
 * run: each holds `FOR KEY SHARE` on it until it commits) neither wait for an edit nor make it wait.
 * Not `FOR UPDATE`: that would queue a console edit behind a minutes-long import and protect nothing
 * here (the row's key never changes and partners are never deleted; docs/decisions.md).
 */
export async function lockExchangeRow(tx: Executor, id: number): Promise<ExchangeRow | undefined> {
  const [row] = await tx.select().from(exchanges).where(eq(exchanges.id, id)).limit(1).for('no key update');
  return row;
}

/** The next free platId and the position after the last partner (a new one goes to the end). */
export async function nextExchangeSlot(db: Executor): Promise<{ id: number; position: number }> {
  const [row] = await db.select({ id: max(exchanges.id), position: max(exchanges.position) }).from(exchanges);
  return { id: (row?.id ?? 0) + 1, position: (row?.position ?? 0) + 1 };
}

/** Inserts an exchange unless its id is taken; answers whether it was inserted. */
export async function insertExchangeUnlessPresent(tx: Executor, exchange: NewExchange): Promise<boolean> {
  const inserted = await tx
    .insert(exchanges)
    .values(exchange)
    .onConflictDoNothing({ target: exchanges.id })
    .returning({ id: exchanges.id });
  return inserted.length > 0;
}

export async function updateExchangeRow(
  tx: Executor,
  id: number,
  patch: Partial<Omit<NewExchange, 'id' | 'createdAt'>>,
): Promise<boolean> {
  const { updatedAt, ...rest } = patch;
  const updated = await tx
    .update(exchanges)
    .set({
      ...rest,
      // The console's editor sends `updatedAt` back to prove it saw the latest version.
      ...(updatedAt ? { updatedAt: nextVersion(exchanges.updatedAt, updatedAt) } : {}),
    })
    .where(eq(exchanges.id, id))
    .returning({ id: exchanges.id });
  return updated.length > 0;
}

/** Replaces the whole VIP table of an exchange, keeping the order given. */
export async function replaceVipTierRows(tx: Executor, exchangeId: number, tiers: readonly NewVipTier[]) {
  await tx.delete(exchangeVipTiers).where(eq(exchangeVipTiers.exchangeId, exchangeId));
  if (tiers.length === 0) return;
  await tx
    .insert(exchangeVipTiers)
    .values(tiers.map((tier, position) => ({ ...tier, exchangeId, position })));
}

/** Adds activities; their first version is `now` (the database's clock when absent: the seed). */
export async function insertActivityRows(tx: Executor, activities: readonly NewActivity[], now?: Date) {
  if (activities.length === 0) return [];
  return tx
    .insert(exchangeActivities)
    .values(activities.map((activity) => (now ? { ...activity, updatedAt: now } : activity)))
    .returning();
}

export async function deleteActivityRow(tx: Executor, id: number): Promise<boolean> {
  const deleted = await tx
    .delete(exchangeActivities)
    .where(eq(exchangeActivities.id, id))
    .returning({ id: exchangeActivities.id });
  return deleted.length > 0;
}

/** One activity's row, held until the transaction ends (nothing references it, so no import waits). */
export async function lockActivityRow(tx: Executor, id: number): Promise<ActivityRow | undefined> {
  const [row] = await tx
    .select()
    .from(exchangeActivities)
    .where(eq(exchangeActivities.id, id))
    .limit(1)
    .for('no key update');
  return row;
}

export async function updateActivityRow(
  tx: Executor,
  id: number,
  patch: Partial<NewActivity>,
  now: Date,
): Promise<ActivityRow | undefined> {
  const [row] = await tx
    .update(exchangeActivities)
    .set({
      ...patch,
      updatedAt: nextVersion(exchangeActivities.updatedAt, now),
    })
    .where(eq(exchangeActivities.id, id))
    .returning();
  return row;
}

/**
 * What the exchanges paid us against the fees their traders paid, per exchange, for the records whose
 * period started since `since` (every status: a record refused as not referred still says what the
 * exchange pays). Read through `rebates_period_start_idx`; sums as text (numeric may pass 2^63).
 */
export async function sumFeesAndCommissionsSince(
  db: Executor,
  since: Date,
): Promise<Array<{ platId: number; feeMicro: bigint; commissionMicro: bigint }>> {
  const rows = rowsOf<{ plat_id: number | string; fee: string; commission: string }>(
    await db.execute(
      sql`select plat_id, sum(fee_micro)::text as fee, sum(commission_micro)::text as commission
          from rebates where period_start >= ${since} group by plat_id`,
    ),
  );
  return rows.map((row) => ({
    platId: Number(row.plat_id),
    feeMicro: BigInt(row.fee),
    commissionMicro: BigInt(row.commission),
  }));
}

/** The text the public statistics' advisory lock is taken on (one computation at a time per database). */
const STATISTICS_LOCK = 'public-statistics';

/**
 * Takes the public statistics' lock for the transaction: `wait` blocks until the process holding it
 * commits; otherwise answers at once whether it was free.
 */
export async function lockPublicStatistics(tx: Transaction, wait: boolean): Promise<boolean> {
  if (wait) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${STATISTICS_LOCK}, 0))`);
    return true;
  }
  const [row] = rowsOf<{ locked: boolean }>(
    await tx.execute(
      sql`select pg_try_advisory_xact_lock(hashtextextended(${STATISTICS_LOCK}, 0)) as locked`,
    ),
  );
  return row?.locked === true;
}

/** The stored public statistics, as written (their `figures` unread), or undefined when none are. */
export async function selectPublicStatistics(db: Executor) {
  const [row] = await db.select().from(publicStatistics).where(eq(publicStatistics.id, 1));
  return row;
}

/** Stores the figures just computed in place of the last ones (the caller holds the lock). */
export async function storePublicStatistics(
  tx: Transaction,
  row: { exchanges: string; computedAt: Date; figures: unknown },
): Promise<void> {
  await tx
    .insert(publicStatistics)
    .values({ id: 1, ...row })
    .onConflictDoUpdate({
      target: publicStatistics.id,
      set: { exchanges: row.exchanges, computedAt: row.computedAt, figures: row.figures },
    });
}
