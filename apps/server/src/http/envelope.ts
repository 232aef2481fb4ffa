import { type Envelope, type Locale, type MessageKey, State, toLocale, translate } from '@elex/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request's language: the `lang` header, en when absent or unknown. */
export function requestLocale(request: FastifyRequest): Locale {
  return toLocale(request.headers.lang);
}

/** A success answer; `messageKey` names the spec's success message where it has one ('Check-in successful' ...). */
export function success<T>(
  request: FastifyRequest,
  content: T,
  messageKey: MessageKey = 'ok',
  values: Record<string, string | number> = {},
): Envelope<T> {
  return { state: State.Success, message: translate(requestLocale(request), messageKey, values), content };
}

/**
 * A success whose `content` is JSON text already (written by PostgreSQL): the envelope's bytes as
 * JSON.stringify(success(request, content)) writes them, the content spliced in unparsed. The route
 * sends them as application/json; outside production they are checked against the endpoint's answer
 * schema as they leave (endpoint-route.ts).
 */
export function sendSuccessJson(
  request: FastifyRequest,
  reply: FastifyReply,
  contentJson: string,
  messageKey: MessageKey = 'ok',
): FastifyReply {
  const message = JSON.stringify(translate(requestLocale(request), messageKey));
  return reply
    .type('application/json; charset=utf-8')
    .send(Buffer.from(`{"state":${State.Success},"message":${message},"content":${contentJson}}`));
}

export function sendEnvelope(
  reply: FastifyReply,
  status: number,
  body: Envelope<Record<string, number | string> | null>,
) {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}
