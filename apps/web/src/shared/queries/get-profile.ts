import { API, ProfileSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../api/api-client';

export const profileQuery = queryOptions({
  queryKey: ['me', 'profile'],
  queryFn: () => apiCall(API.userProfile, {}, { schema: ProfileSchema }),
});

export const useProfile = () => useQuery(profileQuery);
