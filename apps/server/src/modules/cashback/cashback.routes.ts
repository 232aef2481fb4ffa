import {
  BindingDetailRequestSchema,
  PendingRebateRequestSchema,
  RebateQuerySchema,
  RewardQuerySchema,
} from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { bindingDetail, myInfo, pendingRebates, rebateRecords, rewardRecords } from './cashback.service.js';

/** The member's cashback views (issue 5). All member-only: without a live session, state -5000. */
export async function cashbackRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const memberCall = { preHandler: memberOnly };

  app.post('/user/myInfo', memberCall, async (request) => {
    const member = await requireMember(request);
    return success(request, await myInfo(deps, member.userId));
  });

  app.post('/user/seeRebateByExchangeId', memberCall, async (request) => {
    const member = await requireMember(request);
    const input = parsePayload(BindingDetailRequestSchema, request.body);
    return success(request, await bindingDetail(deps, member.userId, input));
  });

  app.post('/user/seeRebateData', memberCall, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(RebateQuerySchema, request.body);
    return success(request, await rebateRecords(deps, member.userId, query));
  });

  app.post('/exchange/expireRebate', memberCall, async (request) => {
    const member = await requireMember(request);
    const input = parsePayload(PendingRebateRequestSchema, request.body);
    return success(request, await pendingRebates(deps, member.userId, input));
  });

  app.post('/user/seeRewardData', memberCall, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(RewardQuerySchema, request.body);
    return success(request, await rewardRecords(deps, member.userId, query));
  });
}
