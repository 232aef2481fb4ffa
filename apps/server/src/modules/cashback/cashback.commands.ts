import { parseArgs } from 'node:util';
import { DECIMALS, EXCHANGE_UID_PATTERN, fromScaled } from '@elex/contract';
import type { Transaction } from '../../db/client.js';
import type { RebuiltFigures } from '../../db/kept-table.js';
import type { CommandIo } from '../../lib/progress-bar.js';
import type { OpenCommand, OperatorCommand } from '../../ops/command.js';
import { confirmOperatorRole, recordAudit } from '../admin/audit.service.js';
import { settleAudited } from '../admin/reconciliation.service.js';
import { alertLedgerBroken } from '../alerts/alerts.service.js';
import { rebuildLedgerDaySums } from '../ledger/day-sums.js';
import { ledgerSize } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { seedDemo } from './demo-seed.js';
import { resolvePlatId } from './ingest.service.js';
import { rebuildKeptFigures } from './kept-figures.js';
import { loadPartners } from './partners.js';
import type { SettlementResult } from './settlement.service.js';

/**
 * The cashback engine's operator commands (docs/cashback.md, "Operator commands"). Each is a plain
 * function of the app's dependencies, its arguments and where to write, answering the exit code:
 * tests call them directly; cli.ts registers them. The CSV imports (`referrals:import`,
 * `rebates:import`) live with the console's uploads in modules/admin/imports.commands.ts: one flow,
 * one history.
 */
export type { CommandIo } from '../../lib/progress-bar.js';

export type CashbackCommand = OperatorCommand<CommandIo> | OpenCommand<CommandIo>;

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

export function settlementSummary(settlement: SettlementResult): string {
  return (
    `settled ${settlement.completed + settlement.failed}: ${settlement.completed} completed ` +
    `(${usdt(settlement.creditedMicro)} USDT cashback, ${usdt(settlement.bonusMicro)} USDT invite bonuses), ` +
    `${settlement.failed} failed` +
    (settlement.recovered > 0
      ? `; ${settlement.recovered} of them once refused as not referred, now in the roster`
      : '')
  );
}

export const ledgerCheck: OpenCommand<CommandIo> = {
  needsOperator: false,
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
    // The operators (and the webhook) hear of it too; the server's outbox worker sends it.
    await alertLedgerBroken(deps, 'cli', problems);
    io.err('The operators with the ledger alert on have been alerted.');
    return 1;
  },
};

export const rebatesSettle: OperatorCommand<CommandIo> = {
  summary: 'settle every due rebate record (all exchanges, one, or one UID of one)',
  usage: 'rebates:settle [platId|name] [--uid <uid>]',
  async run(deps, args, io, actor) {
    let parsed: ReturnType<typeof parseSettleArgs>;
    try {
      parsed = parseSettleArgs(args);
    } catch (error) {
      io.err(`${(error as Error).message}. Usage: rebates:settle [platId|name] [--uid <uid>]`);
      return 1;
    }
    const [exchange] = parsed.positionals;
    const uid = parsed.values.uid;
    let platId: number | undefined;
    if (exchange) {
      platId = await resolvePlatId(deps, exchange);
      if (platId === undefined) {
        io.err(`Unknown exchange "${exchange}".`);
        return 1;
      }
    }
    if (uid !== undefined && (platId === undefined || !EXCHANGE_UID_PATTERN.test(uid))) {
      io.err(
        platId === undefined
          ? '--uid needs the exchange too: rebates:settle <platId|name> --uid <uid>'
          : `"${uid}" is not a UID (4-32 of A-Z a-z 0-9 _ -).`,
      );
      return 1;
    }
    const partners = await loadPartners(deps);
    // One audit entry per exchange that settled anything, written with the money (settleAudited).
    const result = await settleAudited(deps, actor, { platId, uid });
    for (const [id, settlement] of result.byExchange) {
      if (settlement.completed + settlement.failed === 0) continue;
      io.out(`  ${partners.get(id)?.name ?? id}: ${settlementSummary(settlement)}`);
    }
    io.out(`Settlement done: ${settlementSummary(result)}.`);
    return 0;
  },
};

function parseSettleArgs(args: string[]) {
  return parseArgs({ args, allowPositionals: true, strict: true, options: { uid: { type: 'string' } } });
}

/**
 * Computes the kept figures (docs/ledger.md, 4b and 6a–6e) again from the lines, records and rewards, for when
 * `ledger:check` names one that is off; prints what it changed, audited as the operator.
 */
export const keptRebuild: OperatorCommand<CommandIo> = {
  summary:
    "rebuild the kept figures (UIDs' totals and days, invite bonuses, reward counts, the ledger's day sums) from the records",
  usage: 'kept:rebuild',
  async run(deps, _args, io, actor) {
    const at = deps.clock.now();
    // Two transactions, each audited: the ledger's day sums lock the lines, the others the records and
    // rewards, and no one transaction may hold both (rebuildLedgerDaySums says why).
    const rebuild = (target: string, figuresOf: (tx: Transaction) => Promise<RebuiltFigures[]>) =>
      deps.db.transaction(async (tx) => {
        // The role asked again where the figures are rewritten (a revocation meanwhile: exit 2).
        await confirmOperatorRole(tx, actor);
        const figures = await figuresOf(tx);
        await recordAudit(tx, { actor, action: 'kept.rebuild', target, after: figures, at });
        return figures;
      });
    const rebuilt = [
      ...(await rebuild('kept-figures', rebuildKeptFigures)),
      ...(await rebuild('ledger-day-sums', rebuildLedgerDaySums)),
    ];
    for (const figure of rebuilt) {
      io.out(`  ${figure.table}: ${figure.rows} rows; ${figure.removed} taken out, ${figure.added} put in`);
    }
    const changed = rebuilt.some((figure) => figure.removed + figure.added > 0);
    io.out(
      changed
        ? 'Kept figures rebuilt: run ledger:check to confirm.'
        : 'Kept figures rebuilt: nothing was off.',
    );
    return 0;
  },
};

/**
 * Development only (refused in production) and audited as 'demo:seed' by demo-seed.ts: it runs on a
 * fresh database, before anyone could be an operator, so it names none.
 */
export const demoSeed: OpenCommand<CommandIo> = {
  needsOperator: false,
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
  'rebates:settle': rebatesSettle,
  'ledger:check': ledgerCheck,
  'kept:rebuild': keptRebuild,
  'demo:seed': demoSeed,
};
