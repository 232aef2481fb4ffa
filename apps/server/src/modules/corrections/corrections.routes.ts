import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { operatorContext } from '../admin/admin.guard.js';
import { requireMember } from '../auth/auth.guard.js';
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
  serve(app, ENDPOINTS.userSeeAdjustments, async (request, query) => {
    const member = await requireMember(request);
    return success(request, await memberAdjustments(deps, member.userId, query));
  });
}

/**
 * The console's corrections, `POST /elex/admin/corrections/*`: the operator role is checked for every
 * route of this plugin by the same hook as the rest of the console (admin.guard.ts).
 */
export async function correctionsAdminRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.adminCorrectionsList, async (request, query) => {
    return success(request, await listCorrections(deps, query));
  });
  serve(app, ENDPOINTS.adminCorrectionsPropose, async (request, input) => {
    const correction = await proposeCorrection(deps, await operatorContext(request), input);
    // A proposal sent again answers the first correction as it is now, rejected meanwhile included.
    const said = {
      posted: 'correctionPosted',
      pending: 'correctionPending',
      rejected: 'correctionAlreadyRejected',
    } as const;
    return success(request, correction, said[correction.status]);
  });
  serve(app, ENDPOINTS.adminCorrectionsApprove, async (request, { id }) => {
    return success(
      request,
      await approveCorrection(deps, await operatorContext(request), id),
      'correctionPosted',
    );
  });
  serve(app, ENDPOINTS.adminCorrectionsReject, async (request, input) => {
    return success(
      request,
      await rejectCorrection(deps, await operatorContext(request), input),
      'correctionRejected',
    );
  });
}
