import { API, type ApplyDepositRequest, WithdrawalSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/**
 * `/elex/user/applyDeposit`: the withdrawal itself. Silent: the page shows 'Withdrawal failed' with the
 * server's reason in its own dialog. A retry with the same `requestId` answers the same withdrawal.
 */
export function applyDeposit(request: ApplyDepositRequest) {
  return apiCall(API.userApplyDeposit, request, { schema: WithdrawalSchema, silent: true });
}
