import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { AUTH_RATE_LIMIT } from '../../http/rate-limits.js';
import { requireMember } from '../auth/auth.guard.js';
import { depositRecord } from './deposit-record.js';
import { cancelWithdrawal } from './withdrawals.decisions.js';
import { requestWithdrawal, verifyWithdrawalCode, withdrawableOf } from './withdrawals.service.js';

/** The member's withdrawal calls (issue 6, docs/withdrawals.md). All member-only: without a session, -5000. */
export async function withdrawalsRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.userWithdrawable, async (request) => {
    const member = await requireMember(request);
    return success(request, await withdrawableOf(deps, member.userId));
  });

  // Checks a code guess: limited per IP like verifyCode2 (the code's own 5 tries hold as well).
  serve(
    app,
    ENDPOINTS.userDepositVerifyEmail,
    { config: { rateLimit: AUTH_RATE_LIMIT } },
    async (request, { authCode }) => {
      const member = await requireMember(request);
      await verifyWithdrawalCode(deps, member, authCode);
      return success(request, null);
    },
  );

  serve(app, ENDPOINTS.userApplyDeposit, async (request, payload) => {
    const member = await requireMember(request);
    const { withdrawal } = await requestWithdrawal(deps, member, {
      requestId: payload.requestId,
      platId: payload.platId,
      uid: payload.uid,
      address: payload.address,
      amount: payload.amount,
      code: payload.authCode,
    });
    return success(request, withdrawal, 'withdrawalSuccessful');
  });

  serve(app, ENDPOINTS.exchangeDepositRecord, async (request, query) => {
    const member = await requireMember(request);
    return success(request, await depositRecord(deps, member.userId, query));
  });

  serve(app, ENDPOINTS.userCancelDeposit, async (request, { id }) => {
    const member = await requireMember(request);
    return success(request, await cancelWithdrawal(deps, member.userId, id), 'withdrawalCancelled');
  });
}
