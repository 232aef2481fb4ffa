import { ADMIN_API, CatalogExchangeSchema, type CreateExchangeRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/createExchange {name, abbreviation}`: a new partner, as a draft. */
export const createExchange = (request: CreateExchangeRequest) =>
  apiCall(ADMIN_API.adminCreateExchange, request, { schema: CatalogExchangeSchema });

/** draft -> live, live -> retired, retired -> live. */
export type ExchangeTransition = 'publish' | 'retire' | 'reinstate';

export const changeExchangeStatus = (transition: ExchangeTransition, platId: number) =>
  apiCall(`/elex/admin/${transition}Exchange`, { platId }, { schema: CatalogExchangeSchema });
