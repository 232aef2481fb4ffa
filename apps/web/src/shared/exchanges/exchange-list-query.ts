import { queryOptions, useQuery } from '@tanstack/react-query';
import { getExchangeList, openExchanges } from './exchange-dictionary';

// The pages' hooks over the dictionary. Apart from it, so that the home's first paint, which reads the
// dictionary without TanStack Query (useOpenExchangesOnFirstPaint), does not bring the library (issue 14).
export const exchangeListQuery = queryOptions({
  queryKey: ['exchange-dictionary', 'list'],
  queryFn: getExchangeList,
  // exchange-dictionary.ts is the cache; the query only lets components wait for it. An empty list is what
  // a failed load answers (spec section 8), so it is stale at once: the next page that uses the list
  // loads again instead of keeping the failure for the whole session (the module keeps no failure).
  staleTime: (query) => (query.state.data?.length ? Number.POSITIVE_INFINITY : 0),
});

/** The partner list for pickers and cards; empty when the dictionary failed (spec section 8). */
export function useExchangeList() {
  return useQuery(exchangeListQuery);
}

/**
 * The partners a visitor can still choose (issue 12): every public list and picker (home, /exchange,
 * the calculator, the UID search and binding). A retired partner stays in `useExchangeList` only so
 * members' UIDs, records and balances there keep its name and logo.
 */
export function useOpenExchangeList() {
  return useQuery({ ...exchangeListQuery, select: openExchanges });
}
