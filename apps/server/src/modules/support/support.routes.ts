import { SUPPORT } from '@elex/contract';
import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { operatorContext } from '../admin/admin.guard.js';
import { requireMember } from '../auth/auth.guard.js';
import {
  adminClose,
  adminListRequests,
  adminMoveBinding,
  adminReply,
  adminRequestDetail,
  adminVerifyOwnership,
  createSupportRequest,
  listOwnRequests,
  ownRequestDetail,
  replyToOwnRequest,
} from './support.service.js';

/** A body with one base64 image of up to SUPPORT.maxImageBytes, and its text. */
const WITH_IMAGE_BODY_LIMIT = Math.ceil((SUPPORT.maxImageBytes * 4) / 3) + 64 * 1024;
/** Opening requests: a few a minute per address is plenty for a person, and bounds a flood. */
const CREATE_RATE_LIMIT = { max: 10, timeWindow: '1 minute' };

/** The member's support calls, `POST /elex/support/*` (docs/support.md). Member-only: -5000 without a session. */
export async function supportRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(
    app,
    ENDPOINTS.supportCreate,
    { bodyLimit: WITH_IMAGE_BODY_LIMIT, config: { rateLimit: CREATE_RATE_LIMIT } },
    async (request, input) => {
      const member = await requireMember(request);
      return success(request, await createSupportRequest(deps, member.userId, input), 'supportRequestSent');
    },
  );

  serve(app, ENDPOINTS.supportList, async (request, query) => {
    const member = await requireMember(request);
    return success(request, await listOwnRequests(deps, member.userId, query));
  });

  serve(app, ENDPOINTS.supportDetail, async (request, { id }) => {
    const member = await requireMember(request);
    return success(request, await ownRequestDetail(deps, member.userId, id));
  });

  serve(
    app,
    ENDPOINTS.supportReply,
    { bodyLimit: WITH_IMAGE_BODY_LIMIT, config: { rateLimit: CREATE_RATE_LIMIT } },
    async (request, input) => {
      const member = await requireMember(request);
      return success(request, await replyToOwnRequest(deps, member.userId, input), 'supportReplySent');
    },
  );
}

/**
 * The console's support queue, `POST /elex/admin/support/*`: operator calls in the endpoint table, so
 * the role is checked for each before its body is read, like the rest of the console.
 */
export async function supportAdminRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.adminSupportList, async (request, query) => {
    return success(request, await adminListRequests(deps, query));
  });
  serve(app, ENDPOINTS.adminSupportDetail, async (request, { id }) => {
    return success(request, await adminRequestDetail(deps, id));
  });
  serve(app, ENDPOINTS.adminSupportReply, async (request, input) => {
    return success(
      request,
      await adminReply(deps, await operatorContext(request), input),
      'supportReplySent',
    );
  });
  serve(app, ENDPOINTS.adminSupportClose, async (request, input) => {
    return success(
      request,
      await adminClose(deps, await operatorContext(request), input),
      'supportClosedDone',
    );
  });
  serve(app, ENDPOINTS.adminSupportMoveBinding, async (request, input) => {
    return success(
      request,
      await adminMoveBinding(deps, await operatorContext(request), input),
      'supportMoved',
    );
  });
  serve(app, ENDPOINTS.adminSupportVerifyOwnership, async (request, input) => {
    return success(
      request,
      await adminVerifyOwnership(deps, await operatorContext(request), input),
      'supportVerified',
    );
  });
}
