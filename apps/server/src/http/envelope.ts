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

export function sendEnvelope(
  reply: FastifyReply,
  status: number,
  body: Envelope<Record<string, number | string> | null>,
) {
  return reply.code(status).header('cache-control', 'no-store').send(body);
}
