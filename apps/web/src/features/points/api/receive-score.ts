import { API, ReceiveScoreResponseSchema } from '@elex/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';
import { taskDetailQuery } from './get-task-detail';

/** `/elex/exchange/receiveScore`: silent; the page shows 'Claim Successful' or the server's reason. */
export function useClaimTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (taskId: string) =>
      apiCall(API.exchangeReceiveScore, { taskId }, { schema: ReceiveScoreResponseSchema, silent: true }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: taskDetailQuery.queryKey }),
        client.invalidateQueries({ queryKey: ['points', 'history'] }),
        client.invalidateQueries({ queryKey: ['me', 'profile'] }),
      ]),
  });
}
