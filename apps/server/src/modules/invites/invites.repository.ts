import { count, desc, eq } from 'drizzle-orm';
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

export async function selectInvitationPage(
  db: Executor,
  inviterId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: InvitationRow[]; total: number }> {
  const where = eq(invitations.inviterId, inviterId);
  const [totalRow] = await db.select({ value: count() }).from(invitations).where(where);
  const rows = await db
    .select()
    .from(invitations)
    .where(where)
    .orderBy(desc(invitations.createdAt), desc(invitations.friendId))
    .offset(page.offset)
    .limit(page.limit);
  return { rows, total: totalRow?.value ?? 0 };
}
