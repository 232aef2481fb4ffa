import { ADMIN_API, CatalogSchema } from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/catalog`: every partner with every field, its VIP table and activities. */
export const catalogQuery = queryOptions({
  queryKey: ['admin', 'catalog'],
  queryFn: () => apiCall(ADMIN_API.adminCatalog, {}, { schema: CatalogSchema }),
});

export const useCatalog = () => useQuery(catalogQuery);
