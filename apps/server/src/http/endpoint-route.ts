import type { Endpoint, EndpointAuth } from '@elex/contract/endpoints';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RequestPayload,
  RouteShorthandOptions,
} from 'fastify';
import type { z } from 'zod';
import { parsePayload } from './validation.js';

/**
 * Registers a call of the endpoint table (packages/contract/src/endpoints.ts) as a Fastify route:
 * method and path come from the table, so a route cannot drift from what the web calls and
 * `/openapi.json` describes. The table's auth becomes the route's guard, run after the rate limit (an
 * onRequest hook) and before the body is read (a preParsing hook: a visitor gets -5000, a member 1003
 * on an operator call, whatever the body); its request
 * schema becomes the route's body schema, so Fastify validates the body (through `parsePayload`: one
 * rule for the field-naming message) before the handler runs and hands it over parsed and typed.
 * Outside production, a success's `content` is checked against the table's answer schema, so every
 * test that makes a call also proves the contract describes what the server says; an answer a handler
 * sends itself as bytes (the cached exchange index) is checked as it leaves, once per Buffer.
 */

type Guard = (request: FastifyRequest) => Promise<void>;

/** The guards of the session layer, by the table's auth; wired once by the app (the auth module owns them). */
type EndpointGuards = Record<Extract<EndpointAuth, 'member' | 'operator'>, Guard>;

declare module 'fastify' {
  interface FastifyInstance {
    endpointGuards: EndpointGuards;
  }
}

type BodyOf<E extends Endpoint> = E['request'] extends z.ZodType ? z.output<E['request']> : undefined;

type Options = Pick<RouteShorthandOptions, 'bodyLimit' | 'config' | 'compress' | 'exposeHeadRoute'>;

/**
 * A promise of the answer, or (a handler that sent it already, e.g. from a cache) the reply: Fastify
 * then answers in the same turn of the event loop.
 */
type Handler<E extends Endpoint> = (
  request: FastifyRequest,
  body: BodyOf<E>,
  reply: FastifyReply,
) => Promise<unknown> | FastifyReply;

export function serve<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: Handler<E>): void;
export function serve<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: Options,
  handler: Handler<E>,
): void;
export function serve<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  optionsOrHandler: Options | Handler<E>,
  maybeHandler?: Handler<E>,
): void {
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
  if (!handler) throw new Error(`no handler for ${endpoint.path}`);
  if (!endpoint.path.startsWith(`${app.prefix}/`)) {
    throw new Error(`${endpoint.path} is registered in a plugin under ${app.prefix}`);
  }
  const guarded = endpoint.auth === 'member' || endpoint.auth === 'operator';
  const guard = guarded ? app.endpointGuards?.[endpoint.auth as 'member' | 'operator'] : undefined;
  if (guarded && !guard) throw new Error(`no ${endpoint.auth} guard for ${endpoint.path}`);
  const answer = app.deps.config.env === 'production' ? undefined : endpoint.response;
  app.route({
    method: endpoint.method,
    url: endpoint.path.slice(app.prefix.length),
    ...options,
    ...(guard
      ? {
          preParsing: async (request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload) => {
            await guard(request);
            return payload;
          },
        }
      : {}),
    ...(endpoint.request
      ? {
          schema: { body: endpoint.request },
          validatorCompiler:
            ({ schema }) =>
            (data: unknown) => {
              try {
                return { value: parsePayload(schema as z.ZodType, data) };
              } catch (error) {
                return { error: error as Error };
              }
            },
        }
      : {}),
    ...(answer ? { onSend: checkSentBytes(endpoint, answer) } : {}),
    // In production nothing is checked: the handler is the route's own, with no promise around it.
    handler: answer
      ? async (request, reply) => {
          const result = await handler(request, request.body as BodyOf<E>, reply);
          checkAnswer(endpoint, answer, result);
          return result;
        }
      : (request, reply) => handler(request, request.body as BodyOf<E>, reply),
  });
}

/**
 * Outside production: an envelope a handler sent as bytes is checked like a returned one. A cache
 * sends the same Buffer again and again, so each is checked once; compressed codings are made from
 * the plain Buffer, which is checked when it is sent.
 */
function checkSentBytes(endpoint: Endpoint, schema: z.ZodType) {
  const checked = new WeakSet<Buffer>();
  return async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const isPlainJson =
      String(reply.getHeader('content-type')).startsWith('application/json') &&
      !reply.getHeader('content-encoding');
    if (!Buffer.isBuffer(payload) || !isPlainJson || checked.has(payload)) return payload;
    checkAnswer(endpoint, schema, JSON.parse(payload.toString('utf8')));
    checked.add(payload);
    return payload;
  };
}

/** Outside production: a success whose content the contract does not describe is a fault of the server. */
function checkAnswer(endpoint: Endpoint, schema: z.ZodType, result: unknown): void {
  if (result === null || typeof result !== 'object' || !('content' in result) || !('state' in result)) return;
  if (result.state !== 0) return;
  const parsed = schema.safeParse(result.content);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  throw new Error(
    `the answer of ${endpoint.path} does not match the endpoint table: ${issue?.path.join('.') || 'content'}: ${issue?.message}`,
  );
}
