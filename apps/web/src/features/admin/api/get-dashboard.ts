import { ADMIN_API, DashboardSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/dashboard {days}` */
const dashboardQuery = (days: number) =>
  queryOptions({
    queryKey: ['admin', 'dashboard', days],
    queryFn: () => apiCall(ADMIN_API.adminDashboard, { days }, { schema: DashboardSchema }),
    placeholderData: keepPreviousData,
  });

export const useDashboard = (days: number) => useQuery(dashboardQuery(days));
