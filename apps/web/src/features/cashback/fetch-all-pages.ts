import { CASHBACK } from '@elex/contract';

/** The most a list call pages to (the contract's page limit) and the largest page it serves. */
const MAX_PAGE = 10_000;
const EXPORT_PAGE_SIZE = 100;

/**
 * Every record of a paged list, for an export: page after page until the server's total is reached
 * or a page comes back short. Records that arrive meanwhile shift the newest-first pages; an id seen
 * twice is kept once. `complete` is false when fewer records came back than the total says (a record
 * left the filtered list during the export, or the list is longer than the server pages to), so the
 * page can say the file is partial instead of passing a truncated file off as the whole.
 */
export async function fetchAllPages<T extends { id: string }>(
  fetchPage: (page: number, pageSize: number) => Promise<{ records: T[]; total: number }>,
): Promise<{ records: T[]; total: number; complete: boolean }> {
  const byId = new Map<string, T>();
  let total = 0;
  for (let page = 1; page <= MAX_PAGE; page += 1) {
    const result = await fetchPage(page, EXPORT_PAGE_SIZE);
    total = result.total;
    for (const record of result.records) byId.set(record.id, record);
    if (result.records.length < EXPORT_PAGE_SIZE || page * EXPORT_PAGE_SIZE >= total) break;
  }
  return collected(byId, total);
}

/** What a walk gathered, and whether it is the whole list (fewer records than the total: partial). */
function collected<T>(byId: Map<string, T>, total: number) {
  const records = [...byId.values()];
  return { records, total, complete: records.length >= total };
}

/**
 * The same for a list that pages by cursor (the cashback records): each page asks for the records
 * after the last one it has, so every page costs the server the same however deep the export goes,
 * and a page holds `CASHBACK.exportPageSize` records: a tenth of the round trips of pages of 100.
 * The server refuses a cursor the member no longer sees (its UID was unbound or moved during the
 * export): `cursorRefused` tells that refusal, and the walk starts over once from the first page, so
 * the file is the list as it is now rather than an error. A walk that gathered fewer records than the
 * total (records arrived where the cursor had passed) starts over once too. The walk is complete only
 * for a list that records join and never leave, so the caller asks for no filter a record can leave
 * (the records' status) and filters what came back.
 */
export async function fetchAllAfter<T extends { id: string }>(
  fetchPage: (
    after: string | undefined,
    pageSize: number,
  ) => Promise<{ records: T[]; total: number; next: string | null }>,
  cursorRefused: (error: unknown) => boolean = () => false,
): Promise<{ records: T[]; total: number; complete: boolean }> {
  for (let walk = 1; ; walk += 1) {
    try {
      const result = await walkAfter();
      if (result.complete || walk === 2) return result;
    } catch (error) {
      if (!(error instanceof CursorRefused)) throw error;
      // Refused again: the page hears the server's refusal itself.
      if (walk === 2) throw error.cause;
    }
  }

  async function walkAfter(): Promise<{ records: T[]; total: number; complete: boolean }> {
    const byId = new Map<string, T>();
    let total = 0;
    let after: string | undefined;
    for (let page = 1; page <= MAX_PAGE; page += 1) {
      const result = await fetchPage(after, CASHBACK.exportPageSize).catch((error: unknown) => {
        throw after !== undefined && cursorRefused(error) ? new CursorRefused(error) : error;
      });
      total = result.total;
      for (const record of result.records) byId.set(record.id, record);
      // A cursor that does not move would ask for the same page forever.
      if (result.next === null || result.next === after) break;
      after = result.next;
    }
    return collected(byId, total);
  }
}

/** A page after a cursor was refused: the walk may start over (the original error is its cause). */
class CursorRefused extends Error {
  constructor(cause: unknown) {
    super("the export's cursor was refused", { cause });
  }
}
