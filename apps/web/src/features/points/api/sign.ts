import { API, SignResultSchema, State } from '@elex/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../../shared/api/api-client';
import { signHistoryKey } from './get-sign-history';
import { signStatusQuery } from './get-sign-status';

/** Query keys whose data a check-in changes (balances, history, the calendar). */
const AFTER_CHECK_IN = [
  signHistoryKey,
  ['points', 'history'],
  ['points', 'tasks'],
  ['me', 'profile'],
] as const;

/**
 * `/elex/activity/sign`. Silent in the client: the page shows the spec's 'Check-in successful' or
 * 'Check-in failed'. Either way a known "done today" goes straight into the sign-status cache, so the
 * top bar's red dot disappears without a reload; the rest refetches.
 */
export function useCheckIn() {
  const client = useQueryClient();
  const markSigned = async () => {
    client.setQueryData(signStatusQuery.queryKey, { isSignToday: true });
    await Promise.all(AFTER_CHECK_IN.map((queryKey) => client.invalidateQueries({ queryKey })));
  };
  return useMutation({
    mutationFn: () => apiCall(API.activitySign, {}, { schema: SignResultSchema, silent: true }),
    onSuccess: markSigned,
    onError: async (error) => {
      // 'Already Checked In' (another tab or device did it): today is done all the same.
      if (error instanceof ApiError && error.state === State.Refused) await markSigned();
    },
  });
}
