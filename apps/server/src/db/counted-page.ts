import { sql } from 'drizzle-orm';

/**
 * The count of every row a page's filter matches, as a window over the page's own select: PostgreSQL
 * counts it before the limit, so a page and its total are one statement (issue 14). Select it beside
 * the row (`{ row: table, total: totalOverPage() }`) and hand the result to `countedPage`. For one
 * member's rows only: the window reads and holds every matching row, which for a list over everyone
 * (an operator's queue) costs more than the separate count it saves.
 */
export const totalOverPage = () => sql<number>`count(*) over ()`.mapWith(Number);

/**
 * The page's rows and the total they carry. A page past the end has no row to carry it, so only then
 * is the filter counted apart (`countAll`); an empty first page is an empty list.
 */
export async function countedPage<T>(
  found: ReadonlyArray<{ row: T; total: number }>,
  offset: number,
  countAll: () => Promise<number>,
): Promise<{ rows: T[]; total: number }> {
  const [first] = found;
  if (first) return { rows: found.map((item) => item.row), total: first.total };
  return { rows: [], total: offset === 0 ? 0 : await countAll() };
}
