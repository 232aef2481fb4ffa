import { ADMIN_API, AdminSupportDetailSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/admin/support/moveBinding {id}`: a dispute decided for the claimant; the UID and its balance
 * move to them and the request closes. Refused while a withdrawal of the UID is under review.
 */
export const moveSupportBinding = (id: string) =>
  apiCall(ADMIN_API.adminSupportMoveBinding, { id }, { schema: AdminSupportDetailSchema });
