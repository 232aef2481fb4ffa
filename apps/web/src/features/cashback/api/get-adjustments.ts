import { AdjustmentPageSchema, API, type CorrectionAccount } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** A page of the adjustments section; the export buttons read its first page's total (one request). */
export const ADJUSTMENTS_PAGE_SIZE = 10;

/** `/elex/user/seeAdjustments {account, platId?, page, pageSize}`: our team's corrections, newest first. */
export const useAdjustments = (account: CorrectionAccount, page: number, pageSize: number) =>
  useQuery(
    queryOptions({
      queryKey: ['me', 'adjustments', account, page, pageSize],
      queryFn: () =>
        apiCall(API.userSeeAdjustments, { account, page, pageSize }, { schema: AdjustmentPageSchema }),
      placeholderData: keepPreviousData,
    }),
  );

/**
 * One page of the corrections of `account` (of one exchange's UIDs when `platId` is given), for an
 * export (fetchAllPages).
 */
export const fetchAdjustmentPage =
  (filter: { account: CorrectionAccount; platId?: number | undefined }) => (page: number, pageSize: number) =>
    apiCall(API.userSeeAdjustments, { ...filter, page, pageSize }, { schema: AdjustmentPageSchema });
