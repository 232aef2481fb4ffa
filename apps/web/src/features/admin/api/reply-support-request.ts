import { ADMIN_API, AdminSupportDetailSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/support/reply {id, text}`: -> answered; the member is mailed. */
export const replySupportRequest = (request: { id: string; text: string }) =>
  apiCall(ADMIN_API.adminSupportReply, request, { schema: AdminSupportDetailSchema });
