import {
  ApplyDepositRequestSchema,
  CancelDepositRequestSchema,
  type DepositRecordPage,
  DepositRecordRequestSchema,
  DepositVerifyEmailRequestSchema,
} from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { AUTH_RATE_LIMIT } from '../../http/rate-limits.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { payoutProgress } from '../payouts/payouts.service.js';
import {
  cancelWithdrawal,
  memberWithdrawals,
  requestWithdrawal,
  verifyWithdrawalCode,
  withdrawableOf,
} from './withdrawals.service.js';

/** The member's withdrawal calls (issue 6, docs/withdrawals.md). All member-only: without a session, -5000. */
export async function withdrawalsRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const memberCall = { preHandler: memberOnly };

  app.post('/user/withdrawable', memberCall, async (request) => {
    const member = await requireMember(request);
    return success(request, await withdrawableOf(deps, member.userId));
  });

  // Checks a code guess: limited per IP like verifyCode2 (the code's own 5 tries hold as well).
  app.post(
    '/user/depositVerifyEmail',
    { ...memberCall, config: { rateLimit: AUTH_RATE_LIMIT } },
    async (request) => {
      const member = await requireMember(request);
      const { authCode } = parsePayload(DepositVerifyEmailRequestSchema, request.body);
      await verifyWithdrawalCode(deps, member, authCode);
      return success(request, null);
    },
  );

  app.post('/user/applyDeposit', memberCall, async (request) => {
    const member = await requireMember(request);
    const payload = parsePayload(ApplyDepositRequestSchema, request.body);
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

  app.post('/exchange/depositRecord', memberCall, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(DepositRecordRequestSchema, request.body);
    const page = await memberWithdrawals(deps, member.userId, query);
    const progress = await payoutProgress(
      deps,
      page.records.map((record) => Number(record.id)),
    );
    const records = page.records.map((record) => ({
      ...record,
      payout: progress.get(Number(record.id)) ?? null,
    }));
    return success(request, { ...page, records } satisfies DepositRecordPage);
  });

  app.post('/user/cancelDeposit', memberCall, async (request) => {
    const member = await requireMember(request);
    const { id } = parsePayload(CancelDepositRequestSchema, request.body);
    return success(request, await cancelWithdrawal(deps, member.userId, id), 'withdrawalCancelled');
  });
}
