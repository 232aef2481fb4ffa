import {
  AdminSupportActionSchema,
  AdminSupportCloseSchema,
  AdminSupportListRequestSchema,
  AdminSupportReplySchema,
  CreateSupportRequestSchema,
  SUPPORT,
  SupportDetailRequestSchema,
  SupportListRequestSchema,
  SupportReplySchema,
} from '@elex/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { operatorOnly, requireOperator } from '../admin/admin.guard.js';
import type { ActionContext } from '../admin/catalog.service.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
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

  app.post(
    '/create',
    { preHandler: memberOnly, bodyLimit: WITH_IMAGE_BODY_LIMIT, config: { rateLimit: CREATE_RATE_LIMIT } },
    async (request) => {
      const member = await requireMember(request);
      const input = parsePayload(CreateSupportRequestSchema, request.body);
      return success(request, await createSupportRequest(deps, member.userId, input), 'supportRequestSent');
    },
  );

  app.post('/list', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(SupportListRequestSchema, request.body);
    return success(request, await listOwnRequests(deps, member.userId, query));
  });

  app.post('/detail', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const { id } = parsePayload(SupportDetailRequestSchema, request.body);
    return success(request, await ownRequestDetail(deps, member.userId, id));
  });

  app.post(
    '/reply',
    { preHandler: memberOnly, bodyLimit: WITH_IMAGE_BODY_LIMIT, config: { rateLimit: CREATE_RATE_LIMIT } },
    async (request) => {
      const member = await requireMember(request);
      const input = parsePayload(SupportReplySchema, request.body);
      return success(request, await replyToOwnRequest(deps, member.userId, input), 'supportReplySent');
    },
  );
}

/**
 * The console's support queue, `POST /elex/admin/support/*`: the operator role is checked for every
 * route of this plugin by the same hook as the rest of the console (admin.guard.ts).
 */
export async function supportAdminRoutes(app: FastifyInstance) {
  const deps = app.deps;
  app.addHook('onRequest', operatorOnly);
  const context = async (request: FastifyRequest): Promise<ActionContext> => {
    const operator = await requireOperator(request);
    return { actor: { userId: operator.userId, label: operator.email }, requestId: request.id };
  };

  app.post('/list', async (request) => {
    const query = parsePayload(AdminSupportListRequestSchema, request.body);
    return success(request, await adminListRequests(deps, query));
  });
  app.post('/detail', async (request) => {
    const { id } = parsePayload(SupportDetailRequestSchema, request.body);
    return success(request, await adminRequestDetail(deps, id));
  });
  app.post('/reply', async (request) => {
    const input = parsePayload(AdminSupportReplySchema, request.body);
    return success(request, await adminReply(deps, await context(request), input), 'supportReplySent');
  });
  app.post('/close', async (request) => {
    const input = parsePayload(AdminSupportCloseSchema, request.body);
    return success(request, await adminClose(deps, await context(request), input), 'supportClosedDone');
  });
  app.post('/moveBinding', async (request) => {
    const input = parsePayload(AdminSupportActionSchema, request.body);
    return success(request, await adminMoveBinding(deps, await context(request), input), 'supportMoved');
  });
  app.post('/verifyOwnership', async (request) => {
    const input = parsePayload(AdminSupportActionSchema, request.body);
    return success(
      request,
      await adminVerifyOwnership(deps, await context(request), input),
      'supportVerified',
    );
  });
}
