import { ADMIN_API, ImportRunPageSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/importRuns {page, pageSize}`: console uploads, newest first. */
const importRunsQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'importRuns', page, pageSize],
    queryFn: () => apiCall(ADMIN_API.adminImportRuns, { page, pageSize }, { schema: ImportRunPageSchema }),
    placeholderData: keepPreviousData,
  });

export const useImportRuns = (page: number, pageSize: number) => useQuery(importRunsQuery(page, pageSize));
