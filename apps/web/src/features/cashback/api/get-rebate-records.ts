import {
  API,
  PAGING,
  RebatePageSchema,
  RebatePageTooDeepSchema,
  type RebateQuery,
  State,
} from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, apiCall } from '../../../shared/api/api-client';

/**
 * The server's refusal of a page number wholly between the newest and the oldest
 * `CASHBACK.pageReach` records of a long list (issue 14): pages that deep are read by cursor.
 */
const isPageTooDeep = (error: unknown) =>
  error instanceof ApiError && RebatePageTooDeepSchema.safeParse(error.content).success;

/**
 * The server's refusal of a cursor (`after`): the filters passed on the page before, so on a page read
 * after it only the cursor can fail its check (a record of a UID unbound or moved since it was read).
 */
export const isCursorRefusal = (error: unknown) =>
  error instanceof ApiError && error.state === State.ValidationFailed && !isPageTooDeep(error);

/** Refusals a walk handles without a word: a refused cursor (asked again by number), a page too deep. */
const isWalkRefusal = (error: unknown) => isCursorRefusal(error) || isPageTooDeep(error);

/**
 * Whether a page number is past what a page by number may ask (`PAGING.maxPage`): a walk by cursor
 * goes on past it (the number is then only shown), but cannot be asked again by number there.
 */
const pastPageCap = (page: unknown) => Number(page ?? 1) > PAGING.maxPage;

/**
 * `/elex/user/seeRebateData`: the member's cashback records, paged and filtered. A page after a refused
 * cursor is asked for again by its number (what `page` says), so the pager is never stuck on it, and
 * the refusal shows no toast; a page number refused as too deep fails without one either, and so does
 * a refused cursor past the page numbers' cap: the pager goes back to page 1 (useRebatePager).
 */
const rebateRecordsQuery = (query: RebateQuery) =>
  queryOptions({
    queryKey: ['me', 'rebates', query],
    queryFn: async () => {
      try {
        return await fetchRebatePage(query, query.after === undefined ? isPageTooDeep : isWalkRefusal);
      } catch (error) {
        if (query.after === undefined || !isCursorRefusal(error) || pastPageCap(query.page)) throw error;
        const { after: _refused, ...byNumber } = query;
        return fetchRebatePage(byNumber, isPageTooDeep);
      }
    },
    placeholderData: keepPreviousData,
  });

export const fetchRebatePage = (query: RebateQuery, silent?: (error: ApiError) => boolean) =>
  apiCall(API.userSeeRebateData, query, { schema: RebatePageSchema, ...(silent ? { silent } : {}) });

/** Where a pager stands in one list: its page, and the cursor (`after`) each page up to it was read from. */
interface Walk {
  list: string;
  page: number;
  /** Index n: the `after` page n + 1 was asked with (the `next` of page n); page 1 needs none. */
  cursors: (string | undefined)[];
}

/**
 * A list of records shown page by page (issue 14): "next" asks for the page after the current one's
 * `next`, which costs the server one page at any depth where a page number deep in a long list made it
 * skip every record before; "previous" asks again with the cursor that page was read from, remembered
 * (page 1 needs none). The page number is still sent, shown, and used when no cursor is known: a jump,
 * a press before the page shown arrived, or a cursor the server refuses; a page number the server
 * refuses as too deep (CASHBACK.pageReach) starts over from page 1. Other filters or page size start
 * over from page 1 with no cursor.
 */
export function useRebatePager(filter: Omit<RebateQuery, 'page' | 'pageSize' | 'after'>, pageSize: number) {
  const list = JSON.stringify([filter, pageSize]);
  const [walk, setWalk] = useState<Walk>({ list, page: 1, cursors: [] });
  // Another list: forgotten here rather than in an effect, so no request leaves with the old page.
  const current = walk.list === list ? walk : { list, page: 1, cursors: [] };
  if (current !== walk) setWalk(current);
  const after = current.cursors[current.page - 1];
  const records = useQuery(
    rebateRecordsQuery({
      ...filter,
      page: current.page,
      pageSize,
      ...(after === undefined ? {} : { after }),
    }),
  );
  // A page number the server finds too deep (asked by number after a refused cursor, or with no cursor
  // known), or a refused cursor past the page numbers' cap (no number to ask by): back to page 1 with
  // the same filters, as a new walk, rather than an error (issue 14).
  if (
    current.page !== 1 &&
    records.isError &&
    (isPageTooDeep(records.error) || (pastPageCap(current.page) && isCursorRefusal(records.error)))
  ) {
    setWalk({ list, page: 1, cursors: [] });
  }

  // Whether a page follows the one shown: its `next`, which the server gives exactly when a record
  // follows the page (a full last page has none). Unknown (null) while the page loads: "next" waits
  // for the cursor rather than ask by number. The walk knows better than the count when records
  // arrived or settled under it: the list can end before the count's last page or go on after it.
  const shown = records.isPlaceholderData ? undefined : records.data;
  const hasNext = shown === undefined ? null : shown.next !== null;

  const onPage = (page: number) => {
    // The cursors of the pages up to the one asked for stay; those past it belonged to a walk undone.
    const cursors = current.cursors.slice(0, page);
    if (page === current.page + 1) {
      // The page shown, not a previous one kept on screen while it loads: its `next` starts the next.
      const shown = records.isPlaceholderData ? undefined : records.data;
      cursors[page - 1] = shown?.page === current.page ? (shown.next ?? undefined) : undefined;
    }
    setWalk({ list, page, cursors });
  };
  return { records, page: current.page, hasNext, onPage };
}
