import { PointsHistoryRequestSchema } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { pointsHistory } from './points-history.service.js';

/** The member's points ledger for /mypage/point (docs/engagement.md). */
export async function pointsHistoryRoutes(app: FastifyInstance) {
  app.post('/activity/pointsHistory', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(PointsHistoryRequestSchema, request.body);
    return success(request, await pointsHistory(app.deps, member.userId, query));
  });
}
