import { API, SupportDetailSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/support/detail {id}`: one of the member's requests with its thread (images as data: URLs). */
export const supportRequestQuery = (id: string) =>
  queryOptions({
    queryKey: ['me', 'support', 'detail', id],
    queryFn: () => apiCall(API.supportDetail, { id }, { schema: SupportDetailSchema }),
  });

export const useSupportRequest = (id: string) => useQuery(supportRequestQuery(id));
