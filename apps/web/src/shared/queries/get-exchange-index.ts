import type { ExchangeIndexResponse } from '@elex/contract';
import { API } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

/**
 * Checked by hand rather than with the contract's zod schema: the home page is the first download,
 * and zod stays out of it (docs/decisions.md).
 */
function toExchangeIndex(content: unknown): ExchangeIndexResponse {
  const value = content as Partial<ExchangeIndexResponse> | null;
  const lists = [value?.allExchange, value?.fames, value?.generalActivity, value?.hotActivity];
  if (!lists.every(Array.isArray)) throw new Error('the exchange index is missing a list');
  return value as ExchangeIndexResponse;
}

/** `POST /elex/exchange/index`: the home lists (empty payload, spec section 7). */
export const exchangeIndexQuery = queryOptions({
  queryKey: ['exchange', 'index'],
  queryFn: async () => toExchangeIndex(await apiCall(API.exchangeIndex, {})),
});

export function useExchangeIndex() {
  return useQuery(exchangeIndexQuery);
}
