import { type UpdatePasswordRequest, WithdrawalLockResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';
import { storage } from '../../../shared/storage';

export function updatePassword(request: UpdatePasswordRequest) {
  return apiCall('/elex/user/updatePass', request, { schema: WithdrawalLockResponseSchema });
}

/** Logs out on the server; the token is dropped locally whatever the server says. */
export async function logout() {
  try {
    await apiCall('/elex/user/logout', {}, { silent: true });
  } finally {
    storage.setToken(null);
  }
}

export async function deleteAccount(password: string) {
  await apiCall('/elex/user/deleteAccount', { passwd: password });
  storage.setToken(null);
}
