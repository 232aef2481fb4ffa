import type { ApproveWithdrawalRequest, RejectWithdrawalRequest } from '@elex/contract';
import { ADMIN_API } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/approveWithdrawal {id, txHash}`: paid on chain -> completed; the member is mailed. */
export const approveWithdrawal = (request: ApproveWithdrawalRequest) =>
  apiCall(ADMIN_API.adminApproveWithdrawal, request);

/** `/elex/admin/rejectWithdrawal {id, reason}`: -> failed, the funds return; the member is mailed. */
export const rejectWithdrawal = (request: RejectWithdrawalRequest) =>
  apiCall(ADMIN_API.adminRejectWithdrawal, request);
