import { DepositRecordPageSchema, type DepositRecordRequest } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/exchange/depositRecord`: the member's withdrawals, newest first. */
export const withdrawalsQuery = (request: DepositRecordRequest) =>
  queryOptions({
    queryKey: ['me', 'withdrawals', request],
    queryFn: () => apiCall('/elex/exchange/depositRecord', request, { schema: DepositRecordPageSchema }),
    placeholderData: keepPreviousData,
  });

export const useWithdrawals = (request: DepositRecordRequest) => useQuery(withdrawalsQuery(request));
