import { ADMIN_API, AuditLogPageSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/auditLog {action?, page, pageSize}`: newest first. */
const auditLogQuery = (action: string | undefined, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'audit', action ?? 'all', page, pageSize],
    queryFn: () =>
      apiCall(
        ADMIN_API.adminAuditLog,
        { ...(action ? { action } : {}), page, pageSize },
        { schema: AuditLogPageSchema },
      ),
    placeholderData: keepPreviousData,
  });

export const useAuditLog = (action: string | undefined, page: number, pageSize: number) =>
  useQuery(auditLogQuery(action, page, pageSize));
