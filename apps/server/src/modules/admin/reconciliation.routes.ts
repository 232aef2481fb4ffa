import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { success } from '../../http/envelope.js';
import { operatorContext } from './admin.guard.js';
import {
  reconciliationRebates,
  reconciliationRoster,
  reconciliationSummary,
  resettle,
} from './reconciliation.service.js';

/**
 * `POST /elex/admin/reconciliation/<call>` (docs/operator-console.md, "Reconciliation"): operator
 * calls of the endpoint table, registered inside the admin plugin (its prefix).
 */
export function reconciliationRoutes(app: FastifyInstance) {
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
    const result = await resettle(deps, await operatorContext(request), input);
    return success(request, result, 'rebatesSettled', { count: result.settled });
  });
}
