import { API } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/depositVerifyEmail`: checks the e-mailed code without using it up (the request uses it). */
export function verifyDepositCode(code: string) {
  return apiCall(API.userDepositVerifyEmail, { authCode: code });
}
