import { API, VerifyEmailResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/user/verifyEmail`: whether an account uses this e-mail. spec section 8: a failure is logged
 * and the exists flag cleared, so it is silent and answers false.
 */
export async function emailExists(email: string): Promise<boolean> {
  try {
    const { hasEmail } = await apiCall(
      API.userVerifyEmail,
      { email },
      { schema: VerifyEmailResponseSchema, silent: true },
    );
    return hasEmail;
  } catch (error) {
    console.warn('e-mail check failed', error);
    return false;
  }
}
