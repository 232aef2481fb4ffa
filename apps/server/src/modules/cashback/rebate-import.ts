import { DECIMALS, fromScaled, IMPORT_PROBLEMS_KEPT, type MessageKey } from '@elex/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { CommissionEntry } from '../../integrations/exchanges/types.js';
import { type CsvProblem, type CsvSource, streamCsv } from '../../lib/csv.js';
import type { ProblemSummary } from '../../lib/problem-list.js';
import { because, explained } from '../../lib/reasons.js';
import { decideStagedFile, lockExchangeLedger, rowsOf } from './cashback.repository.js';
import { parseRebateLine, REBATE_COLUMNS } from './csv-import.js';
import { UnknownExchangeError } from './ingest.service.js';
import { validateCommissionEntries } from './ingest-validation.js';
import { loadPartners } from './partners.js';
import { stagingJson } from './rebate-staging-json.js';
import {
  addSettlement,
  importRuleOf,
  noSettlement,
  SETTLEMENT_PAGE,
  type SettlementResult,
  settleExchange,
  storeSettledRows,
} from './settlement.service.js';

/**
 * `rebates:import` and the console's figures upload, set-based (issue 14, docs/cashback.md "CSV
 * files"). The file streams, one line at a time, into a temporary staging table of the import's
 * transaction; the file-wide checks (a key given twice, periods of one UID that overlap, in the file
 * or against what is stored) are SQL over that table; then the rows go into `rebates` by chunks of
 * whole statements and settle by pages. Memory holds one batch and one settlement page, whatever the
 * file's size; the problems of a refused file go to a second staging table, and only the first
 * IMPORT_PROBLEMS_KEPT of them by line come back, with how many there were (a file of a million
 * duplicate lines built a million problems, issue 14). All in the caller's one transaction: a refused file or a killed import leaves nothing,
 * and importing the same file again records nothing new.
 */

/**
 * The file has bad lines: nothing is imported (the transaction must roll back). `problems` holds the
 * first IMPORT_PROBLEMS_KEPT of them by line; `problemCount` and `problemLines` count all of them.
 */
export class RebateFileRejectedError extends Error {
  readonly problems: CsvProblem[];
  readonly problemCount: number;
  readonly problemLines: number;
  constructor(
    readonly rows: number,
    summary: ProblemSummary,
  ) {
    super(`${summary.count} problem(s) on ${summary.lines} line(s) of the figures file, nothing imported`);
    this.name = 'RebateFileRejectedError';
    this.problems = summary.problems;
    this.problemCount = summary.count;
    this.problemLines = summary.lines;
  }
}

export interface RebateImportOptions {
  onReadProgress?(bytesRead: number, bytesTotal: number): void;
  /** The file is read and checked: its row count, before anything is written. */
  onParsed?(rows: number): void;
  onWriteProgress?(done: number, total: number): void;
  /**
   * The operator importing (null: the bootstrap or a test actor): a file crediting a UID bound to
   * their own account is refused (`importOwnUid`), as their own withdrawal, corrections and unbinds are.
   */
  operatorId?: number | null;
  /**
   * The import run (import_runs) the records are stored under, written by the caller in this
   * transaction before the records: who imported a UID's figures is read from it (`bindOwnImport`).
   */
  importRunId?: number | null;
}

export interface RebateImportResult {
  rows: number;
  inserted: number;
  duplicates: number;
  settlement: SettlementResult;
}

/** Rows a staging statement carries (one JSON parameter: no parameter limit to mind). */
export const STAGING_BATCH = 5_000;
/** Above this many rows the import refreshes the planner's statistics of what it wrote. */
const ANALYZE_AFTER_ROWS = 10_000;

const STAGING = sql.raw('rebate_import_rows');
/** The staged rows to store, numbered by UID and period (the settlement pages' order) and decided. */
const BY_UID = sql.raw('rebate_import_by_uid');
/**
 * The problems found, one row each: `n` is the order they were found in (a line's problems keep it),
 * `params` the reason's parameters as JSON text (rendered when read back, the first few only).
 */
const PROBLEMS = sql.raw('rebate_import_problems');

export async function importRebateFile(
  tx: Transaction,
  deps: AppDeps,
  platId: number,
  file: CsvSource,
  source: { kind: 'csv' | 'api'; label: string },
  options: RebateImportOptions = {},
): Promise<RebateImportResult> {
  const now = deps.clock.now();
  // Everything in the import's transaction (PGlite has one connection).
  const within: AppDeps = { ...deps, db: tx };
  const partner = (await loadPartners(within)).get(platId);
  if (!partner) throw new UnknownExchangeError(platId);

  await tx.execute(sql`
    create temporary table ${STAGING} (
      n serial primary key, line integer not null, uid text not null,
      period_start timestamptz not null, period_end timestamptz not null,
      trading_volume_micro bigint not null, fee_micro bigint not null, commission_micro bigint not null
    ) on commit drop`);
  await tx.execute(sql`
    create temporary table ${PROBLEMS} (
      n serial primary key, line integer not null, field text not null, key text, params text, reason text
    ) on commit drop`);

  let rows = 0;
  let entries: CommissionEntry[] = [];
  let lines: number[] = [];
  // The problems found since the last flush (a batch's at most, or STAGING_BATCH of bad lines).
  let pending: CsvProblem[] = [];
  // One batch is written while the next is parsed: the database works in its own process meanwhile
  // (on PostgreSQL staging took parse time plus write time, one after the other). A failed write is
  // seen by the next flush or the last one.
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    for (const problem of validateCommissionEntries(entries, now)) {
      const { index, ...rest } = problem;
      pending.push({ ...rest, line: lines[index] ?? 0 });
    }
    const json = entries.length > 0 ? stagingJson(entries, lines) : undefined;
    const problemJson = pending.length > 0 ? problemsJson(pending) : undefined;
    entries = [];
    lines = [];
    pending = [];
    if (!json && !problemJson) return;
    await writing;
    writing = (async () => {
      if (json) await stageBatch(tx, json);
      if (problemJson) await stageProblems(tx, problemJson);
    })();
    writing.catch(() => undefined);
  };
  for await (const item of streamCsv(file, REBATE_COLUMNS, options.onReadProgress)) {
    if (!('values' in item)) {
      pending.push(item);
      if (pending.length >= STAGING_BATCH) await flush();
      continue;
    }
    rows += 1;
    const parsed = parseRebateLine(item.values, item.line);
    if (parsed.problems) {
      pending.push(...parsed.problems);
      if (pending.length >= STAGING_BATCH) await flush();
      continue;
    }
    entries.push(parsed.entry);
    lines.push(item.line);
    if (entries.length >= STAGING_BATCH) await flush();
  }
  await flush();
  await writing;

  await fileWideProblems(tx);
  const refused = await problemsFound(tx);
  if (refused) throw new RebateFileRejectedError(rows, refused);

  await lockExchangeLedger(tx, platId);
  const operatorId = options.operatorId ?? null;
  await storedOverlaps(tx, platId);
  await storedRestatements(tx, platId);
  await ownUidLines(tx, platId, operatorId);
  const clashes = await problemsFound(tx);
  if (clashes) throw new RebateFileRejectedError(rows, clashes);
  options.onParsed?.(rows);

  const toStore = await withoutStoredKeys(tx, platId);
  await orderByUid(tx, platId, importRuleOf(within, partner, now));

  // Stored already settled, a settlement page at a time (at least five steps, so progress moves),
  // then what was waiting from before settles.
  const step = Math.min(SETTLEMENT_PAGE, Math.max(1_000, Math.ceil(toStore / 5)));
  const settlement = noSettlement();
  let inserted = 0;
  for (let from = 0; from < toStore; from += step) {
    const to = from + step;
    inserted += await storeSettledRows(
      tx,
      within,
      partner,
      now,
      { decided: BY_UID, from, to, source, importRunId: options.importRunId ?? null },
      settlement,
    );
    options.onWriteProgress?.(Math.min(toStore, to), toStore);
  }
  addSettlement(settlement, await settleExchange(tx, within, partner, now));
  // Again at the end: a binding does not wait for the exchange's ledger lock, so one the operator
  // made while a long file was being written is seen here, before the import commits.
  await ownUidLines(tx, platId, operatorId);
  const boundMeanwhile = await problemsFound(tx);
  if (boundMeanwhile) throw new RebateFileRejectedError(rows, boundMeanwhile);
  return { rows, inserted, duplicates: rows - inserted, settlement };
}

async function stageBatch(tx: Transaction, json: string): Promise<void> {
  await tx.execute(sql`
    insert into ${STAGING} (line, uid, period_start, period_end, trading_volume_micro, fee_micro,
      commission_micro)
    select line, uid, period_start, period_end, trading_volume_micro, fee_micro, commission_micro
    from json_to_recordset(${json}::json) as r(line integer, uid text,
      period_start timestamptz, period_end timestamptz, trading_volume_micro bigint, fee_micro bigint,
      commission_micro bigint)`);
}

/**
 * Drops the staged rows whose key is stored already (a file imported again, or a later file that
 * repeats some periods): they are skipped, as before, but found once here, under the exchange's
 * ledger lock, and not by every settlement page. The planner's statistics of `rebates` are those of
 * before the import, so that per-page check read all of the exchange's records each time: at a
 * million lines the import slowed with every page (issue 14). Answers how many rows remain.
 */
async function withoutStoredKeys(tx: Transaction, platId: number): Promise<number> {
  await tx.execute(sql`
    delete from ${STAGING} s using rebates r
    where r.plat_id = ${platId} and r.uid = s.uid and r.period_start = s.period_start
      and r.period_end = s.period_end`);
  const [row] = rowsOf<{ rows: number | string }>(
    await tx.execute(sql`select count(*) as rows from ${STAGING}`),
  );
  return Number(row?.rows ?? 0);
}

/**
 * Numbers the staged rows by UID and period into BY_UID, each decided there by the rule
 * (decideStagedFile), so a settlement page holds whole UIDs and one journal pays each UID's records,
 * and a page is credited and stored from the table as it is. In file order a file sorted by day put
 * every UID on every page: a journal per record, and each UID's account row updated once per page in
 * one transaction (a million-line file: a million journals, and row versions piling up on every account).
 */
async function orderByUid(
  tx: Transaction,
  platId: number,
  rule: Omit<Parameters<typeof decideStagedFile>[1], 'platId' | 'staging' | 'into'>,
): Promise<void> {
  await decideStagedFile(tx, { platId, staging: STAGING, into: BY_UID, ...rule });
  await tx.execute(sql`alter table ${BY_UID} add primary key (n)`);
  // Temporary tables are never analyzed by autovacuum: without statistics the pages' joins guess.
  await tx.execute(sql`analyze ${BY_UID}`);
}

/** Problems found in JS (a line's cells, a batch's checks) as the problem statement's JSON parameter. */
function problemsJson(problems: readonly CsvProblem[]): string {
  return JSON.stringify(
    problems.map((problem, i) => ({
      i,
      line: problem.line,
      field: problem.field,
      key: problem.key ?? null,
      params: problem.params ? JSON.stringify(problem.params) : null,
      reason: problem.key ? null : problem.reason,
    })),
  );
}

async function stageProblems(tx: Transaction, json: string): Promise<void> {
  await tx.execute(sql`
    insert into ${PROBLEMS} (line, field, key, params, reason)
    select line, field, key, params, reason
    from json_to_recordset(${json}::json) as r(i integer, line integer, field text, key text,
      params text, reason text)
    order by i`);
}

/**
 * The problems found so far, or undefined when there are none: how many, on how many lines, and the
 * first IMPORT_PROBLEMS_KEPT by line (the operator fixes a file from its top). Two statements whatever
 * the count; the table is emptied for the next checks.
 */
async function problemsFound(tx: Transaction): Promise<ProblemSummary | undefined> {
  const [counts] = rowsOf<{ problems: number | string; lines: number | string }>(
    await tx.execute(sql`select count(*) as problems, count(distinct line) as lines from ${PROBLEMS}`),
  );
  const count = Number(counts?.problems ?? 0);
  if (count === 0) return undefined;
  const first = rowsOf<{
    line: number;
    field: string;
    key: string | null;
    params: string | null;
    reason: string | null;
  }>(
    await tx.execute(sql`
      select line, field, key, params, reason from ${PROBLEMS} order by line, n limit ${IMPORT_PROBLEMS_KEPT}`),
  );
  await tx.execute(sql`truncate ${PROBLEMS}`);
  return {
    problems: first.map((row) => ({
      line: Number(row.line),
      field: row.field,
      ...(row.key === null
        ? { reason: row.reason ?? '' }
        : explained(
            rendered(row.key as MessageKey, row.params === null ? undefined : JSON.parse(row.params)),
          )),
    })),
    count,
    lines: Number(counts?.lines ?? 0),
  };
}

/** A reason as SQL stated it: stored times as ISO instants, stored amounts (micro) in USDT. */
function rendered(key: MessageKey, params: Record<string, string | number> | undefined) {
  if (!params) return because(key);
  if (key === 'importOverlapsStored') {
    return because(key, {
      start: new Date(params.start as string).toISOString(),
      end: new Date(params.end as string).toISOString(),
    });
  }
  if (key === 'importRestatesStored') {
    return because(key, {
      volume: usdt(String(params.volume)),
      fee: usdt(String(params.fee)),
      commission: usdt(String(params.commission)),
    });
  }
  return because(key, params);
}

/**
 * A key (UID and period) given twice, and two different periods of one UID that overlap (they would
 * pay the same trades twice): the later line is reported, naming the earlier one. Overlaps are looked
 * for among the first line of each key, as the old whole-file check did. Into PROBLEMS.
 *
 * One sort of the file serves both (docs/decisions.md, "A figures file's duplicates and overlaps in
 * one sort"): by UID and period, a key's lines come in file order, so a line other than its key's
 * first is a duplicate of that first line; a first line starting before the furthest end so far
 * overlaps the line that reached that end. A duplicate brings no end its first line did not, so the
 * reach is the first lines' alone, and every duplicate starts before it (its first line precedes it).
 * A duplicate is not taken out: any problem refuses the whole file.
 */
async function fileWideProblems(tx: Transaction): Promise<void> {
  await tx.execute(sql`
    with ordered as (
      select line, uid, period_start, period_end,
        first_value(line) over (partition by uid, period_start, period_end order by line) as first_line,
        max(period_end) over (partition by uid order by period_start, period_end, line
          rows between unbounded preceding and 1 preceding) as reach
      from ${STAGING}
    )
    insert into ${PROBLEMS} (line, field, key, params)
    select found.line, found.field, found.key, found.params
    from ordered o
    cross join lateral (
      select o.line, 'row', 'importDuplicateRow', json_build_object('line', o.first_line)::text
      where o.line <> o.first_line
      union all
      select greatest(o.line, other.line), 'period_start', 'importOverlapsLine',
        json_build_object('line', least(o.line, other.line))::text
      from (
        select s.line from ${STAGING} s
        where s.uid = o.uid and s.period_end = o.reach
          and (s.period_start, s.period_end, s.line) < (o.period_start, o.period_end, o.line)
        order by s.period_start, s.period_end, s.line limit 1
      ) other
      where o.line = o.first_line
    ) found (line, field, key, params)
    where o.period_start < o.reach
    order by found.line`);
}

/**
 * Staged rows of a UID bound (live) to the importing operator: the file credits their own account, so
 * another operator imports it (found in review: an operator could pay themselves by file). Into PROBLEMS.
 */
async function ownUidLines(tx: Transaction, platId: number, operatorId: number | null): Promise<void> {
  if (operatorId === null) return;
  await tx.execute(sql`
    insert into ${PROBLEMS} (line, field, key, params)
    select s.line, 'uid', 'importOwnUid', json_build_object('uid', s.uid)::text from ${STAGING} s
    where exists (
      select 1 from exchange_bindings b
      where b.plat_id = ${platId} and b.uid = s.uid and b.user_id = ${operatorId} and b.unbound_at is null
    )
    order by s.line`);
}

/** Staged rows whose period overlaps a different period of the same UID already stored. Into PROBLEMS. */
async function storedOverlaps(tx: Transaction, platId: number): Promise<void> {
  await tx.execute(sql`
    insert into ${PROBLEMS} (line, field, key, params)
    select s.line, 'period_start', 'importOverlapsStored',
      json_build_object('start', r.period_start, 'end', r.period_end)::text
    from ${STAGING} s
    cross join lateral (
      select r.period_start, r.period_end from rebates r
      where r.plat_id = ${platId} and r.uid = s.uid
        and r.period_end > s.period_start and r.period_start < s.period_end
        and (r.period_start, r.period_end) <> (s.period_start, s.period_end)
      limit 1
    ) r
    order by s.line`);
}

/**
 * Staged rows whose key is stored already with other figures: the exchange restated a period. The
 * first figures stand (the record may be paid), so such a line is not a duplicate to skip in silence:
 * the file is refused naming the stored figures, and the operator removes the line and posts a
 * correction if the new figures are right (found in review: a restatement read "1 duplicate").
 * Into PROBLEMS, the amounts in micro-USDT as text (rendered when read back).
 */
async function storedRestatements(tx: Transaction, platId: number): Promise<void> {
  await tx.execute(sql`
    insert into ${PROBLEMS} (line, field, key, params)
    select s.line, 'row', 'importRestatesStored',
      json_build_object('volume', r.trading_volume_micro::text, 'fee', r.fee_micro::text,
        'commission', r.commission_micro::text)::text
    from ${STAGING} s
    join rebates r on r.plat_id = ${platId} and r.uid = s.uid and r.period_start = s.period_start
      and r.period_end = s.period_end
    where (r.trading_volume_micro, r.fee_micro, r.commission_micro)
      is distinct from (s.trading_volume_micro, s.fee_micro, s.commission_micro)
    order by s.line`);
}

const usdt = (micro: bigint | string) => fromScaled(BigInt(micro), DECIMALS.usdt);

/**
 * Fresh planner statistics for what a large import wrote, after it committed: without them the
 * member calls planned over a table that grew a million rows took 40 times longer until autovacuum
 * came by (issue 14: myInfo 123 ms before ANALYZE, 2.9 ms after).
 */
export async function analyzeAfterImport(deps: AppDeps, rows: number): Promise<void> {
  if (rows < ANALYZE_AFTER_ROWS) return;
  // The UIDs' kept totals and days and the invite bonuses grow with the records; member calls read them,
  // and the public statistics the credits per UID and day (its aggregate spills to disk when the
  // planner thinks a few hundred UIDs were credited).
  await refreshStatistics(
    deps,
    sql`analyze rebates, rebate_uid_totals, rebate_uid_days, event_rewards, invite_bonus_totals,
      event_reward_counts, ledger_journals, ledger_lines, ledger_accounts, cashback_credit_days`,
  );
}

/**
 * After the import has committed: statistics help the planner and are not part of the import, so a
 * failure here leaves them to autovacuum instead of reporting a committed import as failed (and
 * recording a failed run beside the one that succeeded).
 */
async function refreshStatistics(deps: AppDeps, analyze: SQL): Promise<void> {
  await deps.db.execute(analyze).catch(() => undefined);
}

/**
 * The same after a roster import: the roster that grew by many UIDs (a bind's check, settlement's and
 * the reconciliation's joins read it), and, when its settlement decided many waiting records, what
 * that settlement wrote.
 */
export async function analyzeAfterRosterImport(
  deps: AppDeps,
  outcome: { listed: number; settled: number },
): Promise<void> {
  if (outcome.listed >= ANALYZE_AFTER_ROWS) await refreshStatistics(deps, sql`analyze referrals`);
  await analyzeAfterImport(deps, outcome.settled);
}
