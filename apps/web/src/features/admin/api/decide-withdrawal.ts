import type { ApproveWithdrawalRequest, RejectWithdrawalRequest } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/approveWithdrawal {id, txHash}`: paid on chain -> completed; the member is mailed. */
export const approveWithdrawal = (request: ApproveWithdrawalRequest) =>
  apiCall('/elex/admin/approveWithdrawal', request);

/** `/elex/admin/rejectWithdrawal {id, reason}`: -> failed, the funds return; the member is mailed. */
export const rejectWithdrawal = (request: RejectWithdrawalRequest) =>
  apiCall('/elex/admin/rejectWithdrawal', request);
