import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { sendSuccessJson, success } from '../../http/envelope.js';
import { requireMember } from '../auth/auth.guard.js';
import {
  bindingDetailJson,
  myInfo,
  pendingRebates,
  rebateRecordsJson,
  rewardRecords,
} from './cashback.service.js';

/** The member's cashback views (issue 5). All member-only: without a live session, state -5000. */
export async function cashbackRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.userMyInfo, async (request) => {
    const member = await requireMember(request);
    return success(request, await myInfo(deps, member.userId));
  });

  // The binding's detail and the records' page as PostgreSQL wrote them, spliced into the envelope.
  serve(app, ENDPOINTS.userSeeRebateByExchangeId, async (request, input, reply) => {
    const member = await requireMember(request);
    return sendSuccessJson(request, reply, await bindingDetailJson(deps, member.userId, input));
  });

  serve(app, ENDPOINTS.userSeeRebateData, async (request, query, reply) => {
    const member = await requireMember(request);
    return sendSuccessJson(request, reply, await rebateRecordsJson(deps, member.userId, query));
  });

  serve(app, ENDPOINTS.exchangeExpireRebate, async (request, input) => {
    const member = await requireMember(request);
    return success(request, await pendingRebates(deps, member.userId, input));
  });

  serve(app, ENDPOINTS.userSeeRewardData, async (request, query) => {
    const member = await requireMember(request);
    return success(request, await rewardRecords(deps, member.userId, query));
  });
}
