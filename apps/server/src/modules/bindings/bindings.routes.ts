import { State } from '@elex/contract';
import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { AUTH_RATE_LIMIT } from '../../http/rate-limits.js';
import { requireMember } from '../auth/auth.guard.js';
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
  serve(
    app,
    ENDPOINTS.userVerifyExchangeUid,
    { config: { rateLimit: AUTH_RATE_LIMIT } },
    async (request, input) => {
      return success(request, await uidEligibility(deps, input, await optionalMemberId(request)));
    },
  );

  serve(app, ENDPOINTS.userBindExchangeUid, async (request, input) => {
    const member = await requireMember(request);
    return success(request, await bindExchangeUid(deps, member.userId, input), 'bindingSuccessful');
  });

  serve(app, ENDPOINTS.userBindXmeUid, async (request, { xmeUid }) => {
    const member = await requireMember(request);
    return success(request, await bindXmeUid(deps, member.userId, xmeUid), 'bindingSuccessful');
  });
}
