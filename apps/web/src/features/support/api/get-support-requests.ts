import { API, SupportListSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/support/list {page, pageSize}`: the member's requests, latest activity first. */
const supportRequestsQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['me', 'support', 'list', page, pageSize],
    queryFn: () => apiCall(API.supportList, { page, pageSize }, { schema: SupportListSchema }),
    placeholderData: keepPreviousData,
  });

export const useSupportRequests = (page: number, pageSize: number) =>
  useQuery(supportRequestsQuery(page, pageSize));
