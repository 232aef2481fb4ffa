import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchExchangeIndex } from './exchange-index-request';

/** `POST /elex/exchange/index`: the home lists (empty payload, spec section 7). */
export const exchangeIndexQuery = queryOptions({
  queryKey: ['exchange', 'index'],
  queryFn: fetchExchangeIndex,
});

export function useExchangeIndex() {
  return useQuery(exchangeIndexQuery);
}
