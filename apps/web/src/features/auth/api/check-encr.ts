import { API, EncrRefusalContentSchema } from '@elex/contract';
import { ApiError, apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/user/checkEncr`: whether the exclusive sign-up code can be used now. Silent: the register
 * page marks the field instead of a toast. Resolves with the refusal's message, or null when the code
 * is good or the check could not be made (the code request checks again before any mail).
 */
export async function encrRefusal(encr: string): Promise<string | null> {
  try {
    await apiCall(API.userCheckEncr, { encr }, { silent: true });
    return null;
  } catch (error) {
    return encrRefusalOf(error);
  }
}

/** The message of a refusal because of the encr code (code request, register), or null for any other failure. */
export function encrRefusalOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.kind !== 'refused') return null;
  return EncrRefusalContentSchema.safeParse(error.content).success ? error.message : null;
}
