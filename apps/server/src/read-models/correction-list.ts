import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { users } from '../modules/auth/auth.tables.js';
import {
  type CorrectionRow,
  type CorrectionStatusValue,
  corrections,
} from '../modules/corrections/corrections.tables.js';

/** The console's list of corrections, each with its member's e-mail (one join, not a look-up per row). */
export async function selectCorrectionPage(
  db: Executor,
  filter: { status?: CorrectionStatusValue | undefined; userId?: number | undefined },
  page: { offset: number; limit: number },
): Promise<{ rows: Array<{ correction: CorrectionRow; memberEmail: string | null }>; total: number }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(corrections.status, filter.status));
  if (filter.userId !== undefined) conditions.push(eq(corrections.userId, filter.userId));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [totalRow] = await db.select({ value: count() }).from(corrections).where(where);
  // The approval queue is worked oldest first; history reads newest first.
  const order =
    filter.status === 'pending'
      ? [asc(corrections.proposedAt), asc(corrections.id)]
      : [desc(corrections.proposedAt), desc(corrections.id)];
  const rows = await db
    .select({ correction: corrections, memberEmail: users.email })
    .from(corrections)
    .innerJoin(users, eq(users.id, corrections.userId))
    .where(where)
    .orderBy(...order)
    .offset(page.offset)
    .limit(page.limit);
  return { rows, total: totalRow?.value ?? 0 };
}
