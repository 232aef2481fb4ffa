import { ADMIN_API, MemberDetailSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/memberDetail {userId}` */
const memberDetailQuery = (userId: number) =>
  queryOptions({
    queryKey: ['admin', 'member', userId],
    queryFn: () => apiCall(ADMIN_API.adminMemberDetail, { userId }, { schema: MemberDetailSchema }),
  });

export const useMemberDetail = (userId: number) => useQuery(memberDetailQuery(userId));
