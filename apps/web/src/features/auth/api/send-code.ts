import { type CodeModule, VerifyCodeResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/verifyCode`: e-mails a 6-digit code for login (0), register (1) or reset (2). */
export function sendCode(module: CodeModule, email?: string) {
  return apiCall('/elex/user/verifyCode', email === undefined ? { module } : { module, email }, {
    schema: VerifyCodeResponseSchema,
  });
}
