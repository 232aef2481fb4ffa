import { ADMIN_API, AdminSupportDetailSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/support/close {id, text?}`: closed without change; a dispute's freeze ends; mailed. */
export const closeSupportRequest = (request: { id: string; text?: string }) =>
  apiCall(ADMIN_API.adminSupportClose, request, { schema: AdminSupportDetailSchema });
