import { API, RewardPageSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/seeRewardData`: event rewards (invite bonuses ...), newest first. */
export const fetchRewardPage = (page: number, pageSize: number) =>
  apiCall(API.userSeeRewardData, { page, pageSize }, { schema: RewardPageSchema });

export const useRewardRecords = (page: number, pageSize: number) =>
  useQuery(
    queryOptions({
      queryKey: ['me', 'rewards', page, pageSize],
      queryFn: () => fetchRewardPage(page, pageSize),
      placeholderData: keepPreviousData,
    }),
  );
