import {
  OpenRebatesRequestSchema,
  ReconciliationSummaryRequestSchema,
  ResettleRequestSchema,
  RosterRequestSchema,
} from '@elex/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import type { ActionContext } from './catalog.service.js';
import {
  reconciliationRebates,
  reconciliationRoster,
  reconciliationSummary,
  resettle,
} from './reconciliation.service.js';

/**
 * `POST /elex/admin/reconciliation/<call>` (docs/operator-console.md, "Reconciliation"). Registered
 * inside the admin plugin, so its operator-only hook guards these routes like every console call.
 */
export function reconciliationRoutes(
  app: FastifyInstance,
  context: (request: FastifyRequest) => Promise<ActionContext>,
) {
  const deps = app.deps;
  app.post('/reconciliation/summary', async (request) => {
    const query = parsePayload(ReconciliationSummaryRequestSchema, request.body);
    return success(request, await reconciliationSummary(deps, query));
  });
  app.post('/reconciliation/roster', async (request) => {
    const query = parsePayload(RosterRequestSchema, request.body);
    return success(request, await reconciliationRoster(deps, query));
  });
  app.post('/reconciliation/rebates', async (request) => {
    const query = parsePayload(OpenRebatesRequestSchema, request.body);
    return success(request, await reconciliationRebates(deps, query));
  });
  app.post('/reconciliation/settle', async (request) => {
    const input = parsePayload(ResettleRequestSchema, request.body);
    const result = await resettle(deps, await context(request), input);
    return success(request, result, 'rebatesSettled', { count: result.settled });
  });
}
