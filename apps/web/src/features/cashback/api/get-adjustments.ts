import { AdjustmentPageSchema, API, type CorrectionAccount } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** A page of the adjustments section; the export buttons read its first page's total (one request). */
export const ADJUSTMENTS_PAGE_SIZE = 10;

/**
 * Which corrections: the account's, or (cashback only) one exchange's UIDs' (`platId`) or one UID's
 * (`platId` and `uid`).
 */
export interface AdjustmentFilter {
  account: CorrectionAccount;
  platId?: number | undefined;
  uid?: string | undefined;
}

/** The filter as sent (and as the query key): no `platId`/`uid` keys when not given. */
const bodyOf = ({ account, platId, uid }: AdjustmentFilter) => ({
  account,
  ...(platId === undefined ? {} : { platId }),
  ...(uid === undefined ? {} : { uid }),
});

/**
 * `/elex/user/seeAdjustments {account, platId?, uid?, page, pageSize}`: our team's corrections, newest
 * first. The previous page stays shown while the next loads, not another filter's list.
 */
export const useAdjustments = (filter: AdjustmentFilter, page: number, pageSize: number) => {
  const body = bodyOf(filter);
  return useQuery(
    queryOptions({
      queryKey: ['me', 'adjustments', body, page, pageSize],
      queryFn: () =>
        apiCall(API.userSeeAdjustments, { ...body, page, pageSize }, { schema: AdjustmentPageSchema }),
      placeholderData: (previous, previousQuery) =>
        JSON.stringify(previousQuery?.queryKey[2]) === JSON.stringify(body)
          ? keepPreviousData(previous)
          : undefined,
    }),
  );
};

/**
 * One page of the corrections of `account` (of one exchange's UIDs when `platId` is given), for an
 * export (fetchAllPages).
 */
export const fetchAdjustmentPage = (filter: AdjustmentFilter) => (page: number, pageSize: number) =>
  apiCall(API.userSeeAdjustments, { ...bodyOf(filter), page, pageSize }, { schema: AdjustmentPageSchema });
