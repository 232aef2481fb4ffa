import { ADMIN_API, CatalogExchangeSchema, type UpdateExchangeRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/updateExchange`: every field at once; the home page shows it at once. */
export const updateExchange = (request: UpdateExchangeRequest) =>
  apiCall(ADMIN_API.adminUpdateExchange, request, { schema: CatalogExchangeSchema });
