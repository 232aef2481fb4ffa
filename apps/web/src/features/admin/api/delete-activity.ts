import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/deleteActivity {id}` */
export const deleteActivity = (id: number) => apiCall('/elex/admin/deleteActivity', { id });
