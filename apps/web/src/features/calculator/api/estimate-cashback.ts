import {
  API,
  type CashbackEstimateRequest,
  type CashbackEstimateResponse,
  CashbackEstimateResponseSchema,
} from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `POST /elex/exchange/estimate`: the server applies the contract's formula to every partner's real
 * rates (the same function the contract tests), so the page and any later mail agree to the micro-USDT.
 */
export function estimateCashback(request: CashbackEstimateRequest): Promise<CashbackEstimateResponse> {
  return apiCall(API.exchangeEstimate, request, { schema: CashbackEstimateResponseSchema });
}
