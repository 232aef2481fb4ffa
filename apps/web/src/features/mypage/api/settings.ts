import { API, type Settings, SettingsSchema } from '@elex/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

const settingsQuery = queryOptions({
  queryKey: ['me', 'settings'],
  queryFn: () => apiCall(API.userGetSettings, {}, { schema: SettingsSchema }),
});

export const useSettings = () => useQuery(settingsQuery);

/** Saving is silent in the client: the page shows the spec's own success and failure messages. */
export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: Settings) => apiCall(API.userSaveSettings, settings, { silent: true }),
    onSuccess: (_, settings) => client.setQueryData(settingsQuery.queryKey, settings),
  });
}
