import { ProfileSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

export const profileQuery = queryOptions({
  queryKey: ['me', 'profile'],
  queryFn: () => apiCall('/elex/user/profile', {}, { schema: ProfileSchema }),
});

export const useProfile = () => useQuery(profileQuery);
