import { API } from '@elex/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';
import { taskDetailQuery } from './get-task-detail';

/** `/elex/user/bindXmeUid` (the bindings module's call), for the 'bind the XME account' task. */
export function useBindXmeUid() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (xmeUid: string) => apiCall(API.userBindXmeUid, { xmeUid }),
    onSuccess: () => client.invalidateQueries({ queryKey: taskDetailQuery.queryKey }),
  });
}
