import { State } from '@elex/contract';
import type { Transaction } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { findUserByIdForUpdate, revokeUserSessions, updateUser } from './auth.repository.js';
import type { UserRow } from './auth.tables.js';

/**
 * An operator's suspension of a member and the lifting of a member's withdrawal lock (issue 12,
 * docs/accounts.md "Suspension"). The console's members service calls these inside the transaction
 * that writes the audit entry; each takes the user row FOR UPDATE, so a login or a withdrawal that
 * holds it FOR SHARE either committed before or sees the change.
 */

/** A suspended account's login (or login code) is refused with the operator's reason. */
export function refuseIfSuspended(user: Pick<UserRow, 'suspendedAt' | 'suspensionReason'>): void {
  if (user.suspendedAt) {
    throw AppError.refused('accountSuspended', { reason: user.suspensionReason ?? '' });
  }
}

async function lockedMember(tx: Transaction, userId: number): Promise<UserRow> {
  const user = await findUserByIdForUpdate(tx, userId);
  if (!user) throw new AppError(State.NotFound, 'memberNotFound');
  if (user.deletedAt) throw AppError.refused('memberDeleted');
  return user;
}

/** Suspends the member and ends every session of theirs; answers the row before and after. */
export async function suspendUser(
  tx: Transaction,
  input: { userId: number; reason: string; operatorId: number | null; at: Date },
): Promise<{ before: UserRow; after: UserRow }> {
  const before = await lockedMember(tx, input.userId);
  if (before.suspendedAt) throw AppError.refused('memberAlreadySuspended');
  const patch = { suspendedAt: input.at, suspensionReason: input.reason, suspendedBy: input.operatorId };
  await updateUser(tx, input.userId, patch);
  await revokeUserSessions(tx, input.userId, input.at);
  return { before, after: { ...before, ...patch } };
}

/** Lifts the suspension: the member can log in again (their old sessions stay ended). */
export async function reinstateUser(
  tx: Transaction,
  userId: number,
): Promise<{ before: UserRow; after: UserRow }> {
  const before = await lockedMember(tx, userId);
  if (!before.suspendedAt) throw AppError.refused('memberNotSuspended');
  const patch = { suspendedAt: null, suspensionReason: null, suspendedBy: null };
  await updateUser(tx, userId, patch);
  return { before, after: { ...before, ...patch } };
}

/** Ends the 72 h lock after a password change or reset now; answers when it would have ended. */
export async function liftUserWithdrawalLock(tx: Transaction, userId: number, now: Date): Promise<Date> {
  const user = await lockedMember(tx, userId);
  const until = user.withdrawalLockedUntil;
  if (!until || until.getTime() <= now.getTime()) throw AppError.refused('withdrawalNotLocked');
  await updateUser(tx, userId, { withdrawalLockedUntil: null });
  return until;
}
