import { API, WithdrawalSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/user/cancelDeposit`: takes back a withdrawal still under review; the funds return. */
export function cancelDeposit(id: string) {
  return apiCall(API.userCancelDeposit, { id }, { schema: WithdrawalSchema });
}
