import {
  BindExchangeUidRequestSchema,
  BindXmeUidRequestSchema,
  State,
  VerifyExchangeUidRequestSchema,
} from '@elex/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { success } from '../../http/envelope.js';
import { AUTH_RATE_LIMIT } from '../../http/rate-limits.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { bindExchangeUid, bindXmeUid, uidEligibility } from './bindings.service.js';

/** The caller's member id when a live session comes with the request; a visitor otherwise. */
async function optionalMemberId(request: FastifyRequest): Promise<number | null> {
  if (!request.headers.token) return null;
  try {
    return (await requireMember(request)).userId;
  } catch (error) {
    if (error instanceof AppError && error.state === State.SessionExpired) return null;
    throw error;
  }
}

/** UID binding calls (issue 5). */
export async function bindingsRoutes(app: FastifyInstance) {
  const deps = app.deps;

  // Public (the /exchangeNo search) and rate-limited per IP like verifyEmail: it may ask an exchange.
  app.post('/user/verifyExchangeUid', { config: { rateLimit: AUTH_RATE_LIMIT } }, async (request) => {
    const input = parsePayload(VerifyExchangeUidRequestSchema, request.body);
    return success(request, await uidEligibility(deps, input, await optionalMemberId(request)));
  });

  app.post('/user/bindExchangeUid', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const input = parsePayload(BindExchangeUidRequestSchema, request.body);
    return success(request, await bindExchangeUid(deps, member.userId, input), 'bindingSuccessful');
  });

  app.post('/user/bindXmeUid', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const { xmeUid } = parsePayload(BindXmeUidRequestSchema, request.body);
    return success(request, await bindXmeUid(deps, member.userId, xmeUid), 'bindingSuccessful');
  });
}
