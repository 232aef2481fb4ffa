import { ADMIN_API, AdminSupportDetailSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/support/verifyOwnership {id}`: the UID's holder is its owner; its hold ends, the request closes. */
export const verifySupportOwnership = (id: string) =>
  apiCall(ADMIN_API.adminSupportVerifyOwnership, { id }, { schema: AdminSupportDetailSchema });
