import { WithdrawalQueuePageSchema, type WithdrawalStatus } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/withdrawalQueue {status, page, pageSize}`: oldest first. */
export const withdrawalQueueQuery = (status: WithdrawalStatus, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'withdrawals', status, page, pageSize],
    queryFn: () =>
      apiCall(
        '/elex/admin/withdrawalQueue',
        { status, page, pageSize },
        { schema: WithdrawalQueuePageSchema },
      ),
    placeholderData: keepPreviousData,
  });

export const useWithdrawalQueue = (status: WithdrawalStatus, page: number, pageSize: number) =>
  useQuery(withdrawalQueueQuery(status, page, pageSize));
