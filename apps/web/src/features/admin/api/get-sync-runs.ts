import { ADMIN_API, SyncRunListSchema } from '@elex/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/syncRuns {platId?, beforeId?}`: 50 runs at a time, newest first. */
export const useSyncRuns = (platId: number | undefined) =>
  useInfiniteQuery({
    queryKey: ['admin', 'syncRuns', platId ?? 'all'],
    queryFn: ({ pageParam }) =>
      apiCall(
        ADMIN_API.adminSyncRuns,
        { ...(platId ? { platId } : {}), ...(pageParam ? { beforeId: pageParam } : {}) },
        { schema: SyncRunListSchema },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.runs.at(-1)?.id : undefined),
  });
