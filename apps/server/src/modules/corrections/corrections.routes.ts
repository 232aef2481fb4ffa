import {
  AdjustmentQuerySchema,
  CorrectionListRequestSchema,
  DecideCorrectionRequestSchema,
  ProposeCorrectionRequestSchema,
  RejectCorrectionRequestSchema,
} from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { operatorContext, operatorOnly } from '../admin/admin.guard.js';
import { memberOnly, requireMember } from '../auth/auth.guard.js';
import {
  approveCorrection,
  listCorrections,
  memberAdjustments,
  proposeCorrection,
  rejectCorrection,
} from './corrections.service.js';

/** The member's adjustments, `POST /elex/user/seeAdjustments`: member-only (-5000 without a session). */
export async function correctionsRoutes(app: FastifyInstance) {
  const deps = app.deps;
  app.post('/user/seeAdjustments', { preHandler: memberOnly }, async (request) => {
    const member = await requireMember(request);
    const query = parsePayload(AdjustmentQuerySchema, request.body);
    return success(request, await memberAdjustments(deps, member.userId, query));
  });
}

/**
 * The console's corrections, `POST /elex/admin/corrections/*`: the operator role is checked for every
 * route of this plugin by the same hook as the rest of the console (admin.guard.ts).
 */
export async function correctionsAdminRoutes(app: FastifyInstance) {
  const deps = app.deps;
  app.addHook('onRequest', operatorOnly);

  app.post('/list', async (request) => {
    const query = parsePayload(CorrectionListRequestSchema, request.body);
    return success(request, await listCorrections(deps, query));
  });
  app.post('/propose', async (request) => {
    const input = parsePayload(ProposeCorrectionRequestSchema, request.body);
    const correction = await proposeCorrection(deps, await operatorContext(request), input);
    return success(
      request,
      correction,
      correction.status === 'posted' ? 'correctionPosted' : 'correctionPending',
    );
  });
  app.post('/approve', async (request) => {
    const { id } = parsePayload(DecideCorrectionRequestSchema, request.body);
    return success(
      request,
      await approveCorrection(deps, await operatorContext(request), id),
      'correctionPosted',
    );
  });
  app.post('/reject', async (request) => {
    const input = parsePayload(RejectCorrectionRequestSchema, request.body);
    return success(
      request,
      await rejectCorrection(deps, await operatorContext(request), input),
      'correctionRejected',
    );
  });
}
