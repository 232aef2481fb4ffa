import { API } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';
import { refreshAtCheckInDayEnd, untilNextCheckInDay } from './check-in-day';

// Checked by hand rather than with a zod schema: this call runs in the app shell on every page, and
// keeping zod out of the shell keeps it out of the first download.
function toSignStatus(content: unknown): { isSignToday: boolean } {
  const value = (content as { isSignToday?: unknown } | null)?.isSignToday;
  if (typeof value !== 'boolean') throw new Error('isSignToday missing');
  return { isSignToday: value };
}

export const signStatusQuery = queryOptions({
  queryKey: ['points', 'sign-status'],
  queryFn: async () => toSignStatus(await apiCall(API.userIsSignTody, {}, { silent: true })),
  retry: false,
  // Never fresh past the day's end: a page opened after midnight asks again.
  staleTime: () => Math.min(60_000, untilNextCheckInDay()),
  ...refreshAtCheckInDayEnd,
});

/**
 * Today's check-in status for the points icon: `undefined` while unknown (not logged in, loading or
 * failed), so the red dot shows only when it is known and false (spec section 2).
 */
export function useIsSignedToday(enabled: boolean): boolean | undefined {
  const query = useQuery({ ...signStatusQuery, enabled });
  return enabled && query.isSuccess ? query.data.isSignToday : undefined;
}
