import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { requireMember } from '../auth/auth.guard.js';
import { inviteLink, myFriends, myInviteCode } from './invites.service.js';

/** Invite calls (spec section 7; docs/engagement.md). All member-only. */
export async function invitesRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.userGetMyInviteCode, async (request) => {
    const member = await requireMember(request);
    return success(request, await myInviteCode(deps, member.userId));
  });

  serve(app, ENDPOINTS.userGetInviteLink, async (request) => {
    const member = await requireMember(request);
    return success(request, await inviteLink(deps, member.userId));
  });

  serve(app, ENDPOINTS.userMyFriends, async (request, query) => {
    const member = await requireMember(request);
    return success(request, await myFriends(deps, member.userId, query));
  });
}
