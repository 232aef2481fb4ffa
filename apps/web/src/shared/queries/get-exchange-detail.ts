import { API, ExchangeDetailResponseSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

/**
 * `POST /elex/exchange/detail` with `{ platId }`. Silent: the page says "not found" or "could not
 * load" in place, where the visitor is looking, instead of a toast.
 */
/** Every exchange's detail query starts with this key (a catalog edit invalidates them all). */
export const EXCHANGE_DETAIL_KEY = ['exchange', 'detail'] as const;

const exchangeDetailQuery = (platId: number) =>
  queryOptions({
    queryKey: [...EXCHANGE_DETAIL_KEY, platId],
    queryFn: () =>
      apiCall(API.exchangeDetail, { platId }, { schema: ExchangeDetailResponseSchema, silent: true }),
  });

export function useExchangeDetail(platId: number | null) {
  return useQuery({ ...exchangeDetailQuery(platId ?? 0), enabled: platId !== null });
}
