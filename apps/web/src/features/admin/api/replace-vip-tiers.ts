import { ADMIN_API, CatalogExchangeSchema, type ReplaceVipTiersRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/replaceVipTiers {platId, tiers}` */
export const replaceVipTiers = (request: ReplaceVipTiersRequest) =>
  apiCall(ADMIN_API.adminReplaceVipTiers, request, { schema: CatalogExchangeSchema });
