import { API, BindingDetailSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/seeRebateByExchangeId`: one bound UID's balance, totals and daily cashback. */
const bindingDetailQuery = (platId: number, uid: string) =>
  queryOptions({
    queryKey: ['me', 'binding', platId, uid],
    queryFn: () => apiCall(API.userSeeRebateByExchangeId, { platId, uid }, { schema: BindingDetailSchema }),
  });

export const useBindingDetail = (platId: number, uid: string) => useQuery(bindingDetailQuery(platId, uid));
