import type { SocialNetwork } from '@elex/contract';
import { and, asc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { nextVersion } from '../../db/row-version.js';
import {
  type SocialAccountRow,
  socialAccounts,
  type TaskDefinitionRow,
  type TaskPayoutRow,
  taskDefinitions,
  taskPayouts,
} from './tasks.tables.js';

// --- task definitions

export function selectTaskDefinitions(db: Executor): Promise<TaskDefinitionRow[]> {
  return db.select().from(taskDefinitions).orderBy(asc(taskDefinitions.sortOrder), asc(taskDefinitions.id));
}

export async function findTaskDefinition(db: Executor, id: string): Promise<TaskDefinitionRow | undefined> {
  const [row] = await db.select().from(taskDefinitions).where(eq(taskDefinitions.id, id)).limit(1);
  return row;
}

/**
 * One task's row, held until the transaction ends: the console's save checks its version under it. FOR
 * NO KEY UPDATE: a claim's payout row references the task (FOR KEY SHARE) and must not wait for it.
 */
export async function lockTaskDefinitionRow(
  db: Executor,
  id: string,
): Promise<TaskDefinitionRow | undefined> {
  const [row] = await db
    .select()
    .from(taskDefinitions)
    .where(eq(taskDefinitions.id, id))
    .limit(1)
    .for('no key update');
  return row;
}

export type TaskDefinitionPatch = Partial<
  Pick<TaskDefinitionRow, 'points' | 'thresholdMicro' | 'link' | 'appLink' | 'sortOrder' | 'enabled'>
>;

export async function updateTaskDefinitionRow(
  db: Executor,
  id: string,
  patch: TaskDefinitionPatch,
  at: Date,
): Promise<TaskDefinitionRow | undefined> {
  const [row] = await db
    .update(taskDefinitions)
    .set({ ...patch, updatedAt: nextVersion(taskDefinitions.updatedAt, at) })
    .where(eq(taskDefinitions.id, id))
    .returning();
  return row;
}

// --- social accounts

export function selectSocialAccounts(db: Executor, userId: number): Promise<SocialAccountRow[]> {
  return db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId));
}

/**
 * The member's account on a network. `forUpdate` (inside a transaction) locks the row: a claim of the
 * task and a change of the id both lock it, so one waits for the other (docs/engagement.md).
 */
export async function findSocialAccount(
  db: Executor,
  userId: number,
  network: SocialNetwork,
  options: { forUpdate?: boolean } = {},
): Promise<SocialAccountRow | undefined> {
  const query = db
    .select()
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.network, network)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** Whether another member's verified account is this one. */
export async function isVerifiedForOther(
  db: Executor,
  userId: number,
  network: SocialNetwork,
  accountId: string,
): Promise<boolean> {
  const rows = await db
    .select({ userId: socialAccounts.userId })
    .from(socialAccounts)
    .where(
      and(
        eq(socialAccounts.network, network),
        eq(socialAccounts.accountId, accountId),
        isNotNull(socialAccounts.verifiedAt),
        ne(socialAccounts.userId, userId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Stores the account a member entered; a new id is unverified until a bot sees it. */
export async function saveSocialAccount(
  db: Executor,
  row: { userId: number; network: SocialNetwork; accountId: string; at: Date },
): Promise<void> {
  await db
    .insert(socialAccounts)
    .values({ userId: row.userId, network: row.network, accountId: row.accountId, updatedAt: row.at })
    .onConflictDoUpdate({
      target: [socialAccounts.userId, socialAccounts.network],
      set: { accountId: row.accountId, verifiedAt: null, updatedAt: row.at },
    });
}

/**
 * Marks the member's account verified, if it is still the one checked. The partial unique index
 * refuses it when another member's verified account is the same (a unique violation the caller maps).
 */
export async function markSocialAccountVerified(
  db: Executor,
  row: { userId: number; network: SocialNetwork; accountId: string; at: Date },
): Promise<boolean> {
  const updated = await db
    .update(socialAccounts)
    .set({ verifiedAt: row.at, updatedAt: row.at })
    .where(
      and(
        eq(socialAccounts.userId, row.userId),
        eq(socialAccounts.network, row.network),
        eq(socialAccounts.accountId, row.accountId),
      ),
    )
    .returning({ userId: socialAccounts.userId });
  return updated.length > 0;
}

// --- payouts

/** The payouts these accounts earned, whatever task and member. */
export function selectPayoutsOfAccounts(db: Executor, accounts: readonly string[]): Promise<TaskPayoutRow[]> {
  if (accounts.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(taskPayouts)
    .where(inArray(taskPayouts.account, [...new Set(accounts)]));
}

/**
 * Records the account that earned the task. False when the account already earned it (for anyone) or
 * the member already has a payout for it; of two racing inserts the database keeps one.
 */
export async function insertPayout(tx: Executor, row: TaskPayoutRow): Promise<boolean> {
  const inserted = await tx
    .insert(taskPayouts)
    .values(row)
    .onConflictDoNothing()
    .returning({ taskId: taskPayouts.taskId });
  return inserted.length > 0;
}

// --- account deletion

/** Account deletion: the member's Telegram and Discord ids go. Answers how many rows went. */
export async function deleteSocialAccountsOfUser(tx: Executor, userId: number): Promise<number> {
  const deleted = await tx
    .delete(socialAccounts)
    .where(eq(socialAccounts.userId, userId))
    .returning({ network: socialAccounts.network });
  return deleted.length;
}
