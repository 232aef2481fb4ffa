// A bare Fastify (no plugins, no database) answering the recorded requests with the same bytes: what
// the framework alone costs, and the reference for start time and memory.
import Fastify from 'fastify';
import { loadRecordedAnswers, pickVariant, reportPort } from './replay.mjs';

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
const routes = process.argv[2] ? loadRecordedAnswers(process.argv[2]) : new Map();
for (const [key, variants] of routes) {
  const [method, url] = key.split(' ');
  app.route({
    method,
    url,
    handler: (request, reply) => {
      const variant = pickVariant(variants, request.headers['accept-encoding']);
      reply.headers(variant.headers).send(variant.body);
    },
  });
}
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
reportPort(app.server.address().port);
