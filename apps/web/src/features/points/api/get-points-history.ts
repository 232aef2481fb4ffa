import { API, PointsHistorySchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/activity/pointsHistory`: the member's points entries, newest first, with the balances. */
const pointsHistoryQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['points', 'history', page, pageSize],
    queryFn: () => apiCall(API.activityPointsHistory, { page, pageSize }, { schema: PointsHistorySchema }),
    placeholderData: keepPreviousData,
  });

export const usePointsHistory = (page: number, pageSize: number) =>
  useQuery(pointsHistoryQuery(page, pageSize));
