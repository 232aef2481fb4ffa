import {
  ApproveWithdrawalRequestSchema,
  AuditLogRequestSchema,
  CreateExchangeRequestSchema,
  CreateExportRequestSchema,
  CreatePromotionCodeRequestSchema,
  DashboardRequestSchema,
  DeleteActivityRequestSchema,
  ExchangeStatusRequestSchema,
  ExplainTransferRequestSchema,
  IMPORT_UPLOAD,
  LiftWithdrawalLockRequestSchema,
  MemberActionRequestSchema,
  MemberLedgerRequestSchema,
  MemberRequestSchema,
  PageRequestSchema,
  PromotionCodesRequestSchema,
  RejectWithdrawalRequestSchema,
  ReplaceVipTiersRequestSchema,
  SaveActivityRequestSchema,
  SaveAlertPreferencesRequestSchema,
  SearchMembersRequestSchema,
  SendWithdrawalRequestSchema,
  SendWithdrawalsRequestSchema,
  SyncRunsRequestSchema,
  UnbindUidRequestSchema,
  UpdateExchangeRequestSchema,
  UpdatePromotionCodeRequestSchema,
  UpdateTaskDefinitionRequestSchema,
  UploadImportRequestSchema,
  UploadLogoRequestSchema,
  WithdrawalQueueRequestSchema,
} from '@elex/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestLocale, success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import { getAlertPreferences, saveAlertPreferences } from '../alerts/alerts.service.js';
import { createExportLink } from '../exports/exports.service.js';
import { explainTransfer, payoutReconciliation } from '../payouts/payouts.reconciliation.js';
import { walletHealth } from '../payouts/payouts.wallet.js';
import { operatorOnly, requireOperator } from './admin.guard.js';
import { listAudit } from './audit.service.js';
import {
  type ActionContext,
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
  app.addHook('onRequest', operatorOnly);

  /** Who acts, for the audit log, and the request id that ties the entry to the logs. */
  const context = async (request: FastifyRequest): Promise<ActionContext> => {
    const operator = await requireOperator(request);
    return { actor: { userId: operator.userId, label: operator.email }, requestId: request.id };
  };

  app.post('/whoami', async (request) => success(request, await requireOperator(request)));

  app.post('/dashboard', async (request) => {
    const { days } = parsePayload(DashboardRequestSchema, request.body);
    return success(request, await getDashboard(deps, days));
  });

  // Withdrawals
  app.post('/withdrawalQueue', async (request) => {
    const query = parsePayload(WithdrawalQueueRequestSchema, request.body);
    return success(request, await withdrawalQueue(deps, query));
  });
  app.post('/approveWithdrawal', async (request) => {
    const input = parsePayload(ApproveWithdrawalRequestSchema, request.body);
    return success(request, await approve(deps, await context(request), input), 'withdrawalApproved');
  });
  app.post('/rejectWithdrawal', async (request) => {
    const input = parsePayload(RejectWithdrawalRequestSchema, request.body);
    return success(request, await reject(deps, await context(request), input), 'withdrawalRejected');
  });
  app.post('/sendWithdrawal', async (request) => {
    const input = parsePayload(SendWithdrawalRequestSchema, request.body);
    const sent = await sendOne(deps, await context(request), input);
    return sent.created
      ? success(request, sent, 'payoutSent', { confirmations: sent.payout.confirmationsNeeded })
      : success(request, sent, 'payoutAlreadySent');
  });
  app.post('/sendWithdrawals', async (request) => {
    const input = parsePayload(SendWithdrawalsRequestSchema, request.body);
    const answer = await sendMany(deps, await context(request), input, requestLocale(request));
    const refused = answer.results.filter((result) => result.refusal !== null).length;
    return success(request, answer, 'payoutsSent', { sent: answer.results.length - refused, refused });
  });
  app.post('/payoutWallet', async (request) => success(request, await walletHealth(deps)));
  // A bounded read of new blocks per call (the tracker reads the rest in the background).
  app.post('/payoutReconciliation', async (request) =>
    success(request, await payoutReconciliation(deps, { maxChunks: CONSOLE_SCAN_CHUNKS })),
  );
  app.post('/explainTransfer', async (request) => {
    const input = parsePayload(ExplainTransferRequestSchema, request.body);
    const { actor, requestId } = await context(request);
    return success(request, await explainTransfer(deps, { ...input, actor, requestId }), 'transferExplained');
  });

  // Members
  app.post('/searchMembers', async (request) => {
    const query = parsePayload(SearchMembersRequestSchema, request.body);
    return success(request, await searchMembers(deps, query));
  });
  app.post('/memberDetail', async (request) => {
    const { userId } = parsePayload(MemberRequestSchema, request.body);
    return success(request, await memberDetail(deps, userId));
  });
  app.post('/memberLedger', async (request) => {
    const query = parsePayload(MemberLedgerRequestSchema, request.body);
    return success(request, await memberLedger(deps, query));
  });
  app.post('/unbindUid', async (request) => {
    const input = parsePayload(UnbindUidRequestSchema, request.body);
    return success(request, await unbindMemberUid(deps, await context(request), input), 'unbindSuccessful');
  });
  app.post('/suspendMember', async (request) => {
    const input = parsePayload(MemberActionRequestSchema, request.body);
    return success(request, await suspendMember(deps, await context(request), input), 'memberSuspended');
  });
  app.post('/reinstateMember', async (request) => {
    const input = parsePayload(MemberActionRequestSchema, request.body);
    return success(request, await reinstateMember(deps, await context(request), input), 'memberReinstated');
  });
  app.post('/liftWithdrawalLock', async (request) => {
    const input = parsePayload(LiftWithdrawalLockRequestSchema, request.body);
    return success(
      request,
      await liftWithdrawalLock(deps, await context(request), input),
      'withdrawalLockLifted',
    );
  });

  // The catalog
  app.post('/catalog', async (request) => success(request, await getCatalog(deps)));
  app.post('/updateExchange', async (request) => {
    const { platId, ...fields } = parsePayload(UpdateExchangeRequestSchema, request.body);
    return success(
      request,
      await saveExchange(deps, await context(request), platId, fields),
      'savedSuccessfully',
    );
  });
  app.post('/createExchange', async (request) => {
    const input = parsePayload(CreateExchangeRequestSchema, request.body);
    const created = await addExchange(deps, await context(request), input);
    return success(request, created, 'exchangeCreated', { name: created.name });
  });
  const statusRoutes: [
    string,
    ExchangeTransition,
    'exchangePublished' | 'exchangeRetiredDone' | 'exchangeReinstated',
  ][] = [
    ['/publishExchange', 'publish', 'exchangePublished'],
    ['/retireExchange', 'retire', 'exchangeRetiredDone'],
    ['/reinstateExchange', 'reinstate', 'exchangeReinstated'],
  ];
  for (const [path, transition, message] of statusRoutes) {
    app.post(path, async (request) => {
      const { platId } = parsePayload(ExchangeStatusRequestSchema, request.body);
      return success(
        request,
        await changeExchangeStatus(deps, await context(request), platId, transition),
        message,
      );
    });
  }
  app.post('/replaceVipTiers', async (request) => {
    const input = parsePayload(ReplaceVipTiersRequestSchema, request.body);
    return success(request, await saveVipTiers(deps, await context(request), input), 'savedSuccessfully');
  });
  app.post('/saveActivity', async (request) => {
    const input = parsePayload(SaveActivityRequestSchema, request.body);
    return success(request, await saveActivity(deps, await context(request), input), 'savedSuccessfully');
  });
  app.post('/deleteActivity', async (request) => {
    const { id } = parsePayload(DeleteActivityRequestSchema, request.body);
    await deleteActivity(deps, await context(request), id);
    return success(request, null, 'savedSuccessfully');
  });
  app.post('/uploadLogo', async (request) => {
    const input = parsePayload(UploadLogoRequestSchema, request.body);
    return success(request, await uploadLogo(deps, await context(request), input), 'savedSuccessfully');
  });

  // Imports and syncs. A CSV travels as JSON text: allow the 20 MB file plus JSON escaping.
  app.post('/uploadImport', { bodyLimit: IMPORT_UPLOAD.maxBytes * 2 + 64 * 1024 }, async (request) => {
    const input = parsePayload(UploadImportRequestSchema, request.body);
    return success(request, await importUpload(deps, await context(request), input));
  });
  app.post('/importRuns', async (request) => {
    const page = parsePayload(PageRequestSchema, request.body);
    return success(request, await listImportRuns(deps, page));
  });
  app.post('/syncRuns', async (request) => {
    const filter = parsePayload(SyncRunsRequestSchema, request.body);
    return success(request, await listSyncRuns(deps, filter));
  });

  // Points tasks
  app.post('/taskDefinitions', async (request) => success(request, await getTaskDefinitions(deps)));
  app.post('/updateTaskDefinition', async (request) => {
    const { id, threshold, ...rest } = parsePayload(UpdateTaskDefinitionRequestSchema, request.body);
    const update = threshold === undefined ? rest : { ...rest, threshold };
    return success(
      request,
      await saveTaskDefinition(deps, await context(request), id, update),
      'savedSuccessfully',
    );
  });

  // Promotion codes (encr)
  app.post('/promotionCodes', async (request) => {
    const page = parsePayload(PromotionCodesRequestSchema, request.body);
    return success(request, await getPromotionCodes(deps, page));
  });
  app.post('/createPromotionCode', async (request) => {
    const input = parsePayload(CreatePromotionCodeRequestSchema, request.body);
    const created = await addPromotionCode(deps, await context(request), input);
    return success(request, created, 'promotionCodeCreated', { code: created.code });
  });
  app.post('/updatePromotionCode', async (request) => {
    const { id, ...change } = parsePayload(UpdatePromotionCodeRequestSchema, request.body);
    return success(
      request,
      await editPromotionCode(deps, await context(request), id, change),
      'savedSuccessfully',
    );
  });

  // Reconciliation (issue 12)
  reconciliationRoutes(app, context);

  // The audit log
  app.post('/auditLog', async (request) => {
    const query = parsePayload(AuditLogRequestSchema, request.body);
    return success(request, await listAudit(deps.db, query));
  });

  // Exports: the call makes a one-time link; the download itself is exports.routes.ts.
  app.post('/exports/create', async (request) => {
    const input = parsePayload(CreateExportRequestSchema, request.body);
    return success(request, await createExportLink(deps, await context(request), input));
  });

  // The calling operator's own alerts
  app.post('/alertPreferences', async (request) => {
    const operator = await requireOperator(request);
    return success(request, await getAlertPreferences(deps, operator.userId));
  });
  app.post('/saveAlertPreferences', async (request) => {
    const change = parsePayload(SaveAlertPreferencesRequestSchema, request.body);
    return success(
      request,
      await saveAlertPreferences(deps, await context(request), change),
      'savedSuccessfully',
    );
  });
}
