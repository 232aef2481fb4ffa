import { ADMIN_API, AlertPreferencesSchema, type SaveAlertPreferencesRequest } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/alertPreferences`: the calling operator's own alert switches. */
export const alertPreferencesQuery = queryOptions({
  queryKey: ['admin', 'alertPreferences'],
  queryFn: () => apiCall(ADMIN_API.adminAlertPreferences, {}, { schema: AlertPreferencesSchema }),
});

export const useAlertPreferences = () => useQuery(alertPreferencesQuery);

/** `/elex/admin/saveAlertPreferences` */
export const saveAlertPreferences = (request: SaveAlertPreferencesRequest) =>
  apiCall(ADMIN_API.adminSaveAlertPreferences, request, { schema: AlertPreferencesSchema });
