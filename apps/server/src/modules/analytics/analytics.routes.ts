import { TrackRequestSchema } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { requestLocale, success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { recordEvent } from './analytics.service.js';

export async function analyticsRoutes(app: FastifyInstance) {
  app.post('/track', async (request) => {
    const payload = parsePayload(TrackRequestSchema, request.body);
    await recordEvent(app.deps.db, app.deps.clock, payload, {
      agent: request.headers['user-agent'] ?? '',
      locale: requestLocale(request),
    });
    return success(request, null);
  });
}
