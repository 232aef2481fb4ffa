import { IMPORT_UPLOAD, type MessageKey } from '@elex/contract';
import { ENDPOINTS, type Endpoint } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { serve } from '../../http/endpoint-route.js';
import { requestLocale, success } from '../../http/envelope.js';
import { inLocale } from '../../lib/reasons.js';
import { getAlertPreferences, saveAlertPreferences } from '../alerts/alerts.service.js';
import { createExportLink } from '../exports/exports.service.js';
import { explainTransfer, payoutReconciliation } from '../payouts/payouts.reconciliation.js';
import { walletHealth } from '../payouts/payouts.wallet.js';
import { operatorContext, requireOperator } from './admin.guard.js';
import { listAudit } from './audit.service.js';
import {
  addExchange,
  changeExchangeStatus,
  deleteActivity,
  type ExchangeTransition,
  getCatalog,
  saveActivity,
  saveExchange,
  saveVipTiers,
  uploadLogo,
} from './catalog.service.js';
import { getDashboard } from './dashboard.service.js';
import { importUpload, listImportRuns, listSyncRuns } from './imports.service.js';
import {
  liftWithdrawalLock,
  memberDetail,
  memberLedger,
  reinstateMember,
  searchMembers,
  suspendMember,
  unbindMemberUid,
} from './members.service.js';
import { addPromotionCode, editPromotionCode, getPromotionCodes } from './promotions-editor.service.js';
import { reconciliationRoutes } from './reconciliation.routes.js';
import { getTaskDefinitions, saveTaskDefinition } from './tasks-editor.service.js';
import { approve, reject, sendMany, sendOne, withdrawalQueue } from './withdrawals-queue.service.js';

/**
 * The operator console's calls, `POST /elex/admin/<call>` (docs/operator-console.md). The role is
 * checked for every route of this plugin by one onRequest hook, before the body is even read: no
 * session answers -5000, a member 1003 'forbidden'. A route added here cannot skip it, and the
 * server test calls every registered /elex/admin route as a member to prove it.
 */
/** getLogs calls one console reconciliation may make: the answer stays within seconds. */
const CONSOLE_SCAN_CHUNKS = 25;

export async function adminRoutes(app: FastifyInstance) {
  const deps = app.deps;

  serve(app, ENDPOINTS.adminWhoami, async (request) => success(request, await requireOperator(request)));

  serve(app, ENDPOINTS.adminDashboard, async (request, { days }) => {
    return success(request, await getDashboard(deps, days));
  });

  // Withdrawals
  serve(app, ENDPOINTS.adminWithdrawalQueue, async (request, query) => {
    return success(request, await withdrawalQueue(deps, query));
  });
  serve(app, ENDPOINTS.adminApproveWithdrawal, async (request, input) => {
    return success(request, await approve(deps, await operatorContext(request), input), 'withdrawalApproved');
  });
  serve(app, ENDPOINTS.adminRejectWithdrawal, async (request, input) => {
    return success(request, await reject(deps, await operatorContext(request), input), 'withdrawalRejected');
  });
  serve(app, ENDPOINTS.adminSendWithdrawal, async (request, input) => {
    const sent = await sendOne(deps, await operatorContext(request), input);
    return sent.created
      ? success(request, sent, 'payoutSent', { confirmations: sent.payout.confirmationsNeeded })
      : success(request, sent, 'payoutAlreadySent');
  });
  serve(app, ENDPOINTS.adminSendWithdrawals, async (request, input) => {
    const answer = await sendMany(deps, await operatorContext(request), input, requestLocale(request));
    const refused = answer.results.filter((result) => result.refusal !== null).length;
    return success(request, answer, 'payoutsSent', { sent: answer.results.length - refused, refused });
  });
  serve(app, ENDPOINTS.adminPayoutWallet, async (request) => success(request, await walletHealth(deps)));
  // A bounded read of new blocks per call (the tracker reads the rest in the background).
  serve(app, ENDPOINTS.adminPayoutReconciliation, async (request) =>
    success(request, await payoutReconciliation(deps, { maxChunks: CONSOLE_SCAN_CHUNKS })),
  );
  serve(app, ENDPOINTS.adminExplainTransfer, async (request, input) => {
    const { actor, requestId } = await operatorContext(request);
    return success(request, await explainTransfer(deps, { ...input, actor, requestId }), 'transferExplained');
  });

  // Members
  serve(app, ENDPOINTS.adminSearchMembers, async (request, query) => {
    return success(request, await searchMembers(deps, query));
  });
  serve(app, ENDPOINTS.adminMemberDetail, async (request, { userId }) => {
    return success(request, await memberDetail(deps, userId));
  });
  serve(app, ENDPOINTS.adminMemberLedger, async (request, query) => {
    return success(request, await memberLedger(deps, query));
  });
  serve(app, ENDPOINTS.adminUnbindUid, async (request, input) => {
    return success(
      request,
      await unbindMemberUid(deps, await operatorContext(request), input),
      'unbindSuccessful',
    );
  });
  serve(app, ENDPOINTS.adminSuspendMember, async (request, input) => {
    return success(
      request,
      await suspendMember(deps, await operatorContext(request), input),
      'memberSuspended',
    );
  });
  serve(app, ENDPOINTS.adminReinstateMember, async (request, input) => {
    return success(
      request,
      await reinstateMember(deps, await operatorContext(request), input),
      'memberReinstated',
    );
  });
  serve(app, ENDPOINTS.adminLiftWithdrawalLock, async (request, input) => {
    return success(
      request,
      await liftWithdrawalLock(deps, await operatorContext(request), input),
      'withdrawalLockLifted',
    );
  });

  // The catalog
  serve(app, ENDPOINTS.adminCatalog, async (request) => success(request, await getCatalog(deps)));
  serve(app, ENDPOINTS.adminUpdateExchange, async (request, { platId, updatedAt, ...fields }) => {
    return success(
      request,
      await saveExchange(deps, await operatorContext(request), platId, fields, updatedAt),
      'savedSuccessfully',
    );
  });
  serve(app, ENDPOINTS.adminCreateExchange, async (request, input) => {
    const created = await addExchange(deps, await operatorContext(request), input);
    return success(request, created, 'exchangeCreated', { name: created.name });
  });
  const statusRoutes = [
    [ENDPOINTS.adminPublishExchange, 'publish', 'exchangePublished'],
    [ENDPOINTS.adminRetireExchange, 'retire', 'exchangeRetiredDone'],
    [ENDPOINTS.adminReinstateExchange, 'reinstate', 'exchangeReinstated'],
  ] as const satisfies ReadonlyArray<readonly [Endpoint, ExchangeTransition, MessageKey]>;
  for (const [endpoint, transition, message] of statusRoutes) {
    serve(app, endpoint, async (request, { platId, updatedAt }) =>
      success(
        request,
        await changeExchangeStatus(deps, await operatorContext(request), platId, transition, updatedAt),
        message,
      ),
    );
  }
  serve(app, ENDPOINTS.adminReplaceVipTiers, async (request, input) => {
    return success(
      request,
      await saveVipTiers(deps, await operatorContext(request), input),
      'savedSuccessfully',
    );
  });
  serve(app, ENDPOINTS.adminSaveActivity, async (request, input) => {
    return success(
      request,
      await saveActivity(deps, await operatorContext(request), input),
      'savedSuccessfully',
    );
  });
  serve(app, ENDPOINTS.adminDeleteActivity, async (request, { id, updatedAt }) => {
    await deleteActivity(deps, await operatorContext(request), id, updatedAt);
    return success(request, null, 'savedSuccessfully');
  });
  serve(app, ENDPOINTS.adminUploadLogo, async (request, input) => {
    return success(
      request,
      await uploadLogo(deps, await operatorContext(request), input),
      'savedSuccessfully',
    );
  });

  // Imports and syncs. A CSV travels as JSON text: allow the 20 MB file plus JSON escaping.
  serve(
    app,
    ENDPOINTS.adminUploadImport,
    { bodyLimit: IMPORT_UPLOAD.maxBytes * 2 + 64 * 1024 },
    async (request, input) => {
      const result = await importUpload(deps, await operatorContext(request), input);
      // Each problem's reason in the operator's language (the run keeps it in English, with its key).
      const locale = requestLocale(request);
      return success(request, {
        ...result,
        problems: result.problems.map((item) => inLocale(locale, item)),
        notices: result.notices.map((item) => inLocale(locale, item)),
      });
    },
  );
  serve(app, ENDPOINTS.adminImportRuns, async (request, page) => {
    const runs = await listImportRuns(deps, page);
    const locale = requestLocale(request);
    return success(request, {
      ...runs,
      rows: runs.rows.map((run) => ({
        ...run,
        problems: run.problems.map((item) => inLocale(locale, item)),
        notices: run.notices.map((item) => inLocale(locale, item)),
      })),
    });
  });
  serve(app, ENDPOINTS.adminSyncRuns, async (request, filter) => {
    return success(request, await listSyncRuns(deps, filter, requestLocale(request)));
  });

  // Points tasks
  serve(app, ENDPOINTS.adminTaskDefinitions, async (request) =>
    success(request, await getTaskDefinitions(deps)),
  );
  serve(app, ENDPOINTS.adminUpdateTaskDefinition, async (request, { id, updatedAt, threshold, ...rest }) => {
    const update = threshold === undefined ? rest : { ...rest, threshold };
    return success(
      request,
      await saveTaskDefinition(deps, await operatorContext(request), id, update, updatedAt),
      'savedSuccessfully',
    );
  });

  // Promotion codes (encr)
  serve(app, ENDPOINTS.adminPromotionCodes, async (request, page) => {
    return success(request, await getPromotionCodes(deps, page));
  });
  serve(app, ENDPOINTS.adminCreatePromotionCode, async (request, input) => {
    const created = await addPromotionCode(deps, await operatorContext(request), input);
    return success(request, created, 'promotionCodeCreated', { code: created.code });
  });
  serve(app, ENDPOINTS.adminUpdatePromotionCode, async (request, { id, updatedAt, ...change }) => {
    return success(
      request,
      await editPromotionCode(deps, await operatorContext(request), id, change, updatedAt),
      'savedSuccessfully',
    );
  });

  // Reconciliation (issue 12)
  reconciliationRoutes(app);

  // The audit log
  serve(app, ENDPOINTS.adminAuditLog, async (request, query) => {
    return success(request, await listAudit(deps.db, query));
  });

  // Exports: the call makes a one-time link; the download itself is exports.routes.ts.
  serve(app, ENDPOINTS.adminExportsCreate, async (request, input) => {
    return success(request, await createExportLink(deps, await operatorContext(request), input));
  });

  // The calling operator's own alerts
  serve(app, ENDPOINTS.adminAlertPreferences, async (request) => {
    const operator = await requireOperator(request);
    return success(request, await getAlertPreferences(deps, operator.userId));
  });
  serve(app, ENDPOINTS.adminSaveAlertPreferences, async (request, change) => {
    return success(
      request,
      await saveAlertPreferences(deps, await operatorContext(request), change),
      'savedSuccessfully',
    );
  });
}
