import { type RegisterRequest, TokenResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

export function register(request: RegisterRequest) {
  return apiCall('/elex/user/register', request, { schema: TokenResponseSchema });
}
