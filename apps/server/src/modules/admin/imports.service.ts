import {
  DECIMALS,
  fromScaled,
  IMPORT_PROBLEMS_KEPT,
  IMPORT_UPLOAD,
  type ImportKind,
  type ImportProblem,
  type ImportResult,
  type ImportRun,
  type ImportRunPage,
  type ImportStatus,
  type Locale,
  State,
  type SyncRunList,
} from '@elex/contract';
import type { Executor, Transaction } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import type { CsvSource } from '../../lib/csv.js';
import { displayTime } from '../../lib/display-time.js';
import type { ProblemSummary } from '../../lib/problem-list.js';
import { because, explained } from '../../lib/reasons.js';
import { findUserById } from '../auth/auth.service.js';
import { readReferralFile, rejectionProblems } from '../cashback/csv-import.js';
import { IngestRejectedError, ingestReferrals } from '../cashback/ingest.service.js';
import { loadPartners } from '../cashback/partners.js';
import {
  analyzeAfterImport,
  analyzeAfterRosterImport,
  importRebateFile,
  RebateFileRejectedError,
} from '../cashback/rebate-import.js';
import type { SettlementResult } from '../cashback/settlement.service.js';
import { runErrorText } from '../sync/run-error.js';
import { getSyncStatus, isSegmentSkip, pullSegmentCommand } from '../sync/sync.service.js';
import {
  insertImportRunRow,
  type NewImportRun,
  selectAuditActors,
  selectImportRunPage,
  updateImportRunRow,
} from './admin.repository.js';
import type { ImportRunRow } from './admin.tables.js';
import { confirmOperatorRole, recordAudit, recordAuditAsHappened } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';

/**
 * CSV imports (issue 6), from the console's upload and from `referrals:import` / `rebates:import`
 * alike: one flow (`runCsvImport`) reads and checks the file (cashback/csv-import.ts), ingests it with
 * the cashback services, and records the run in `import_runs` and the audit log, in the import's
 * transaction when it succeeds. A file with any bad line imports nothing and the answer lists the
 * first IMPORT_PROBLEMS_KEPT problems by line, and how many there were. So the console's history
 * shows every import, whichever way it came.
 */
/** The most of a fault's message a run keeps. */
const STORED_ERROR_MAX = 1000;

function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

interface Outcome {
  status: ImportStatus;
  rows: number;
  inserted: number;
  duplicates: number;
  settledCompleted: number;
  settledFailed: number;
  creditedMicro: bigint;
  /** The first IMPORT_PROBLEMS_KEPT problems; `problemCount` of them on `problemLines` lines in all. */
  problems: ImportProblem[];
  problemCount: number;
  problemLines: number;
  /** Lines of an imported file named to the operator (kept in the run's `problems` column). */
  notices: ImportProblem[];
  noticeCount: number;
  error: string | null;
}

async function recordRun(
  tx: Transaction,
  deps: AppDeps,
  context: ActionContext,
  upload: { kind: ImportKind; platId: number; fileName: string; sizeBytes: number; startedAt: Date },
  outcome: Outcome,
  /** The run opened before the records were stored (`openRun`): its outcome is written onto it. */
  openedId?: number,
): Promise<ImportRunRow> {
  const finishedAt = deps.clock.now();
  const values: NewImportRun = {
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
    // An imported file has no problems: its notices take the column (listImportRuns reads them so).
    ...(outcome.status === 'succeeded'
      ? { problemCount: outcome.noticeCount, problems: outcome.notices }
      : { problemCount: outcome.problemCount, problems: outcome.problems }),
    error: outcome.error,
    startedAt: upload.startedAt,
    finishedAt,
  };
  const run =
    openedId === undefined
      ? await insertImportRunRow(tx, values)
      : await updateImportRunRow(tx, openedId, values);
  // An import asks for the role at its end (before this); a rejected or failed attempt changed nothing
  // and stays on record whoever ran it (also the attempt the role's refusal ended).
  const audit = outcome.status === 'succeeded' ? recordAudit : recordAuditAsHappened;
  await audit(tx, {
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
      problemCount: outcome.problemCount,
      noticeCount: outcome.noticeCount,
      error: outcome.error,
    },
    at: finishedAt,
    requestId: context.requestId,
  });
  return run;
}

/**
 * A figures file's run, written in the import's transaction before its records, which name it
 * (`rebates.import_run_id`): as succeeded with nothing counted yet, and seen by no one else until the
 * import commits with its outcome (`recordRun`). A refused or failed import rolls it back with the
 * records, and its attempt is recorded as a run of its own.
 */
async function openRun(
  tx: Executor,
  context: ActionContext,
  upload: { kind: ImportKind; platId: number; fileName: string; sizeBytes: number; startedAt: Date },
): Promise<number> {
  const run = await insertImportRunRow(tx, {
    kind: upload.kind,
    platId: upload.platId,
    fileName: upload.fileName,
    sizeBytes: upload.sizeBytes,
    operatorId: context.actor.userId,
    status: 'succeeded',
    startedAt: upload.startedAt,
    finishedAt: upload.startedAt,
  });
  return run.id;
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
    problemCount: outcome.problemCount,
    problemLines: outcome.problemLines,
    notices: outcome.notices,
    noticeCount: outcome.noticeCount,
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
  problemCount: 0,
  problemLines: 0,
  notices: [],
  noticeCount: 0,
  error: null,
});

export interface CsvImportInput {
  kind: ImportKind;
  platId: number;
  /** The name the history shows (the upload's name, or the file's base name). */
  fileName: string;
  /** The CSV: a path (read as a stream) or the bytes. */
  source: CsvSource;
  sizeBytes: number;
  /** Progress of reading the file, then of writing its rows (the command's progress bars). */
  onReadProgress?(done: number, total: number): void;
  onWriteProgress?(done: number, total: number): void;
  /** Called once the file is read and checked, with its row count, before anything is written. */
  onParsed?(rows: number): void;
}

export interface CsvImportOutcome extends ImportResult {
  /** The settlement the import ran (absent when nothing was imported): its invite bonuses too. */
  settlement?: SettlementResult;
}

/** Reads, checks, ingests and records one CSV import; `context` says who ran it. */
export async function runCsvImport(
  deps: AppDeps,
  context: ActionContext,
  input: CsvImportInput,
): Promise<CsvImportOutcome> {
  const startedAt = deps.clock.now();
  const upload = {
    kind: input.kind,
    platId: input.platId,
    fileName: input.fileName,
    sizeBytes: input.sizeBytes,
    startedAt,
  };
  const rejected = async (rows: number, found: ProblemSummary) => {
    const outcome = {
      ...emptyOutcome('rejected', rows),
      problems: found.problems,
      problemCount: found.count,
      problemLines: found.lines,
    };
    const run = await deps.db.transaction((tx) => recordRun(tx, deps, context, upload, outcome));
    return toResult(run.id, outcome);
  };
  const failed = async (rows: number, error: unknown) => {
    // Whatever went wrong, the attempt is on record; the caller still hears the fault.
    const outcome = {
      ...emptyOutcome('failed', rows),
      // Cut: a failing statement's message can carry its whole SQL (1.18 MB seen, issue 13).
      error: cutText(String((error as Error).message), STORED_ERROR_MAX),
    };
    await deps.db.transaction((tx) => recordRun(tx, deps, context, upload, outcome)).catch(() => {});
  };
  const source = { kind: 'csv' as const, label: input.fileName };
  const succeeded = (
    rows: number,
    result: { inserted: number; duplicates: number; settlement: SettlementResult },
  ): Outcome => ({
    ...emptyOutcome('succeeded', rows),
    inserted: result.inserted,
    duplicates: result.duplicates,
    settledCompleted: result.settlement.completed,
    settledFailed: result.settlement.failed,
    creditedMicro: result.settlement.creditedMicro,
  });

  if (input.kind === 'rebates') {
    // Streamed through a staging table inside the import's transaction (cashback/rebate-import.ts).
    let rows = 0;
    try {
      const done = await deps.db.transaction(async (tx) => {
        const runId = await openRun(tx, context, upload);
        const result = await importRebateFile(tx, deps, input.platId, input.source, source, {
          operatorId: context.actor.userId,
          importRunId: runId,
          ...(input.onReadProgress ? { onReadProgress: input.onReadProgress } : {}),
          ...(input.onWriteProgress ? { onWriteProgress: input.onWriteProgress } : {}),
          onParsed: (count) => {
            rows = count;
            input.onParsed?.(count);
          },
        });
        // At the end, not the start: a revocation during a long file is not held up by it, and is seen.
        await confirmOperatorRole(tx, context.actor);
        const outcome = succeeded(result.rows, result);
        const run = await recordRun(tx, deps, context, upload, outcome, runId);
        return { ...toResult(run.id, outcome), settlement: result.settlement };
      });
      await analyzeAfterImport(deps, done.inserted);
      return done;
    } catch (error) {
      if (error instanceof RebateFileRejectedError) {
        return rejected(error.rows, {
          problems: error.problems,
          count: error.problemCount,
          lines: error.problemLines,
        });
      }
      await failed(rows, error);
      throw error;
    }
  }

  const parsed = await readReferralFile(input.source, startedAt, input.onReadProgress);
  if (parsed.problemCount > 0) {
    return rejected(parsed.entries.length, {
      problems: parsed.problems,
      count: parsed.problemCount,
      lines: parsed.problemLines,
    });
  }
  input.onParsed?.(parsed.entries.length);

  const progress = input.onWriteProgress ? { onProgress: input.onWriteProgress } : undefined;
  try {
    const imported = await deps.db.transaction(async (tx) => {
      const done = await ingestReferrals({ ...deps, db: tx }, input.platId, parsed.entries, source, progress);
      await confirmOperatorRole(tx, context.actor);
      const outcome = {
        ...succeeded(parsed.entries.length, {
          inserted: done.inserted,
          duplicates: done.alreadyKnown,
          settlement: done.settlement,
        }),
        // Known UIDs stated with another registration time: counted as known, named (the first ones),
        // the first time stays.
        noticeCount: done.restated.length,
        notices: done.restated.slice(0, IMPORT_PROBLEMS_KEPT).map(
          ({ index, uid, stated, stored }): ImportProblem => ({
            line: parsed.lines[index] ?? 0,
            field: 'registered_at',
            ...explained(
              because('importRegistrationDiffers', {
                uid,
                stored: displayTime(stored, 'exact'),
                stated: displayTime(stated, 'exact'),
              }),
            ),
          }),
        ),
      };
      const run = await recordRun(tx, deps, context, upload, outcome);
      return { ...toResult(run.id, outcome), settlement: done.settlement };
    });
    const { settlement } = imported;
    await analyzeAfterRosterImport(deps, {
      listed: imported.inserted,
      settled: settlement.completed + settlement.failed,
    });
    return imported;
  } catch (error) {
    if (error instanceof IngestRejectedError) {
      return rejected(parsed.entries.length, rejectionProblems(error, parsed.lines));
    }
    await failed(parsed.entries.length, error);
    throw error;
  }
}

/** /elex/admin/uploadImport: the console's upload, at most IMPORT_UPLOAD.maxBytes. */
export async function importUpload(
  deps: AppDeps,
  context: ActionContext,
  input: { kind: ImportKind; platId: number; fileName: string; csv: string },
): Promise<ImportResult> {
  const bytes = Buffer.from(input.csv, 'utf8');
  if (bytes.length > IMPORT_UPLOAD.maxBytes) throw AppError.refused('importTooLarge');
  if (!(await loadPartners(deps)).has(input.platId)) throw new AppError(State.NotFound, 'exchangeNotFound');
  const { settlement: _settlement, ...result } = await runCsvImport(deps, context, {
    kind: input.kind,
    platId: input.platId,
    fileName: input.fileName,
    source: bytes,
    sizeBytes: bytes.length,
  });
  return result;
}

/** /elex/admin/importRuns: newest first, with who uploaded each file. */
export async function listImportRuns(
  deps: AppDeps,
  page: { page: number; pageSize: number },
): Promise<ImportRunPage> {
  const { rows, total } = await selectImportRunPage(deps.db, page);
  const operators = new Map<number, string | null>();
  for (const id of new Set(rows.map((row) => row.operatorId).filter((id): id is number => id !== null))) {
    operators.set(id, (await findUserById(deps.db, id))?.email ?? null);
  }
  // An import without an operator id (run from the command line before commands named their
  // operator): the audit log names who ran it ('cli:<os user>').
  const commandLine = await selectAuditActors(
    deps.db,
    rows.filter((row) => row.operatorId === null).map((row) => `import:${row.id}`),
  );
  return {
    rows: rows.map(
      (row): ImportRun => ({
        id: row.id,
        kind: row.kind,
        platId: row.platId,
        fileName: row.fileName,
        sizeBytes: row.sizeBytes,
        operator:
          row.operatorId === null
            ? (commandLine.get(`import:${row.id}`) ?? null)
            : (operators.get(row.operatorId) ?? null),
        status: row.status,
        rows: row.rowCount,
        inserted: row.inserted,
        duplicates: row.duplicates,
        settledCompleted: row.settledCompleted,
        settledFailed: row.settledFailed,
        credited: usdt(row.creditedMicro),
        // A succeeded run's `problems` column holds its notices.
        ...(row.status === 'succeeded'
          ? { problemCount: 0, problems: [], noticeCount: row.problemCount, notices: row.problems ?? [] }
          : { problemCount: row.problemCount, problems: row.problems ?? [], noticeCount: 0, notices: [] }),
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
  locale: Locale,
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
      segmentSkipped: isSegmentSkip(run),
      // Rows a run left out are kept as facts: said in the operator's language.
      error: runErrorText(run.error, locale),
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
    })),
    cursors: status.cursors.map((cursor) => ({
      platId: cursor.platId,
      nextSegmentStart: cursor.nextSegmentStart.toISOString(),
    })),
    skippedSegments: status.skippedSegments.map(({ run, pulledByRunId }) => ({
      runId: run.id,
      platId: run.platId,
      from: run.windowStart.toISOString(),
      to: run.windowEnd.toISOString(),
      note: run.error ?? '',
      skippedAt: run.startedAt.toISOString(),
      pulledByRunId,
      pullCommand: pullSegmentCommand(run.exchange, { from: run.windowStart, to: run.windowEnd }),
    })),
    hasMore: status.runs.length > SYNC_PAGE,
  };
}
