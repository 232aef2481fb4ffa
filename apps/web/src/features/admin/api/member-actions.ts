import { type MemberActionRequest, MemberDetailSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** The member page's actions with a reason (issue 12); each answers the member's detail again. */
export type MemberAction = 'suspendMember' | 'reinstateMember' | 'liftWithdrawalLock';

export const memberAction = (action: MemberAction, request: MemberActionRequest) =>
  apiCall(`/elex/admin/${action}`, request, { schema: MemberDetailSchema });
