import { AdjustmentPageSchema, API, type CorrectionAccount } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/seeAdjustments {account, page, pageSize}`: our team's corrections, newest first. */
export const useAdjustments = (account: CorrectionAccount, page: number, pageSize: number) =>
  useQuery(
    queryOptions({
      queryKey: ['me', 'adjustments', account, page, pageSize],
      queryFn: () =>
        apiCall(API.userSeeAdjustments, { account, page, pageSize }, { schema: AdjustmentPageSchema }),
      placeholderData: keepPreviousData,
    }),
  );

/** One page of the corrections of `account`, for an export (fetchAllPages). */
export const fetchAdjustmentPage = (account: CorrectionAccount) => (page: number, pageSize: number) =>
  apiCall(API.userSeeAdjustments, { account, page, pageSize }, { schema: AdjustmentPageSchema });
