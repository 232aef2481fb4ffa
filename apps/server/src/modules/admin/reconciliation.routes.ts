import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
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
  serve(app, ENDPOINTS.adminReconciliationSummary, async (request, query) => {
    return success(request, await reconciliationSummary(deps, query));
  });
  serve(app, ENDPOINTS.adminReconciliationRoster, async (request, query) => {
    return success(request, await reconciliationRoster(deps, query));
  });
  serve(app, ENDPOINTS.adminReconciliationRebates, async (request, query) => {
    return success(request, await reconciliationRebates(deps, query));
  });
  serve(app, ENDPOINTS.adminReconciliationSettle, async (request, input) => {
    const result = await resettle(deps, await context(request), input);
    return success(request, result, 'rebatesSettled', { count: result.settled });
  });
}
