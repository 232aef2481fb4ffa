import {
  API,
  type CashbackEstimateRequest,
  type CashbackEstimateResponse,
  CashbackEstimateResponseSchema,
} from '@elex/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `POST /elex/exchange/estimate`: the server applies the contract's formula to every partner's real
 * rates (the same function the contract tests), so the page and any later mail agree to the micro-USDT.
 */
function estimateCashback(request: CashbackEstimateRequest): Promise<CashbackEstimateResponse> {
  return apiCall(API.exchangeEstimate, request, { schema: CashbackEstimateResponseSchema });
}

export const useEstimateCashback = () => useMutation({ mutationFn: estimateCashback });
