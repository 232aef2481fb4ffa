import { API, MyFriendsSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/myFriends`: friends who registered with the member's code, newest first, paged. */
const myFriendsQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['me', 'friends', page, pageSize],
    queryFn: () => apiCall(API.userMyFriends, { page, pageSize }, { schema: MyFriendsSchema }),
    placeholderData: keepPreviousData,
  });

export const useMyFriends = (page: number, pageSize: number) => useQuery(myFriendsQuery(page, pageSize));
