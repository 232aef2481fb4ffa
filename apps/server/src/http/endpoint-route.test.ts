import { State } from '@elex/contract';
import type { Endpoint } from '@elex/contract/endpoints';
import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { AppDeps } from '../deps.js';
import { AppError } from './app-error.js';
import { sendCachedAnswer } from './encoded-body.js';
import { serve } from './endpoint-route.js';
import { success } from './envelope.js';
import { registerErrorHandler } from './error-handler.js';

/** How a call of the endpoint table becomes a route: guard, body, answer, all from its entry. */
const entry = {
  method: 'POST',
  path: '/elex/sample/add',
  auth: 'member',
  module: 'sample',
  request: z.object({ a: z.number().int(), b: z.coerce.number().int() }),
  response: z.object({ sum: z.number().int() }),
} as const satisfies Endpoint;

async function appWith(env: 'test' | 'production', answer: (sum: number) => unknown = (sum) => ({ sum })) {
  const app = Fastify();
  app.decorate('deps', { config: { env } } as AppDeps);
  const memberOnly = async (request: FastifyRequest) => {
    if (request.headers.token !== 'member') throw new AppError(State.SessionExpired, 'sessionExpired');
  };
  app.decorate('endpointGuards', { member: memberOnly, operator: memberOnly });
  registerErrorHandler(app);
  await app.register(
    async (plugin) => {
      serve(plugin, entry, async (request, body) => success(request, answer(body.a + body.b)));
    },
    { prefix: '/elex/sample' },
  );
  return app;
}

const post = (app: Awaited<ReturnType<typeof appWith>>, payload: unknown, token = 'member') =>
  app.inject({ method: 'POST', url: '/elex/sample/add', headers: { token }, payload: payload as object });

describe('a route served from its endpoint table entry', () => {
  it('hands the handler the body parsed by the request schema', async () => {
    const app = await appWith('test');
    const res = await post(app, { a: 2, b: '3' });
    expect(res.json()).toMatchObject({ state: State.Success, content: { sum: 5 } });
  });

  it('refuses a bad body with a message naming the field, before the handler runs', async () => {
    const app = await appWith('test');
    const res = await post(app, { a: 2.5, b: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: State.ValidationFailed, content: null });
    expect(res.json().message).toContain('a');
  });

  it('guards the call by its auth before reading the body', async () => {
    const app = await appWith('test');
    const res = await post(app, { a: 'not a number' }, 'visitor');
    expect(res.json().state).toBe(State.SessionExpired);
  });

  it('outside production, fails an answer the table does not describe', async () => {
    const app = await appWith('test', (sum) => ({ total: sum }));
    const res = await post(app, { a: 1, b: 1 });
    expect(res.statusCode).toBe(500);
  });

  it('in production, sends the answer as it is', async () => {
    const app = await appWith('production', (sum) => ({ total: sum }));
    const res = await post(app, { a: 1, b: 1 });
    expect(res.json()).toMatchObject({ state: State.Success, content: { total: 2 } });
  });

  it('will not register a call under a plugin whose prefix its path lacks', async () => {
    for (const prefix of ['/elex/other', '/elex/sam']) {
      const app = Fastify();
      app.decorate('deps', { config: { env: 'test' } } as AppDeps);
      app.decorate('endpointGuards', { member: async () => {}, operator: async () => {} });
      await expect(
        app.register(async (plugin) => serve(plugin, entry, async () => null), { prefix }),
      ).rejects.toThrow('/elex/sample/add');
    }
  });

  it('will not register a guarded call without its guard', async () => {
    const app = Fastify();
    app.decorate('deps', { config: { env: 'test' } } as AppDeps);
    app.decorate('endpointGuards', {} as never);
    await expect(
      app.register(async (plugin) => serve(plugin, entry, async () => null), { prefix: '/elex/sample' }),
    ).rejects.toThrow('no member guard');
  });
});

describe('an answer a route sends as cached bytes', () => {
  const cachedEntry = { ...entry, auth: 'public', request: null } as const satisfies Endpoint;

  async function appSending(env: 'test' | 'production', content: unknown) {
    const app = Fastify();
    app.decorate('deps', { config: { env } } as AppDeps);
    app.decorate('endpointGuards', { member: async () => {}, operator: async () => {} });
    registerErrorHandler(app);
    // One Buffer for every request, as a cache keeps it.
    const bytes = Buffer.from(JSON.stringify({ state: State.Success, message: 'OK', content }));
    await app.register(
      async (plugin) => {
        serve(plugin, cachedEntry, async (request, _body, reply) =>
          sendCachedAnswer(request, reply, bytes, 'application/json; charset=utf-8'),
        );
      },
      { prefix: '/elex/sample' },
    );
    return app;
  }
  const call = (app: Awaited<ReturnType<typeof appSending>>, acceptEncoding?: string) =>
    app.inject({
      method: 'POST',
      url: '/elex/sample/add',
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('outside production, is held to the table like a returned answer, on every request', async () => {
    const app = await appSending('test', { total: 2 });
    expect((await call(app)).statusCode).toBe(500);
    expect((await call(app)).statusCode).toBe(500);
  });

  it('outside production, goes out when the table describes it, plain or compressed', async () => {
    const app = await appSending('test', { sum: 2 });
    const plain = await call(app);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({ content: { sum: 2 } });
    expect((await call(app)).statusCode).toBe(200);
    expect((await call(app, 'br')).statusCode).toBe(200);
  });

  it('in production, is sent as it is', async () => {
    const app = await appSending('production', { total: 2 });
    const res = await call(app);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ content: { total: 2 } });
  });
});
