import { ADMIN_API, WithdrawalQueuePageSchema, type WithdrawalStatus } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';
import { PAYOUT_WATCH_MS } from './payouts';

/**
 * `/elex/admin/withdrawalQueue {status, page, pageSize}`: oldest first; asked again every few seconds
 * while `watching` (a payout of the page is on its way).
 */
const withdrawalQueueQuery = (status: WithdrawalStatus, page: number, pageSize: number, watching = false) =>
  queryOptions({
    queryKey: ['admin', 'withdrawals', status, page, pageSize],
    queryFn: () =>
      apiCall(
        ADMIN_API.adminWithdrawalQueue,
        { status, page, pageSize },
        { schema: WithdrawalQueuePageSchema },
      ),
    placeholderData: keepPreviousData,
    refetchInterval: watching ? PAYOUT_WATCH_MS : false,
  });

export const useWithdrawalQueue = (
  status: WithdrawalStatus,
  page: number,
  pageSize: number,
  watching = false,
) => useQuery(withdrawalQueueQuery(status, page, pageSize, watching));
