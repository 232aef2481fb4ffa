import { API } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/user/changePasswd`: sets a new password with the e-mailed code (sent as a number, spec
 * section 5). Silent: the page shows a failure as 'Password reset failed' with the reason.
 */
export function resetPassword(email: string, code: string, password: string) {
  return apiCall(API.userChangePasswd, { email, authCode: Number(code), passwd: password }, { silent: true });
}
