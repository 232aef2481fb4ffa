import { isLocale, State } from '@elex/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { type Member, resolveSession } from './sessions.js';

export type { Member } from './sessions.js';

const resolved = new WeakMap<FastifyRequest, Promise<Member>>();

/**
 * The member calling, from the `token` header (spec section 7). A missing, unknown, revoked or expired
 * token answers state -5000 with 'sessionExpired' (spec section 4), and the client logs out. Resolved
 * once per request, so a preHandler and the handler can both ask.
 */
export function requireMember(request: FastifyRequest): Promise<Member> {
  let member = resolved.get(request);
  if (!member) {
    member = (async () => {
      const header = request.headers.token;
      const token = Array.isArray(header) ? header[0] : header;
      const lang = request.headers.lang;
      const spoken = typeof lang === 'string' && isLocale(lang) ? lang : undefined;
      const found = token ? await resolveSession(request.server.deps, token.trim(), spoken) : null;
      if (!found) throw new AppError(State.SessionExpired, 'sessionExpired');
      return found;
    })();
    resolved.set(request, member);
  }
  return member;
}

/** The guard of calls the endpoint table marks `member` (wired by the app; `serve()` runs it before the body is read). */
export async function memberOnly(request: FastifyRequest): Promise<void> {
  await requireMember(request);
}
