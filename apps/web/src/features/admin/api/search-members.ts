import { ADMIN_API, MemberSearchPageSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/admin/searchMembers {query, suspendedOnly, page, pageSize}`: nothing is asked until there is
 * a query or the suspended filter is on.
 */
const searchMembersQuery = (query: string, suspendedOnly: boolean, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'members', query, suspendedOnly, page, pageSize],
    queryFn: () =>
      apiCall(
        ADMIN_API.adminSearchMembers,
        { query, suspendedOnly, page, pageSize },
        { schema: MemberSearchPageSchema },
      ),
    enabled: suspendedOnly || query.trim().length > 0,
    placeholderData: keepPreviousData,
  });

export const useSearchMembers = (query: string, suspendedOnly: boolean, page: number, pageSize: number) =>
  useQuery(searchMembersQuery(query, suspendedOnly, page, pageSize));
