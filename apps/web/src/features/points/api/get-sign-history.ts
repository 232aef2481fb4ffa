import { API, SignHistoryResponseSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiCall } from '../../../shared/api/api-client';
import { refreshAtCheckInDayEnd } from './check-in-day';
import { signStatusQuery } from './get-sign-status';

export const signHistoryKey = ['points', 'sign-history'] as const;

/** `/elex/activity/signHistory`: a month's check-ins (the current UTC month when `month` is undefined). */
const signHistoryQuery = (month: string | undefined) =>
  queryOptions({
    queryKey: [...signHistoryKey, month ?? 'current'],
    queryFn: () =>
      apiCall(API.activitySignHistory, month ? { month } : {}, { schema: SignHistoryResponseSchema }),
    placeholderData: keepPreviousData,
    // Every month's answer carries today and whether it is done; both change at the day's end.
    ...refreshAtCheckInDayEnd,
  });

/** The calendar; it also tells the top bar's red dot what it learnt about today. */
export function useSignHistory(month: string | undefined) {
  const client = useQueryClient();
  const query = useQuery(signHistoryQuery(month));
  const isSignToday = query.data?.isSignToday;
  useEffect(() => {
    if (isSignToday !== undefined) client.setQueryData(signStatusQuery.queryKey, { isSignToday });
  }, [client, isSignToday]);
  return query;
}
