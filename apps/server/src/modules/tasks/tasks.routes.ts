import { FetchTaskStatusRequestSchema, ReceiveScoreRequestSchema } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { checkTaskMembership, claimTask, taskDetail } from './tasks.service.js';

/** Each check may call Telegram or Discord: a member cannot make us hammer their APIs. */
const MEMBERSHIP_RATE_LIMIT = { max: 10, timeWindow: 60_000 } as const;

/** Points tasks (spec section 7; docs/engagement.md). All member-only. */
export async function tasksRoutes(app: FastifyInstance) {
  const deps = app.deps;

  app.post('/exchange/getExchangeTaskDetail', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    return success(request, await taskDetail(deps, member.userId));
  });

  app.post('/exchange/receiveScore', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const { taskId } = parsePayload(ReceiveScoreRequestSchema, request.body);
    return success(request, await claimTask(deps, member.userId, taskId), 'claimSuccessful');
  });

  app.post(
    '/exchange/fetchMetiaTaskStatus',
    { preHandler: memberOnly, config: { rateLimit: MEMBERSHIP_RATE_LIMIT } },
    async (request) => {
      const member = await requireMember(request);
      const input = parsePayload(FetchTaskStatusRequestSchema, request.body);
      return success(request, await checkTaskMembership(deps, member.userId, input, request.log));
    },
  );
}
