import { ADMIN_API } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/deleteActivity {id}` */
export const deleteActivity = (id: number) => apiCall(ADMIN_API.adminDeleteActivity, { id });
