import { bigint, index, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * Who registered with whose invite code: written in the registration's transaction with the invite
 * points, one row per friend (the primary key), so the rewards and the friends list agree.
 */
export const invitations = pgTable(
  'invitations',
  {
    friendId: bigint('friend_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id),
    inviterId: bigint('inviter_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('invitations_inviter_idx').on(table.inviterId, table.createdAt, table.friendId)],
);

export type InvitationRow = typeof invitations.$inferSelect;
