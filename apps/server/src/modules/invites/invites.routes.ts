import { MyFriendsRequestSchema } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import { inviteLink, myFriends, myInviteCode } from './invites.service.js';

/** Invite calls (spec section 7; docs/engagement.md). All member-only. */
export async function invitesRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const memberCall = { preHandler: memberOnly };

  app.post('/user/getMyInviteCode', memberCall, async (request) => {
    const member = await requireMember(request);
    return success(request, await myInviteCode(deps, member.userId));
  });

  app.post('/user/getInviteLink', memberCall, async (request) => {
    const member = await requireMember(request);
    return success(request, await inviteLink(deps, member.userId));
  });

  app.post('/user/myFriends', memberCall, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(MyFriendsRequestSchema, request.body);
    return success(request, await myFriends(deps, member.userId, query));
  });
}
