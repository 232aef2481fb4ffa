import { and, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { supportRequests } from './support.tables.js';

/**
 * Whether an open dispute (a support request 'uidBoundByOther' not closed) freezes a UID's money.
 * Its own file, apart from support.service: withdrawals ask it, and the support service asks the
 * withdrawals module about withdrawals under review, so going through the service would make the two
 * import each other. Read with the caller's executor: inside a transaction that holds the UID's
 * cashback account lock it sees every dispute committed before (a dispute takes that lock too).
 */
export async function isUidFrozen(db: Executor, platId: number, uid: string): Promise<boolean> {
  const [row] = await db
    .select({ id: supportRequests.id })
    .from(supportRequests)
    .where(
      and(
        eq(supportRequests.kind, 'uidBoundByOther'),
        ne(supportRequests.status, 'closed'),
        eq(supportRequests.platId, platId),
        eq(supportRequests.uid, uid),
      ),
    )
    .limit(1);
  return row !== undefined;
}
