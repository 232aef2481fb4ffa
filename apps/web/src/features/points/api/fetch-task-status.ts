import { API, type FetchTaskStatusRequest, FetchTaskStatusResponseSchema } from '@elex/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';
import { taskDetailQuery } from './get-task-detail';

/** `/elex/exchange/fetchMetiaTaskStatus`: asks the community's bot whether the member joined. */
export function useVerifyMembership() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: FetchTaskStatusRequest) =>
      apiCall(API.exchangeFetchMetiaTaskStatus, request, { schema: FetchTaskStatusResponseSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: taskDetailQuery.queryKey }),
  });
}
