import { ADMIN_API, AdminSupportDetailSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/support/detail {id}`: the request, its thread and, for a UID request, the UID's state now. */
export const adminSupportRequestQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'support', 'detail', id],
    queryFn: () => apiCall(ADMIN_API.adminSupportDetail, { id }, { schema: AdminSupportDetailSchema }),
  });

export const useAdminSupportRequest = (id: string) => useQuery(adminSupportRequestQuery(id));
