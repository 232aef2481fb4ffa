import type { Executor } from '../../db/client.js';
import { type InvitationRow, invitations } from './invites.tables.js';

/** Records a friend's registration with an inviter's code; answers whether this call recorded it. */
export async function insertInvitation(tx: Executor, row: InvitationRow): Promise<boolean> {
  const inserted = await tx
    .insert(invitations)
    .values(row)
    .onConflictDoNothing()
    .returning({ friendId: invitations.friendId });
  return inserted.length > 0;
}
