import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './schema-compilers.js';

describe("Fastify's schema compilers, loaded on first use", () => {
  async function appWithJsonSchemaRoute() {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers } });
    app.post(
      '/sum',
      {
        schema: {
          body: {
            type: 'object',
            required: ['a'],
            properties: { a: { type: 'integer' } },
          },
          response: { 200: { type: 'object', properties: { sum: { type: 'integer' } } } },
        },
      },
      async (request) => ({ sum: (request.body as { a: number }).a + 1, secret: 'not in the schema' }),
    );
    await app.ready();
    return app;
  }

  it('still validate a route that declares a JSON schema body', async () => {
    const app = await appWithJsonSchemaRoute();
    const res = await app.inject({ method: 'POST', url: '/sum', payload: { a: 'two' } });
    expect(res.statusCode).toBe(400);
  });

  it('still serialize an answer by its response schema, leaving out what it does not name', async () => {
    const app = await appWithJsonSchemaRoute();
    const res = await app.inject({ method: 'POST', url: '/sum', payload: { a: 2 } });
    expect(res.json()).toEqual({ sum: 3 });
  });
});
