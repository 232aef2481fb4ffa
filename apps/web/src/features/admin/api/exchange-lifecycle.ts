import {
  ADMIN_API,
  CatalogExchangeSchema,
  type CreateExchangeRequest,
  type ExchangeStatusRequest,
} from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/createExchange {name, abbreviation}`: a new partner, as a draft. */
export const createExchange = (request: CreateExchangeRequest) =>
  apiCall(ADMIN_API.adminCreateExchange, request, { schema: CatalogExchangeSchema });

/** draft -> live, live -> retired, retired -> live. */
export type ExchangeTransition = 'publish' | 'retire' | 'reinstate';

/**
 * The move, from the version of the partner the page shows (`request.updatedAt`): refused
 * (`exchangeStatusEditedMeanwhile`) when another operator changed it since.
 */
export const changeExchangeStatus = (transition: ExchangeTransition, request: ExchangeStatusRequest) =>
  apiCall(`/elex/admin/${transition}Exchange`, request, { schema: CatalogExchangeSchema });
