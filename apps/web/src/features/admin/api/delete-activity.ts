import { ADMIN_API, type DeleteActivityRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/deleteActivity {id, updatedAt}`: `updatedAt` is the version the confirmation showed. */
export const deleteActivity = (request: DeleteActivityRequest) =>
  apiCall(ADMIN_API.adminDeleteActivity, request);
