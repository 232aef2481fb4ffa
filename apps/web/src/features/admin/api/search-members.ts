import { MemberSearchPageSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/searchMembers {query, page, pageSize}`: nothing is asked until there is a query. */
export const searchMembersQuery = (query: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'members', query, page, pageSize],
    queryFn: () =>
      apiCall('/elex/admin/searchMembers', { query, page, pageSize }, { schema: MemberSearchPageSchema }),
    enabled: query.trim().length > 0,
    placeholderData: keepPreviousData,
  });

export const useSearchMembers = (query: string, page: number, pageSize: number) =>
  useQuery(searchMembersQuery(query, page, pageSize));
