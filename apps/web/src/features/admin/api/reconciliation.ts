import {
  ADMIN_API,
  OpenRebatePageSchema,
  type OpenRebatesRequest,
  ReconciliationSummarySchema,
  type ResettleRequest,
  ResettleResultSchema,
  RosterPageSchema,
  type RosterRequest,
} from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/reconciliation/summary {from?, to?}`: per exchange, the period's figures. */
const reconciliationSummaryQuery = (period: { from?: string; to?: string }) =>
  queryOptions({
    queryKey: ['admin', 'reconciliation', 'summary', period.from ?? '', period.to ?? ''],
    queryFn: () =>
      apiCall(ADMIN_API.adminReconciliationSummary, period, { schema: ReconciliationSummarySchema }),
    placeholderData: keepPreviousData,
  });
export const useReconciliationSummary = (period: { from?: string; to?: string }) =>
  useQuery(reconciliationSummaryQuery(period));

/** `/elex/admin/reconciliation/roster {platId, uidPrefix?, page, pageSize}` */
export const useRoster = (request: RosterRequest & { platId: number }, enabled: boolean) =>
  useQuery({
    queryKey: ['admin', 'reconciliation', 'roster', request],
    queryFn: () => apiCall(ADMIN_API.adminReconciliationRoster, request, { schema: RosterPageSchema }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** `/elex/admin/reconciliation/rebates {platId, status?, uid?, page, pageSize}` */
export const useOpenRebates = (request: OpenRebatesRequest & { platId: number }, enabled: boolean) =>
  useQuery({
    queryKey: ['admin', 'reconciliation', 'rebates', request],
    queryFn: () => apiCall(ADMIN_API.adminReconciliationRebates, request, { schema: OpenRebatePageSchema }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** `/elex/admin/reconciliation/settle {platId, uid?}`: settles what is due; audited on the server. */
export const resettle = (request: ResettleRequest) =>
  apiCall(ADMIN_API.adminReconciliationSettle, request, { schema: ResettleResultSchema });
