import { API, WithdrawableSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

/** `/elex/user/withdrawable`: per bound UID its cashback, withdrawable amount and shortfall; the lock. */
export const withdrawableQuery = queryOptions({
  queryKey: ['me', 'withdrawable'],
  queryFn: () => apiCall(API.userWithdrawable, {}, { schema: WithdrawableSchema }),
});

export const useWithdrawable = () => useQuery(withdrawableQuery);
