import { API, type CreateSupportRequest, SupportRequestSummarySchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/support/create {kind, platId?, uid?, address?, text, image?}`: a refusal is toasted by the client. */
export const createSupportRequest = (request: CreateSupportRequest) =>
  apiCall(API.supportCreate, request, { schema: SupportRequestSummarySchema });
