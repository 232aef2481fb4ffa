import { API, DepositRecordPageSchema, type DepositRecordRequest } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/**
 * How often the list asks again while one of its withdrawals is on its way on chain, so the member
 * watches sent -> confirming n of m -> completed without reloading (a Polygon block is about 2 s).
 */
const PAYOUT_REFRESH_MS = 5_000;

/** `/elex/exchange/depositRecord`: the member's withdrawals, newest first. */
const withdrawalsQuery = (request: DepositRecordRequest) =>
  queryOptions({
    queryKey: ['me', 'withdrawals', request],
    queryFn: () => apiCall(API.exchangeDepositRecord, request, { schema: DepositRecordPageSchema }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.records.some((record) => record.status === 'pending' && record.payout !== null)
        ? PAYOUT_REFRESH_MS
        : false,
  });

export const useWithdrawals = (request: DepositRecordRequest) => useQuery(withdrawalsQuery(request));
