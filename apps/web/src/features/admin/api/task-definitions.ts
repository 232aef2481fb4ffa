import {
  ADMIN_API,
  AdminTaskDefinitionSchema,
  TaskDefinitionListSchema,
  type UpdateTaskDefinitionRequest,
} from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/taskDefinitions`: every points task, disabled ones included. */
export const taskDefinitionsQuery = queryOptions({
  queryKey: ['admin', 'tasks'],
  queryFn: () => apiCall(ADMIN_API.adminTaskDefinitions, {}, { schema: TaskDefinitionListSchema }),
});

export const useTaskDefinitions = () => useQuery(taskDefinitionsQuery);

/** `/elex/admin/updateTaskDefinition` */
export const updateTaskDefinition = (request: UpdateTaskDefinitionRequest) =>
  apiCall(ADMIN_API.adminUpdateTaskDefinition, request, { schema: AdminTaskDefinitionSchema });
