import { API, type LoginRequest, TokenResponseSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

export function login(request: LoginRequest) {
  return apiCall(API.userLogin, request, { schema: TokenResponseSchema });
}
