import { API, RebatePageSchema, type RebateQuery } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/seeRebateData`: the member's cashback records, paged and filtered. */
const rebateRecordsQuery = (query: RebateQuery) =>
  queryOptions({
    queryKey: ['me', 'rebates', query],
    queryFn: () => fetchRebatePage(query),
    placeholderData: keepPreviousData,
  });

export const fetchRebatePage = (query: RebateQuery) =>
  apiCall(API.userSeeRebateData, query, { schema: RebatePageSchema });

export const useRebateRecords = (query: RebateQuery) => useQuery(rebateRecordsQuery(query));
