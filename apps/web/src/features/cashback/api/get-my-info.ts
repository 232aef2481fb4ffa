import { MyInfoSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/myInfo`: bound UIDs with balances, total rewards and cumulative cashback. */
export const myInfoQuery = queryOptions({
  queryKey: ['me', 'info'],
  queryFn: () => apiCall('/elex/user/myInfo', {}, { schema: MyInfoSchema }),
});

export const useMyInfo = (enabled = true) => useQuery({ ...myInfoQuery, enabled });
