import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { requireMember } from '../auth/auth.guard.js';
import { checkTaskMembership, claimTask, taskDetail } from './tasks.service.js';

/** Each check may call Telegram or Discord: a member cannot make us hammer their APIs. */
const MEMBERSHIP_RATE_LIMIT = { max: 10, timeWindow: 60_000 } as const;

/** Points tasks (spec section 7; docs/engagement.md). All member-only. */
export async function tasksRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.exchangeGetExchangeTaskDetail, async (request) => {
    const member = await requireMember(request);
    return success(request, await taskDetail(deps, member.userId));
  });

  serve(app, ENDPOINTS.exchangeReceiveScore, async (request, { taskId }) => {
    const member = await requireMember(request);
    return success(request, await claimTask(deps, member.userId, taskId), 'claimSuccessful');
  });

  serve(
    app,
    ENDPOINTS.exchangeFetchMetiaTaskStatus,
    { config: { rateLimit: MEMBERSHIP_RATE_LIMIT } },
    async (request, input) => {
      const member = await requireMember(request);
      return success(request, await checkTaskMembership(deps, member.userId, input, request.log));
    },
  );
}
