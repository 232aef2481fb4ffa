import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { operators } from '../modules/admin/admin.tables.js';
import { users } from '../modules/auth/auth.tables.js';

/** Whether any live member (not a deleted account) holds the operator role. */
export async function anyLiveOperator(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ userId: operators.userId })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.userId))
    .where(isNull(users.deletedAt))
    .limit(1);
  return row !== undefined;
}

/**
 * Whether this member holds the operator role on a live, unsuspended account, read inside an action's
 * transaction with FOR KEY SHARE on both rows: a revocation (deletes the role's row) or an account
 * deletion (clears the e-mail, a unique key) committing first is seen, and one coming after waits for
 * the action to commit. KEY SHARE, not SHARE: it does not wait for, nor hold up, the FOR NO KEY UPDATE
 * lock other actions take on a member row (two operators correcting each other's money at once would
 * otherwise deadlock). A suspension of an operator is refused anyway (it reads the role after its lock).
 */
export async function holdsLiveOperatorRole(db: Executor, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: operators.userId })
    .from(operators)
    .innerJoin(users, eq(users.id, operators.userId))
    .where(and(eq(operators.userId, userId), isNull(users.deletedAt), isNull(users.suspendedAt)))
    .for('key share');
  return row !== undefined;
}
