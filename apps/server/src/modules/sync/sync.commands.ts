import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { readCommandArgs } from '../../lib/cli-args.js';
import { explained } from '../../lib/reasons.js';
import {
  type AuditActor,
  confirmOperatorRole,
  recordAudit,
  recordAuditAsHappened,
} from '../admin/audit.service.js';
import { alertAfterSyncRun } from '../alerts/alerts.service.js';
import { parseIsoTime } from '../cashback/csv-import.js';
import { runErrorText } from './run-error.js';
import {
  findSyncTarget,
  getSyncStatus,
  pullSegmentCommand,
  type SyncRunSummary,
  segmentStartProblem,
  skipSyncSegment,
  syncExchange,
} from './sync.service.js';
import { cashbackIngest, syncableAdapters } from './sync.wiring.js';

/**
 * `npm run ops -- sync <platId|name> [--from <iso>] [--to <iso>]`: the job's sync, once, for one
 * exchange. Without --from it continues from the exchange's cursor (what the job would do next);
 * with --from it pulls that window (widened to 6-hour segments, limited to what has settled) and
 * leaves the cursor alone. Exit 0 when every segment went through, 1 otherwise. The times are read
 * by the CSV import's parser (a date is midnight UTC; a time needs its zone), never `new Date(text)`,
 * which would take "March 3" or a zoneless time in the server's zone. Each run is written to the
 * audit log under the operator who ran it.
 */
export interface SyncCommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Draw a progress bar on stderr (a terminal); off in tests and pipes. */
  progress?: boolean;
}

export const syncCommands = {
  sync: {
    summary: 'pull an exchange’s referrals and commissions now (6-hour segments)',
    usage: 'sync <platId|name> [--from <iso>] [--to <iso>]',
    run: runSyncCommand,
  },
  'sync:skip': {
    summary: 'move an exchange’s sync cursor past the one segment the exchange refuses for good',
    usage: 'sync:skip <platId|name> --segment <iso start> --reason "<why>"',
    run: runSyncSkipCommand,
  },
  'sync:status': {
    summary: 'each exchange’s sync cursor, the latest sync runs and the segments operators skipped',
    needsOperator: false as const,
    usage: 'sync:status [platId|name] [--limit <n>]',
    run: runSyncStatusCommand,
  },
};

interface ParsedArgs {
  exchange: string;
  from?: Date;
  to?: Date;
}

function parseArgs(args: string[]): ParsedArgs | string {
  const read = readCommandArgs(args, ['from', 'to']);
  if (typeof read === 'string') {
    return read.replace(
      /^(--(?:from|to)) needs a value$/,
      '$1 needs a time (ISO 8601, e.g. 2026-01-01T00:00:00Z)',
    );
  }
  if (read.positionals.length !== 1) return 'name one exchange: its catalog id (4) or name (bitget)';
  const parsed: ParsedArgs = { exchange: read.positionals[0] as string };
  for (const key of ['from', 'to'] as const) {
    const text = read.values[key];
    if (text === undefined) continue;
    const date = parseIsoTime(text);
    if (!(date instanceof Date)) return `--${key}: ${explained(date).reason}`;
    parsed[key] = date;
  }
  if (parsed.to && !parsed.from) return '--to needs --from';
  if (parsed.from && parsed.to && parsed.to <= parsed.from) return '--to must be after --from';
  return parsed;
}

export async function runSyncCommand(
  deps: AppDeps,
  args: string[],
  io: SyncCommandIo,
  actor: AuditActor,
): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.err(`sync: ${parsed}\nUsage: npm run ops -- ${syncCommands.sync.usage}`);
    return 2;
  }
  const warnings: string[] = [];
  const adapters = syncableAdapters(deps, (message, details) =>
    warnings.push(`${message} ${JSON.stringify(details)}`),
  );
  const target = await findSyncTarget(deps, adapters, parsed.exchange);
  if ('error' in target) {
    io.err(`sync: ${target.error}`);
    return 1;
  }

  // cli-progress is loaded only for a bar (the CLI in a terminal), not at start.
  const cliProgress = io.progress ? (await import('cli-progress')).default : undefined;
  const bar = cliProgress
    ? new cliProgress.SingleBar(
        {
          format: `${target.adapter.exchange.padEnd(8)} |{bar}| {value}/{total} segments  {segment}`,
          stream: process.stderr,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  // The ingest settles what became due after each page (the "settled" count below). Each page's
  // transaction asks for the operator's role again: a revocation while the run goes stops it there.
  const ingest = cashbackIngest(deps, (tx) => confirmRoleForRun(tx, actor));
  let summary: SyncRunSummary;
  try {
    summary = await syncExchange({ db: deps.db, clock: deps.clock, ingest }, target, {
      trigger: 'cli',
      backfillDays: deps.config.sync.backfillDays,
      ...(parsed.from ? { window: { from: parsed.from, ...(parsed.to ? { to: parsed.to } : {}) } } : {}),
      onStart: ({ segmentsTotal }) => bar?.start(segmentsTotal, 0, { segment: '' }),
      onProgress: (progress) =>
        bar?.update(progress.segmentsDone, { segment: progress.segment.from.toISOString().slice(0, 16) }),
    });
  } finally {
    bar?.stop();
  }
  // After the run, in a write of its own: the run spans many transactions (one per page and
  // segment), each recorded in sync_runs as it goes; this entry says who asked for it and the result.
  await recordAuditAsHappened(deps.db, {
    actor,
    action: 'sync.run',
    target: `sync:${summary.runId}`,
    before: {
      exchange: summary.exchange,
      platId: summary.platId,
      from: parsed.from?.toISOString() ?? 'cursor',
      to: parsed.to?.toISOString() ?? null,
    },
    after: {
      status: summary.status,
      window: { from: summary.window.from.toISOString(), to: summary.window.to.toISOString() },
      segments: `${summary.segmentsDone}/${summary.segmentsTotal}`,
      referralsInserted: summary.referralsInserted,
      rebatesInserted: summary.rebatesInserted,
      rebatesSettled: summary.rebatesSettled,
      error: summary.error ?? null,
    },
    at: deps.clock.now(),
  });
  // A run from the shell counts toward the failure streak like the background job's, so the run
  // that makes it N alerts from here too (otherwise that outage would never be told).
  await alertAfterSyncRun(deps, summary).catch((error: unknown) =>
    io.err(`sync: the operators could not be alerted (${(error as Error).message})`),
  );

  for (const warning of warnings) io.err(`warning: ${warning}`);
  printSummary(io, summary);
  return summary.status === 'succeeded' ? 0 : 1;
}

/**
 * The operator's role asked in a page's transaction; refused, the run fails at that segment with a
 * note saying why (sync:status shows it), and the command ends with exit 2 (runOpsCommand asks again).
 */
async function confirmRoleForRun(tx: Executor, actor: AuditActor): Promise<void> {
  try {
    await confirmOperatorRole(tx, actor);
  } catch (error) {
    if (!(error instanceof AppError) || error.messageKey !== 'forbidden') throw error;
    throw new Error(
      `${actor.label} no longer holds the operator role: the run stopped before this segment's page`,
    );
  }
}

function printSummary(io: SyncCommandIo, summary: SyncRunSummary) {
  const window =
    summary.segmentsTotal === 0
      ? 'nothing due (every settled segment is already synced)'
      : `${summary.window.from.toISOString()} .. ${summary.window.to.toISOString()}`;
  io.out(`Exchange:  ${summary.exchange} (platId ${summary.platId}), run ${summary.runId}`);
  io.out(`Window:    ${window}`);
  io.out(`Segments:  ${summary.segmentsDone}/${summary.segmentsTotal}`);
  io.out(`Referrals: ${summary.referralsInserted} inserted, ${summary.referralsKnown} already known`);
  io.out(
    `Rebates:   ${summary.rebatesInserted} inserted, ${summary.rebatesDuplicates} duplicates, ${summary.rebatesSettled} settled`,
  );
  if (summary.status === 'succeeded') {
    io.out('Status:    succeeded');
    // A succeeded run's note: rows left out for a clash with stored figures, known UIDs listed with
    // another registration time (the same text sync:status shows).
    if (summary.error) io.out(`Note:      ${summary.error}`);
    return;
  }
  io.err(`Status:    ${summary.status}`);
  if (summary.failedSegmentStart) {
    io.err(`Failed at: segment ${summary.failedSegmentStart.toISOString()} (the next run starts there)`);
  }
  if (summary.error) io.err(`Error:     ${summary.error}`);
}

const REASON_MAX = 500;

/**
 * `sync:skip <platId|name> --segment <iso start> --reason "<why>"`: for a segment the exchange's API
 * refuses every time (a malformed row), which would hold every later segment back: moves the cursor
 * past exactly that segment, records a skipped run naming the operator and the reason, audits it as
 * `sync.skip` in the same transaction, and prints the command that pulls the segment later. Exit 0
 * skipped, 1 refused (changing nothing), 2 bad arguments.
 */
export async function runSyncSkipCommand(
  deps: AppDeps,
  args: string[],
  io: SyncCommandIo,
  actor: AuditActor,
): Promise<number> {
  const usage = `\nUsage: npm run ops -- ${syncCommands['sync:skip'].usage}`;
  const read = readCommandArgs(args, ['segment', 'reason']);
  if (typeof read === 'string') {
    io.err(
      `sync:skip: ${read
        .replace(
          /^--segment needs a value$/,
          '--segment needs the segment’s start (ISO 8601, e.g. 2026-01-12T18:00:00Z)',
        )
        .replace(/^--reason needs a value$/, '--reason needs a text saying why')}${usage}`,
    );
    return 2;
  }
  if (read.positionals.length !== 1) {
    io.err(`sync:skip: name one exchange: its catalog id (4) or name (bitget)${usage}`);
    return 2;
  }
  const segmentText = read.values.segment;
  if (segmentText === undefined) {
    io.err(`sync:skip: --segment needs the segment’s start (ISO 8601, e.g. 2026-01-12T18:00:00Z)${usage}`);
    return 2;
  }
  const segmentStart = parseIsoTime(segmentText);
  if (!(segmentStart instanceof Date)) {
    io.err(`sync:skip: --segment: ${explained(segmentStart).reason}${usage}`);
    return 2;
  }
  const misaligned = segmentStartProblem(segmentStart);
  if (misaligned) {
    io.err(`sync:skip: --segment: ${misaligned}${usage}`);
    return 2;
  }
  const reason = read.values.reason?.trim() ?? '';
  if (reason === '') {
    io.err(`sync:skip: --reason needs a text saying why${usage}`);
    return 2;
  }
  if (reason.length > REASON_MAX) {
    io.err(`sync:skip: --reason is ${reason.length} characters; at most ${REASON_MAX}${usage}`);
    return 2;
  }
  const target = await findSyncTarget(deps, syncableAdapters(deps), read.positionals[0] as string);
  if ('error' in target) {
    io.err(`sync:skip: ${target.error}`);
    return 1;
  }
  // The move, its run and its audit entry commit together or not at all.
  const result = await deps.db.transaction(async (tx) => {
    await confirmOperatorRole(tx, actor);
    const skip = await skipSyncSegment({ db: tx, clock: deps.clock }, target, segmentStart, {
      by: actor.label,
      reason,
    });
    if (!skip.skipped) return skip;
    await recordAudit(tx, {
      actor,
      action: 'sync.skip',
      target: `sync:${skip.run.id}`,
      before: {
        exchange: target.adapter.exchange,
        platId: target.platId,
        cursor: skip.segment.from.toISOString(),
      },
      after: {
        cursor: skip.cursor.nextSegmentStart.toISOString(),
        skipped: { from: skip.segment.from.toISOString(), to: skip.segment.to.toISOString() },
        reason,
      },
      at: deps.clock.now(),
    });
    return skip;
  });
  if (!result.skipped) {
    io.err(`sync:skip: refused, nothing changed: ${result.refusal}`);
    return 1;
  }
  const { exchange } = target.adapter;
  io.out(`Exchange:  ${exchange} (platId ${target.platId}), run ${result.run.id}`);
  io.out(`Skipped:   ${result.segment.from.toISOString()} .. ${result.segment.to.toISOString()}`);
  io.out(`Cursor:    ${result.cursor.nextSegmentStart.toISOString()} (the next sync continues there)`);
  io.out(`Reason:    ${reason}`);
  io.out('The skipped segment is not pulled by the sync. Once the exchange answers for it, pull it with:');
  io.out(`  ${pullSegmentCommand(exchange, result.segment)}`);
  return 0;
}

/** `sync:status`: where each exchange resumes, who holds it, and the latest runs (newest first). */
export async function runSyncStatusCommand(
  deps: AppDeps,
  args: string[],
  io: SyncCommandIo,
): Promise<number> {
  const usage = `\nUsage: npm run ops -- ${syncCommands['sync:status'].usage}`;
  const read = readCommandArgs(args, ['limit']);
  if (typeof read === 'string') {
    io.err(
      `sync:status: ${read.replace(/^--limit needs a value$/, '--limit needs a number from 1 to 200')}${usage}`,
    );
    return 2;
  }
  if (read.positionals.length > 1) {
    io.err(`sync:status: unexpected ${read.positionals[1]}${usage}`);
    return 2;
  }
  const limitText = read.values.limit;
  if (
    limitText !== undefined &&
    !(/^\d{1,3}$/.test(limitText) && Number(limitText) >= 1 && Number(limitText) <= 200)
  ) {
    io.err(`sync:status: --limit needs a number from 1 to 200${usage}`);
    return 2;
  }
  const limit = limitText === undefined ? 20 : Number(limitText);
  const exchange = read.positionals[0];
  let platId: number | undefined;
  if (exchange) {
    const target = await findSyncTarget(deps, syncableAdapters(deps), exchange);
    if ('error' in target) {
      io.err(`sync:status: ${target.error}`);
      return 1;
    }
    platId = target.platId;
  }
  const status = await getSyncStatus(deps, { ...(platId === undefined ? {} : { platId }), limit });
  const time = (date: Date | null | undefined) =>
    date ? date.toISOString().slice(0, 16).replace('T', ' ') : '-';
  io.out('Cursors (next segment, lock):');
  const cursors = status.cursors.filter((cursor) => platId === undefined || cursor.platId === platId);
  if (cursors.length === 0) io.out('  none yet');
  for (const cursor of cursors) {
    const lock = cursor.lockedBy ? `locked by ${cursor.lockedBy} until ${time(cursor.lockedUntil)}` : 'free';
    io.out(`  platId ${String(cursor.platId).padEnd(3)} next ${time(cursor.nextSegmentStart)}  ${lock}`);
  }
  io.out('Runs (newest first):');
  if (status.runs.length === 0) io.out('  none yet');
  for (const run of status.runs) {
    io.out(
      `  #${run.id} ${run.exchange.padEnd(7)} ${run.trigger.padEnd(3)} ${run.status.padEnd(9)} ` +
        `${time(run.windowStart)} .. ${time(run.windowEnd)}  segments ${run.segmentsDone}/${run.segmentsTotal}  ` +
        `referrals +${run.referralsInserted}/${run.referralsKnown} known  ` +
        `rebates +${run.rebatesInserted}/${run.rebatesDuplicates} dup  started ${time(run.startedAt)}` +
        (run.error ? `\n      ${runErrorText(run.error, 'en')}` : ''),
    );
  }
  // Skips stay listed however many runs came since: each is a hole in the data until pulled.
  io.out('Skipped segments (newest first):');
  if (status.skippedSegments.length === 0) io.out('  none');
  for (const { run, pulledByRunId } of status.skippedSegments) {
    const segment = { from: run.windowStart, to: run.windowEnd };
    io.out(
      `  #${run.id} ${run.exchange.padEnd(7)} ${time(run.windowStart)} .. ${time(run.windowEnd)}  skipped ${time(run.startedAt)}` +
        `\n      ${run.error ?? ''}` +
        (pulledByRunId === null
          ? `\n      not pulled yet: ${pullSegmentCommand(run.exchange, segment)}`
          : `\n      pulled since by run #${pulledByRunId}`),
    );
  }
  return 0;
}
