import {
  API,
  type DeleteAccountRequest,
  type UpdatePasswordRequest,
  WithdrawalLockResponseSchema,
} from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';
import { storage } from '../../../shared/storage';

export function updatePassword(request: UpdatePasswordRequest) {
  return apiCall(API.userUpdatePass, request, { schema: WithdrawalLockResponseSchema });
}

/**
 * Ends the session on the server, then here whatever the server said (it may be unreachable or the
 * session already gone): logging out must never fail for the member.
 */
export async function logout() {
  await apiCall(API.userLogout, {}, { silent: true }).catch(() => undefined);
  storage.setToken(null, { byMember: true });
}

/** `forfeitTotal`: the USDT the dialog showed would be lost; the server refuses if that changed. */
export async function deleteAccount({ password, forfeitTotal }: { password: string; forfeitTotal: string }) {
  const request: DeleteAccountRequest = { passwd: password, forfeitTotal };
  await apiCall(API.userDeleteAccount, request);
  storage.setToken(null, { byMember: true });
}
