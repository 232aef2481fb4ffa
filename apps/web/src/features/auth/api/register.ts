import { API, type RegisterRequest, TokenResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

export function register(request: RegisterRequest) {
  return apiCall(API.userRegister, request, { schema: TokenResponseSchema });
}
