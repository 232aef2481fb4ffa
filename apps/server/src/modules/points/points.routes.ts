import { SignHistoryRequestSchema } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { checkIn, checkInHistory, isSignedToday } from './check-in.service.js';

/** Daily check-in calls (spec section 7). */
export async function pointsRoutes(app: FastifyInstance) {
  app.post('/user/isSignTody', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    return success(request, { isSignToday: await isSignedToday(app.deps, member.userId) });
  });

  app.post('/activity/sign', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const result = await checkIn(app.deps, member.userId);
    return success(request, result, 'checkInSuccessful');
  });

  app.post('/activity/signHistory', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const { month } = parsePayload(SignHistoryRequestSchema, request.body);
    return success(request, await checkInHistory(app.deps, member.userId, month));
  });
}
