import { ADMIN_API, AdminActivitySchema, type SaveActivityRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/saveActivity`: adds an activity (no id) or changes one. */
export const saveActivity = (request: SaveActivityRequest) =>
  apiCall(ADMIN_API.adminSaveActivity, request, { schema: AdminActivitySchema });
