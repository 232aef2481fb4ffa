import {
  DECIMALS,
  fromScaled,
  IMPORT_UPLOAD,
  type ImportKind,
  type ImportProblem,
  type ImportResult,
  type ImportRun,
  type ImportRunPage,
  type ImportStatus,
  State,
  type SyncRunList,
} from '@elex/contract';
import type { AppDeps } from '../../app.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { rejectionProblems } from '../cashback/cashback.commands.js';
import { readRebateFile, readReferralFile } from '../cashback/csv-import.js';
import { IngestRejectedError, ingestRebates, ingestReferrals } from '../cashback/ingest.service.js';
import { loadPartners } from '../cashback/partners.js';
import { getSyncStatus } from '../sync/sync.service.js';
import { insertImportRunRow, selectImportRunPage } from './admin.repository.js';
import type { ImportRunRow } from './admin.tables.js';
import { recordAudit } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';
import { findUserRow } from './reports.repository.js';

/**
 * CSV uploads from the console (issue 6): the same files as `referrals:import` and `rebates:import`,
 * read and checked by the same code (cashback/csv-import.ts) and ingested by the same services. A
 * file with any bad line imports nothing and the answer lists every problem by line. Each upload is
 * recorded in `import_runs` and the audit log, in the import's transaction when it succeeds.
 */

/** How many problems a run keeps in the table; the upload's answer lists them all. */
const STORED_PROBLEMS = 200;

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

interface Outcome {
  status: ImportStatus;
  rows: number;
  inserted: number;
  duplicates: number;
  settledCompleted: number;
  settledFailed: number;
  creditedMicro: bigint;
  problems: ImportProblem[];
  error: string | null;
}

async function recordRun(
  tx: Executor,
  deps: AppDeps,
  context: ActionContext,
  upload: { kind: ImportKind; platId: number; fileName: string; sizeBytes: number; startedAt: Date },
  outcome: Outcome,
): Promise<ImportRunRow> {
  const finishedAt = deps.clock.now();
  const run = await insertImportRunRow(tx, {
    kind: upload.kind,
    platId: upload.platId,
    fileName: upload.fileName,
    sizeBytes: upload.sizeBytes,
    operatorId: context.actor.userId,
    status: outcome.status,
    rowCount: outcome.rows,
    inserted: outcome.inserted,
    duplicates: outcome.duplicates,
    settledCompleted: outcome.settledCompleted,
    settledFailed: outcome.settledFailed,
    creditedMicro: outcome.creditedMicro,
    problemCount: outcome.problems.length,
    problems: outcome.problems.slice(0, STORED_PROBLEMS),
    error: outcome.error,
    startedAt: upload.startedAt,
    finishedAt,
  });
  await recordAudit(tx, {
    actor: context.actor,
    action: upload.kind === 'referrals' ? 'import.referrals' : 'import.rebates',
    target: `import:${run.id}`,
    before: null,
    after: {
      platId: upload.platId,
      fileName: upload.fileName,
      sizeBytes: upload.sizeBytes,
      status: outcome.status,
      rows: outcome.rows,
      inserted: outcome.inserted,
      duplicates: outcome.duplicates,
      settledCompleted: outcome.settledCompleted,
      settledFailed: outcome.settledFailed,
      credited: usdt(outcome.creditedMicro),
      problemCount: outcome.problems.length,
      error: outcome.error,
    },
    at: finishedAt,
    requestId: context.requestId,
  });
  return run;
}

function toResult(runId: number, outcome: Outcome): ImportResult {
  return {
    runId,
    status: outcome.status,
    rows: outcome.rows,
    inserted: outcome.inserted,
    duplicates: outcome.duplicates,
    settledCompleted: outcome.settledCompleted,
    settledFailed: outcome.settledFailed,
    credited: usdt(outcome.creditedMicro),
    problems: outcome.problems,
  };
}

const emptyOutcome = (status: ImportStatus, rows: number): Outcome => ({
  status,
  rows,
  inserted: 0,
  duplicates: 0,
  settledCompleted: 0,
  settledFailed: 0,
  creditedMicro: 0n,
  problems: [],
  error: null,
});

/** /elex/admin/uploadImport */
export async function importUpload(
  deps: AppDeps,
  context: ActionContext,
  input: { kind: ImportKind; platId: number; fileName: string; csv: string },
): Promise<ImportResult> {
  const startedAt = deps.clock.now();
  const bytes = Buffer.from(input.csv, 'utf8');
  if (bytes.length > IMPORT_UPLOAD.maxBytes) throw AppError.refused('importTooLarge');
  if (!(await loadPartners(deps)).has(input.platId)) throw new AppError(State.NotFound, 'exchangeNotFound');
  const upload = { ...input, sizeBytes: bytes.length, startedAt };

  // Read and checked by the commands' own code: a file with a bad line imports nothing.
  const referralFile = input.kind === 'referrals' ? await readReferralFile(bytes, startedAt) : undefined;
  const rebateFile = input.kind === 'rebates' ? await readRebateFile(bytes, startedAt) : undefined;
  const parsed = referralFile ?? rebateFile;
  if (!parsed) throw new Error(`unknown import kind ${input.kind}`);
  const rejected = async (problems: ImportProblem[]) => {
    const outcome = { ...emptyOutcome('rejected', parsed.entries.length), problems };
    const run = await deps.db.transaction((tx) => recordRun(tx, deps, context, upload, outcome));
    return toResult(run.id, outcome);
  };
  if (parsed.problems.length > 0) return rejected(parsed.problems);

  const source = { kind: 'csv' as const, label: input.fileName };
  try {
    return await deps.db.transaction(async (tx) => {
      const within = { ...deps, db: tx };
      let outcome: Outcome;
      if (referralFile) {
        const result = await ingestReferrals(within, input.platId, referralFile.entries, source);
        outcome = {
          ...emptyOutcome('succeeded', parsed.entries.length),
          inserted: result.inserted,
          duplicates: result.alreadyKnown,
          settledCompleted: result.settlement.completed,
          settledFailed: result.settlement.failed,
          creditedMicro: result.settlement.creditedMicro,
        };
      } else {
        const result = await ingestRebates(within, input.platId, rebateFile?.entries ?? [], source);
        outcome = {
          ...emptyOutcome('succeeded', parsed.entries.length),
          inserted: result.inserted,
          duplicates: result.duplicates,
          settledCompleted: result.settlement.completed,
          settledFailed: result.settlement.failed,
          creditedMicro: result.settlement.creditedMicro,
        };
      }
      const run = await recordRun(tx, deps, context, upload, outcome);
      return toResult(run.id, outcome);
    });
  } catch (error) {
    if (error instanceof IngestRejectedError) return rejected(rejectionProblems(error, parsed.lines));
    // Whatever went wrong, the attempt is on record; the caller still hears the generic fault.
    const outcome = {
      ...emptyOutcome('failed', parsed.entries.length),
      error: String((error as Error).message),
    };
    await deps.db.transaction((tx) => recordRun(tx, deps, context, upload, outcome)).catch(() => {});
    throw error;
  }
}

/** /elex/admin/importRuns: newest first, with who uploaded each file. */
export async function listImportRuns(
  deps: AppDeps,
  page: { page: number; pageSize: number },
): Promise<ImportRunPage> {
  const { rows, total } = await selectImportRunPage(deps.db, page);
  const operators = new Map<number, string | null>();
  for (const id of new Set(rows.map((row) => row.operatorId).filter((id): id is number => id !== null))) {
    operators.set(id, (await findUserRow(deps.db, id))?.email ?? null);
  }
  return {
    rows: rows.map(
      (row): ImportRun => ({
        id: row.id,
        kind: row.kind,
        platId: row.platId,
        fileName: row.fileName,
        sizeBytes: row.sizeBytes,
        operator: row.operatorId === null ? null : (operators.get(row.operatorId) ?? null),
        status: row.status,
        rows: row.rowCount,
        inserted: row.inserted,
        duplicates: row.duplicates,
        settledCompleted: row.settledCompleted,
        settledFailed: row.settledFailed,
        credited: usdt(row.creditedMicro),
        problemCount: row.problemCount,
        problems: row.problems ?? [],
        error: row.error,
        startedAt: row.startedAt.toISOString(),
        finishedAt: row.finishedAt.toISOString(),
      }),
    ),
    total,
    page: page.page,
    pageSize: page.pageSize,
  };
}

const SYNC_PAGE = 50;

/** /elex/admin/syncRuns: the sync module's run history, 50 at a time, newest first. */
export async function listSyncRuns(
  deps: AppDeps,
  filter: { platId?: number | undefined; beforeId?: number | undefined },
): Promise<SyncRunList> {
  const status = await getSyncStatus(deps, {
    ...(filter.platId === undefined ? {} : { platId: filter.platId }),
    ...(filter.beforeId === undefined ? {} : { beforeId: filter.beforeId }),
    limit: SYNC_PAGE + 1,
  });
  const runs = status.runs.slice(0, SYNC_PAGE);
  return {
    runs: runs.map((run) => ({
      id: run.id,
      platId: run.platId,
      exchange: run.exchange,
      trigger: run.trigger,
      status: run.status,
      windowStart: run.windowStart.toISOString(),
      windowEnd: run.windowEnd.toISOString(),
      segmentsTotal: run.segmentsTotal,
      segmentsDone: run.segmentsDone,
      referralsInserted: run.referralsInserted,
      rebatesInserted: run.rebatesInserted,
      rebatesDuplicates: run.rebatesDuplicates,
      rebatesSettled: run.rebatesSettled,
      error: run.error,
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
    })),
    cursors: status.cursors.map((cursor) => ({
      platId: cursor.platId,
      nextSegmentStart: cursor.nextSegmentStart.toISOString(),
    })),
    hasMore: status.runs.length > SYNC_PAGE,
  };
}
