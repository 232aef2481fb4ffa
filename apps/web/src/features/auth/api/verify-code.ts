import type { CodeModule } from '@elex/contract';
import { API } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/verifyCode2`: checks a code without using it up (reset, step 2). The code goes as a number. */
export function verifyCode(email: string, module: CodeModule, code: string) {
  return apiCall(API.userVerifyCode2, { email, module, authCode: Number(code) });
}
