import { CatalogExchangeSchema, type ReplaceVipTiersRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/replaceVipTiers {platId, tiers}` */
export const replaceVipTiers = (request: ReplaceVipTiersRequest) =>
  apiCall('/elex/admin/replaceVipTiers', request, { schema: CatalogExchangeSchema });
