import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { requireMember } from '../auth/auth.guard.js';
import { checkIn, checkInHistory, isSignedToday } from './check-in.service.js';

/** Daily check-in calls (spec section 7). */
export async function pointsRoutes(app: FastifyInstance) {
  serve(app, ENDPOINTS.userIsSignTody, async (request) => {
    const member = await requireMember(request);
    return success(request, { isSignToday: await isSignedToday(app.deps, member.userId) });
  });

  serve(app, ENDPOINTS.activitySign, async (request) => {
    const member = await requireMember(request);
    const result = await checkIn(app.deps, member.userId);
    return success(request, result, 'checkInSuccessful');
  });

  serve(app, ENDPOINTS.activitySignHistory, async (request, { month }) => {
    const member = await requireMember(request);
    return success(request, await checkInHistory(app.deps, member.userId, month));
  });
}
