import type pg from 'pg';

/**
 * The channel the database's triggers notify with the ids of members whose answers changed
 * (migration 0028_member_notify; db/member-answers.ts listens).
 */
export const MEMBER_CHANGES_CHANNEL = 'elex_member_changed';

/**
 * Every pooled PostgreSQL connection LISTENs on the channel from its start (pg's onConnect hook, run
 * before the pool hands the connection out) and passes what it hears to the pool's 'notification'
 * event. PostgreSQL delivers a session's own notifications before its COMMIT returns, so this process
 * hears of a change it made before the code that committed goes on, not a moment later through the
 * listening connection.
 */
export async function listenOnPooledConnection(pool: pg.Pool, client: pg.ClientBase): Promise<void> {
  client.on('notification', (message) => pool.emit('notification', message));
  await client.query(`LISTEN ${MEMBER_CHANGES_CHANNEL}`);
}
