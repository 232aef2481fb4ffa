import { ADMIN_API, type AdminSupportListRequest, AdminSupportListSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

export type SupportQueueFilter = Required<Pick<AdminSupportListRequest, 'page' | 'pageSize'>> &
  Pick<AdminSupportListRequest, 'status' | 'kind'>;

/** `/elex/admin/support/list {status?, kind?, page, pageSize}`: latest activity first. */
const supportQueueQuery = (filter: SupportQueueFilter) =>
  queryOptions({
    queryKey: ['admin', 'support', 'list', filter],
    queryFn: () => apiCall(ADMIN_API.adminSupportList, filter, { schema: AdminSupportListSchema }),
    placeholderData: keepPreviousData,
  });

export const useSupportQueue = (filter: SupportQueueFilter) => useQuery(supportQueueQuery(filter));
