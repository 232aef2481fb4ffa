import { API } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

/**
 * `/elex/user/myInfo`: bound UIDs with balances, total rewards and cumulative cashback. The member
 * summary on the home page asks for it, so its schema (and zod) loads beside the call rather than with
 * the home page's first download (docs/decisions.md, issue 14).
 */
export const myInfoQuery = queryOptions({
  queryKey: ['me', 'info'],
  queryFn: () =>
    apiCall(API.userMyInfo, {}, { schema: import('./my-info-schema').then((module) => module.MyInfoSchema) }),
});

export const useMyInfo = (enabled = true) => useQuery({ ...myInfoQuery, enabled });
