import { ADMIN_API, OperatorSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/admin/whoami`: the operator calling. A member hears state 1003 (the console shows its
 * forbidden page); silent, because that answer is the page, not an error to toast.
 */
const whoamiQuery = queryOptions({
  queryKey: ['admin', 'whoami'],
  queryFn: () => apiCall(ADMIN_API.adminWhoami, {}, { schema: OperatorSchema, silent: true }),
  retry: false,
  staleTime: 60_000,
});

export const useWhoami = () => useQuery(whoamiQuery);
