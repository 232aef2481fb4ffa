import { API, TaskDetailSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/exchange/getExchangeTaskDetail`: the three groups with the member's state of each task. */
export const taskDetailQuery = queryOptions({
  queryKey: ['points', 'tasks'],
  queryFn: () => apiCall(API.exchangeGetExchangeTaskDetail, {}, { schema: TaskDetailSchema }),
});

export const useTaskDetail = () => useQuery(taskDetailQuery);
