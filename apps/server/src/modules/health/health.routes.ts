import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/**
 * `GET /healthz`: the process answers and the database answers (503 when it does not). `clock` is the
 * last comparison of this instance's clock with the database's (null before the first, at start):
 * `skewed` above ALERT_CLOCK_SKEW_MS. A skewed clock still answers 200: the instance serves, and a
 * balancer taking every instance out because the database's clock moved would stop the whole site.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_request, reply) => {
    try {
      await app.deps.db.execute(sql`select 1`);
      const reading = app.clockSkew.latest;
      return {
        status: 'ok',
        database: app.deps.databaseKind,
        clock: reading && {
          skewMs: reading.skewMs,
          skewed: reading.skewed,
          thresholdMs: app.deps.config.alerts.clockSkewMs,
          measuredAt: reading.measuredAt,
        },
      };
    } catch (error) {
      app.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
