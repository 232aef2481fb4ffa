import fs from 'node:fs';
import path from 'node:path';
import { type ImportKind, type ImportResult, translate } from '@elex/contract';
import { type CommandIo, progressBar } from '../../lib/progress-bar.js';
import type { OperatorCommand } from '../../ops/command.js';
import { settlementSummary } from '../cashback/cashback.commands.js';
import { resolvePlatId } from '../cashback/ingest.service.js';
import { loadPartners } from '../cashback/partners.js';
import { runCsvImport } from './imports.service.js';

/**
 * `referrals:import` and `rebates:import` (docs/cashback.md, "Operator commands"): the console's
 * upload flow (`runCsvImport`) on a file on disk, so a command-line import is checked the same way and
 * shows in the console's import history and the audit log under the operator who ran it. Exit codes:
 * 0 imported, 1 refused (every bad line on stderr), 2 usage.
 */
export type ImportCommand = OperatorCommand<CommandIo>;

/** How many problems a command prints. */
const PRINTED_PROBLEMS = 100;

function reportBadLines(io: CommandIo, file: string, outcome: ImportResult) {
  io.err(
    `${file}: ${outcome.problemLines} bad line(s), ${outcome.problemCount} problem(s); nothing was imported.`,
  );
  // The first ones, each already short (csv-import quotes at most QUOTED_CELL_MAX characters of a cell):
  // a file of a million bad lines must not print a million lines. The answer holds the first
  // IMPORT_PROBLEMS_KEPT; the count says how many there were.
  const printed = outcome.problems.slice(0, PRINTED_PROBLEMS);
  for (const problem of printed) io.err(`  line ${problem.line}, ${problem.field}: ${problem.reason}`);
  if (outcome.problemCount > printed.length) {
    io.err(`  ${translate('en', 'importMoreProblems', { count: outcome.problemCount - printed.length })}`);
  }
}

/** Lines of an imported file named to the operator (a known UID with another registration time). */
function reportNotices(io: CommandIo, outcome: ImportResult) {
  if (outcome.noticeCount === 0) return;
  io.out(translate('en', 'importRegistrationsDiffer', { count: outcome.noticeCount }));
  const printed = outcome.notices.slice(0, PRINTED_PROBLEMS);
  for (const notice of printed) io.out(`  line ${notice.line}, ${notice.field}: ${notice.reason}`);
  if (outcome.noticeCount > printed.length) {
    io.out(`  ${translate('en', 'importMoreNotices', { count: outcome.noticeCount - printed.length })}`);
  }
}

/** What each kind of file is called in the command's lines. */
const WORDING: Record<ImportKind, { importing: (rows: number, exchange: string) => string; known: string }> =
  {
    referrals: {
      importing: (rows, exchange) => `Importing ${rows} referral(s) into the ${exchange} roster`,
      known: 'already known',
    },
    rebates: {
      importing: (rows, exchange) => `Importing ${rows} rebate row(s) for ${exchange}`,
      known: 'already imported',
    },
  };

function csvImportCommand(kind: ImportKind, summary: string, usage: string): ImportCommand {
  return {
    summary,
    usage,
    async run(deps, args, io, actor) {
      const [exchange, given] = args;
      if (args.length !== 2 || !exchange || !given) {
        io.err(`Usage: npm run ops -- ${usage}`);
        return 2;
      }
      const platId = await resolvePlatId(deps, exchange);
      if (platId === undefined) {
        io.err(`Unknown exchange "${exchange}": give its platId, name or abbreviation (see the catalog).`);
        return 1;
      }
      // Relative to the operator's shell, also when the running server reads it (io.cwd).
      const file = path.resolve(io.cwd ?? process.cwd(), given);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat?.isFile()) {
        io.err(`No such file: ${given}`);
        return 1;
      }
      const name = (await loadPartners(deps)).get(platId)?.name ?? String(platId);
      const reading = await progressBar(io, 'Reading', 'bytes');
      const writing = await progressBar(io, 'Importing', 'rows');
      try {
        const outcome = await runCsvImport(
          deps,
          { actor, requestId: null },
          {
            kind,
            platId,
            fileName: path.basename(file),
            source: file,
            sizeBytes: stat.size,
            onReadProgress: reading.update,
            onParsed: (rows) => {
              reading.stop();
              io.out(`${WORDING[kind].importing(rows, name)} (platId ${platId}) ...`);
            },
            onWriteProgress: writing.update,
          },
        );
        if (outcome.status === 'rejected') {
          reportBadLines(io, given, outcome);
          return 1;
        }
        io.out(
          `Imported ${given}: ${outcome.rows} row(s), ${outcome.inserted} new, ` +
            `${outcome.duplicates} ${WORDING[kind].known}` +
            (outcome.settlement ? `; ${settlementSummary(outcome.settlement)}.` : '.') +
            ` Recorded as import #${outcome.runId}.`,
        );
        reportNotices(io, outcome);
        return 0;
      } finally {
        reading.stop();
        writing.stop();
      }
    },
  };
}

export const referralsImport = csvImportCommand(
  'referrals',
  'import an exchange roster CSV (uid,registered_at)',
  'referrals:import <platId|name> <file.csv>',
);

export const rebatesImport = csvImportCommand(
  'rebates',
  'import per-UID figures CSV (uid,period_start,period_end,trading_volume,fee,commission)',
  'rebates:import <platId|name> <file.csv>',
);

/** The registry entries cli.ts adds to its own. */
export const importCommands: Record<string, ImportCommand> = {
  'referrals:import': referralsImport,
  'rebates:import': rebatesImport,
};
