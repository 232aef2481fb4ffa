import { ADMIN_API, MemberLedgerPageSchema } from '@elex/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/memberLedger {userId, page, pageSize}` */
const memberLedgerQuery = (userId: number, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['admin', 'member', userId, 'ledger', page, pageSize],
    queryFn: () =>
      apiCall(ADMIN_API.adminMemberLedger, { userId, page, pageSize }, { schema: MemberLedgerPageSchema }),
    placeholderData: keepPreviousData,
  });

export const useMemberLedger = (userId: number, page: number, pageSize: number) =>
  useQuery(memberLedgerQuery(userId, page, pageSize));
