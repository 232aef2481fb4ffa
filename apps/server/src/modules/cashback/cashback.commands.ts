import fs from 'node:fs';
import path from 'node:path';
import { DECIMALS, fromScaled } from '@elex/contract';
import cliProgress from 'cli-progress';
import type { AppDeps } from '../../app.js';
import type { CsvProblem } from '../../lib/csv.js';
import { ledgerSize } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { readRebateFile, readReferralFile } from './csv-import.js';
import { seedDemo } from './demo-seed.js';
import {
  IngestRejectedError,
  ingestRebates,
  ingestReferrals,
  resolvePlatId,
  settleRebates,
} from './ingest.service.js';
import { loadPartners } from './partners.js';
import type { SettlementResult } from './settlement.service.js';

/**
 * The cashback engine's operator commands (docs/cashback.md, "Operator commands"). Each is a plain
 * function of the app's dependencies, its arguments and where to write, answering the exit code:
 * tests call them directly; cli.ts registers them.
 */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Draw progress bars on stderr (a terminal); off in tests and pipes. */
  progress?: boolean;
}

export interface CashbackCommand {
  summary: string;
  usage: string;
  run(deps: AppDeps, args: string[], io: CommandIo): Promise<number>;
}

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

function progressBar(io: CommandIo, label: string, unit: string) {
  if (!io.progress) return { update: (_done: number, _total: number) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label.padEnd(10)} |{bar}| {percentage}% {value}/{total} ${unit}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done: number, total: number) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

function reportBadLines(io: CommandIo, file: string, problems: readonly CsvProblem[]) {
  const lines = new Set(problems.map((problem) => problem.line)).size;
  io.err(`${file}: ${lines} bad line(s), ${problems.length} problem(s); nothing was imported.`);
  for (const problem of problems) io.err(`  line ${problem.line}, ${problem.field}: ${problem.reason}`);
}

function settlementSummary(settlement: SettlementResult): string {
  return (
    `settled ${settlement.completed + settlement.failed}: ${settlement.completed} completed ` +
    `(${usdt(settlement.creditedMicro)} USDT cashback, ${usdt(settlement.bonusMicro)} USDT invite bonuses), ` +
    `${settlement.failed} failed`
  );
}

interface ImportTarget {
  platId: number;
  name: string;
  file: string;
}

async function importTarget(deps: AppDeps, args: string[], usage: string, io: CommandIo) {
  const [exchange, file] = args;
  if (args.length !== 2 || !exchange || !file) {
    io.err(`Usage: npm run ops -- ${usage}`);
    return 2;
  }
  const platId = await resolvePlatId(deps, exchange);
  if (platId === undefined) {
    io.err(`Unknown exchange "${exchange}": give its platId, name or abbreviation (see the catalog).`);
    return 1;
  }
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    io.err(`No such file: ${file}`);
    return 1;
  }
  const name = (await loadPartners(deps)).get(platId)?.name ?? String(platId);
  return { platId, name, file } satisfies ImportTarget;
}

/** Maps an ingest refusal (rows numbered in the batch) back to file lines (the console's upload too). */
export function rejectionProblems(error: IngestRejectedError, lines: readonly number[]): CsvProblem[] {
  return error.problems.map((problem) => ({
    line: lines[problem.index] ?? 0,
    field: problem.field,
    reason: problem.reason,
  }));
}

export const referralsImport: CashbackCommand = {
  summary: 'import an exchange roster CSV (uid,registered_at)',
  usage: 'referrals:import <platId|name> <file.csv>',
  async run(deps, args, io) {
    const target = await importTarget(deps, args, this.usage, io);
    if (typeof target === 'number') return target;
    const reading = progressBar(io, 'Reading', 'bytes');
    const parsed = await readReferralFile(target.file, deps.clock.now(), reading.update);
    reading.stop();
    if (parsed.problems.length > 0) {
      reportBadLines(io, target.file, parsed.problems);
      return 1;
    }
    io.out(
      `Importing ${parsed.entries.length} referral(s) into the ${target.name} roster (platId ${target.platId}) ...`,
    );
    const writing = progressBar(io, 'Importing', 'rows');
    try {
      const result = await ingestReferrals(
        deps,
        target.platId,
        parsed.entries,
        { kind: 'csv', label: path.basename(target.file) },
        { onProgress: writing.update },
      );
      writing.stop();
      io.out(
        `Imported ${target.file}: ${parsed.entries.length} row(s), ${result.inserted} new, ` +
          `${result.alreadyKnown} already known; ${settlementSummary(result.settlement)}.`,
      );
      return 0;
    } catch (error) {
      writing.stop();
      if (!(error instanceof IngestRejectedError)) throw error;
      reportBadLines(io, target.file, rejectionProblems(error, parsed.lines));
      return 1;
    }
  },
};

export const rebatesImport: CashbackCommand = {
  summary: 'import per-UID figures CSV (uid,period_start,period_end,trading_volume,fee,commission)',
  usage: 'rebates:import <platId|name> <file.csv>',
  async run(deps, args, io) {
    const target = await importTarget(deps, args, this.usage, io);
    if (typeof target === 'number') return target;
    const reading = progressBar(io, 'Reading', 'bytes');
    const parsed = await readRebateFile(target.file, deps.clock.now(), reading.update);
    reading.stop();
    if (parsed.problems.length > 0) {
      reportBadLines(io, target.file, parsed.problems);
      return 1;
    }
    io.out(
      `Importing ${parsed.entries.length} rebate row(s) for ${target.name} (platId ${target.platId}) ...`,
    );
    const writing = progressBar(io, 'Importing', 'rows');
    try {
      const result = await ingestRebates(
        deps,
        target.platId,
        parsed.entries,
        { kind: 'csv', label: path.basename(target.file) },
        { onProgress: writing.update },
      );
      writing.stop();
      io.out(
        `Imported ${target.file}: ${parsed.entries.length} row(s), ${result.inserted} new, ` +
          `${result.duplicates} already imported; ${settlementSummary(result.settlement)}.`,
      );
      return 0;
    } catch (error) {
      writing.stop();
      if (!(error instanceof IngestRejectedError)) throw error;
      reportBadLines(io, target.file, rejectionProblems(error, parsed.lines));
      return 1;
    }
  },
};

export const ledgerCheck: CashbackCommand = {
  summary: 'verify every ledger invariant (exit 1 listing the broken ones)',
  usage: 'ledger:check',
  async run(deps, _args, io) {
    const problems = await checkAllInvariants(deps.db);
    const size = await ledgerSize(deps.db);
    if (problems.length === 0) {
      io.out(
        `Ledger OK: every invariant holds (${size.accounts} accounts, ${size.journals} journals, ${size.lines} lines).`,
      );
      return 0;
    }
    io.err(`Ledger check failed: ${problems.length} invariant(s) broken.`);
    for (const problem of problems) io.err(`  ${problem.invariant}: ${problem.detail}`);
    return 1;
  },
};

export const rebatesSettle: CashbackCommand = {
  summary: 'settle every due rebate record (all exchanges, or one)',
  usage: 'rebates:settle [platId|name]',
  async run(deps, args, io) {
    let platId: number | undefined;
    if (args[0]) {
      platId = await resolvePlatId(deps, args[0]);
      if (platId === undefined) {
        io.err(`Unknown exchange "${args[0]}".`);
        return 1;
      }
    }
    const result = await settleRebates(deps, platId === undefined ? {} : { platId });
    const partners = await loadPartners(deps);
    for (const [id, settlement] of result.byExchange) {
      if (settlement.completed + settlement.failed === 0) continue;
      io.out(`  ${partners.get(id)?.name ?? id}: ${settlementSummary(settlement)}`);
    }
    io.out(`Settlement done: ${settlementSummary(result)}.`);
    return 0;
  },
};

export const demoSeed: CashbackCommand = {
  summary: 'create the demo member (demo@elex.local) with bindings and 90 days of rebates',
  usage: 'demo:seed',
  async run(deps, _args, io) {
    if (deps.config.env === 'production') {
      io.err('demo:seed refuses to run with NODE_ENV=production: it creates a member with a known password.');
      return 1;
    }
    const result = await seedDemo(deps);
    io.out('DEMO DATA (made-up figures, for development and demos only)');
    io.out(`  member:   ${result.email}  password: ${result.password}`);
    io.out(`  friend:   ${result.friendEmail} (invited by the demo member, same password)`);
    io.out(
      `  ${result.createdMembers} member(s) created, ${result.newBindings} binding(s) made, ` +
        `${result.rows} daily rebate row(s) imported, ${result.inserted} new.`,
    );
    return 0;
  },
};

/** The registry entries cli.ts adds to its own. */
export const cashbackCommands: Record<string, CashbackCommand> = {
  'referrals:import': referralsImport,
  'rebates:import': rebatesImport,
  'rebates:settle': rebatesSettle,
  'ledger:check': ledgerCheck,
  'demo:seed': demoSeed,
};
