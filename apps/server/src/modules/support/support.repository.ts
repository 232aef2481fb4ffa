import { and, asc, count, desc, eq, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { countedPage, totalOverPage } from '../../db/counted-page.js';
import {
  type SupportMessageRow,
  type SupportRequestRow,
  supportImages,
  supportMessages,
  supportRequests,
} from './support.tables.js';

export type NewSupportRequest = Omit<
  SupportRequestRow,
  'id' | 'status' | 'resolution' | 'updatedAt' | 'closedAt' | 'closedBy'
>;

export async function insertRequest(tx: Executor, request: NewSupportRequest): Promise<SupportRequestRow> {
  const [row] = await tx
    .insert(supportRequests)
    .values({ ...request, status: 'open', updatedAt: request.createdAt })
    .returning();
  if (!row) throw new Error('support request not written');
  return row;
}

export async function insertImage(
  tx: Executor,
  image: { requestId: number; contentType: string; bytes: Buffer; createdAt: Date },
): Promise<number> {
  const [row] = await tx
    .insert(supportImages)
    .values({ ...image, sizeBytes: image.bytes.length })
    .returning({ id: supportImages.id });
  if (!row) throw new Error('support image not written');
  return row.id;
}

export async function insertMessage(
  tx: Executor,
  message: Omit<SupportMessageRow, 'id'>,
): Promise<SupportMessageRow> {
  const [row] = await tx.insert(supportMessages).values(message).returning();
  if (!row) throw new Error('support message not written');
  return row;
}

/** The request, locked until the transaction ends: decisions and replies on it queue. */
export async function lockRequest(tx: Executor, id: number): Promise<SupportRequestRow | undefined> {
  const [row] = await tx.select().from(supportRequests).where(eq(supportRequests.id, id)).for('update');
  return row;
}

export async function findRequest(db: Executor, id: number): Promise<SupportRequestRow | undefined> {
  const [row] = await db.select().from(supportRequests).where(eq(supportRequests.id, id)).limit(1);
  return row;
}

export async function updateRequest(
  tx: Executor,
  id: number,
  change: Partial<Pick<SupportRequestRow, 'status' | 'resolution' | 'updatedAt' | 'closedAt' | 'closedBy'>>,
): Promise<SupportRequestRow> {
  const [row] = await tx.update(supportRequests).set(change).where(eq(supportRequests.id, id)).returning();
  if (!row) throw new Error(`support request ${id} vanished`);
  return row;
}

/**
 * Opening a member's request and closing them all at their deletion take turns on this lock (a
 * transaction-level advisory lock per member), each as its transaction's first lock: a request
 * inserted while the deletion runs cannot escape the deletion's sweep.
 */
export async function lockRequestsOfMember(tx: Executor, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`support-requests|${userId}`}, 0))`);
}

/** The member's requests not closed yet, locked `FOR UPDATE` in id order (a deletion closes them). */
export async function lockOpenOfUser(tx: Executor, userId: number): Promise<SupportRequestRow[]> {
  return tx
    .select()
    .from(supportRequests)
    .where(and(eq(supportRequests.userId, userId), ne(supportRequests.status, 'closed')))
    .orderBy(supportRequests.id)
    .for('update');
}

export async function countOpenOfUser(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(supportRequests)
    .where(and(eq(supportRequests.userId, userId), ne(supportRequests.status, 'closed')));
  return row?.value ?? 0;
}

/** The member's request of a kind about a UID that is not closed yet, if any. */
export async function findOpenOfUserAbout(
  db: Executor,
  input: { userId: number; kind: string; platId: number; uid: string },
): Promise<SupportRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(supportRequests)
    .where(
      and(
        eq(supportRequests.userId, input.userId),
        eq(supportRequests.kind, input.kind),
        eq(supportRequests.platId, input.platId),
        eq(supportRequests.uid, input.uid),
        ne(supportRequests.status, 'closed'),
      ),
    )
    .limit(1);
  return row;
}

export async function selectRequestPage(
  db: Executor,
  filter: { userId?: number; status?: string; statuses?: readonly string[]; kind?: string },
  page: { offset: number; limit: number },
): Promise<{ rows: SupportRequestRow[]; total: number }> {
  const where: SQL | undefined = and(
    filter.userId === undefined ? undefined : eq(supportRequests.userId, filter.userId),
    filter.status === undefined ? undefined : eq(supportRequests.status, filter.status),
    filter.statuses === undefined ? undefined : inArray(supportRequests.status, [...filter.statuses]),
    filter.kind === undefined ? undefined : eq(supportRequests.kind, filter.kind),
  );
  const order = [desc(supportRequests.updatedAt), desc(supportRequests.id)];
  const countAll = async () => {
    const [total] = await db.select({ value: count() }).from(supportRequests).where(where);
    return total?.value ?? 0;
  };
  if (filter.userId === undefined) {
    // The console's list spans every member's requests: a window count would read and hold every
    // matching row for each page, so the page stays an ordered scan to its limit, counted apart.
    const rows = await db
      .select()
      .from(supportRequests)
      .where(where)
      .orderBy(...order)
      .offset(page.offset)
      .limit(page.limit);
    return { rows, total: await countAll() };
  }
  // One member's requests are few: the count rides on the page.
  const found = await db
    .select({ row: supportRequests, total: totalOverPage() })
    .from(supportRequests)
    .where(where)
    .orderBy(...order)
    .offset(page.offset)
    .limit(page.limit);
  return countedPage(found, page.offset, countAll);
}

/** A message's image: its bytes, or 'erased' once housekeeping removed them. */
export type ThreadImage = { contentType: string; bytes: Buffer } | 'erased' | null;

/** A request's thread, oldest first, each message with its image when it has one. */
export async function selectThread(
  db: Executor,
  requestId: number,
): Promise<Array<SupportMessageRow & { image: ThreadImage }>> {
  const rows = await db
    .select({ message: supportMessages, contentType: supportImages.contentType, bytes: supportImages.bytes })
    .from(supportMessages)
    .leftJoin(supportImages, eq(supportImages.id, supportMessages.imageId))
    .where(eq(supportMessages.requestId, requestId))
    .orderBy(asc(supportMessages.id));
  return rows.map((row) => ({
    ...row.message,
    image: !row.contentType
      ? null
      : row.bytes
        ? { contentType: row.contentType, bytes: row.bytes }
        : 'erased',
  }));
}

/**
 * Erases one batch of the images of requests closed before the cutoff (housekeeping): the bytes go,
 * the row stays so the thread can say a screenshot was there. A closed request takes no reply, so
 * nothing is added to it afterwards.
 */
export async function eraseImagesOfRequestsClosedBefore(
  db: Executor,
  cutoff: Date,
  limit: number,
): Promise<number> {
  const closedLongAgo = and(
    eq(supportRequests.status, 'closed'),
    lt(supportRequests.closedAt, cutoff),
    isNull(supportImages.erasedAt),
  );
  const batch = db
    .select({ id: supportImages.id })
    .from(supportImages)
    .innerJoin(supportRequests, eq(supportRequests.id, supportImages.requestId))
    .where(closedLongAgo)
    .limit(limit)
    .for('update', { of: supportImages, skipLocked: true });
  const rows = await db
    .update(supportImages)
    .set({ bytes: null, erasedAt: sql`now()` })
    .where(and(inArray(supportImages.id, batch), isNull(supportImages.erasedAt)))
    .returning({ id: supportImages.id });
  return rows.length;
}
