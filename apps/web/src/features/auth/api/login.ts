import { type LoginRequest, TokenResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

export function login(request: LoginRequest) {
  return apiCall('/elex/user/login', request, { schema: TokenResponseSchema });
}
