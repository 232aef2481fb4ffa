import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { requestLocale, success } from '../../http/envelope.js';
import { recordEvent } from './analytics.service.js';

/**
 * Per client address (docs/operations.md, "First-party analytics"): two events a second for a minute is
 * more than a person browsing sends, and it caps what one address can add to `analytics_events`.
 * Events over the limit are refused with 429; the web drops them silently.
 */
export const TRACK_RATE_LIMIT = { max: 120, timeWindow: 60_000 } as const;

export async function analyticsRoutes(app: FastifyInstance) {
  serve(app, ENDPOINTS.track, { config: { rateLimit: TRACK_RATE_LIMIT } }, async (request, payload) => {
    await recordEvent(app.deps.db, app.deps.clock, payload, {
      agent: request.headers['user-agent'] ?? '',
      locale: requestLocale(request),
    });
    return success(request, null);
  });
}
