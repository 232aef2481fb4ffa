import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { requireMember } from '../auth/auth.guard.js';
import { pointsHistory } from './points-history.service.js';

/** The member's points ledger for /mypage/point (docs/engagement.md). */
export async function pointsHistoryRoutes(app: FastifyInstance) {
  serve(app, ENDPOINTS.activityPointsHistory, async (request, query) => {
    const member = await requireMember(request);
    return success(request, await pointsHistory(app.deps, member.userId, query));
  });
}
