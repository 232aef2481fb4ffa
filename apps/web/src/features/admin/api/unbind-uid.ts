import { ADMIN_API, AdminBindingSchema, type UnbindUidRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/unbindUid {userId, platId, uid, reason}`: the member's binding ends; the UID's balance stays with the UID. */
export const unbindUid = (request: UnbindUidRequest) =>
  apiCall(ADMIN_API.adminUnbindUid, request, { schema: AdminBindingSchema });
