import { API, type CodeModule, VerifyCodeResponseSchema } from '@elex/contract';
import { apiCall } from './api-client';

/**
 * `/elex/user/verifyCode`: e-mails a 6-digit code for login (0), register (1), reset (2) or the
 * member's own address (3). Register sends the visitor's encr and invite code too, so a promotion
 * code that cannot be used or an unknown invite code is refused before any mail. Silent: `useRequestCode` words the outcome (a refusal inside the 60 s
 * cool-down simply reopens the dialog for the code already mailed).
 */
export function sendCode(module: CodeModule, email?: string, encr?: string, inviteCode?: string) {
  return apiCall(
    API.userVerifyCode,
    {
      module,
      ...(email === undefined ? {} : { email }),
      ...(encr ? { encr } : {}),
      ...(inviteCode ? { code: inviteCode } : {}),
    },
    { schema: VerifyCodeResponseSchema, silent: true },
  );
}
