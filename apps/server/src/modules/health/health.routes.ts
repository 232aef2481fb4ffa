import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** `GET /healthz`: the process answers and the database answers. */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_request, reply) => {
    try {
      await app.deps.db.execute(sql`select 1`);
      return { status: 'ok', database: app.deps.databaseKind };
    } catch (error) {
      app.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
