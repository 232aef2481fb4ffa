import { API, InviteLinkSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

/** `/elex/user/getInviteLink`: the member's code, the registration link with it and the reward tiers. */
const inviteLinkQuery = queryOptions({
  queryKey: ['me', 'invite-link'],
  queryFn: () => apiCall(API.userGetInviteLink, {}, { schema: InviteLinkSchema }),
  staleTime: 5 * 60_000,
});

export const useInviteLink = () => useQuery(inviteLinkQuery);
