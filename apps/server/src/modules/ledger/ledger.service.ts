import type { Executor, Transaction } from '../../db/client.js';
import { isNonNegativeAccount, type ParsedAccount, parseAccountCode } from './accounts.js';
import {
  countLedgerRows,
  ensureAccountRows,
  insertJournalsWithLines,
  lockAccountRows,
  rankCashbackCreditedSince,
  selectBalances,
  selectJournalIds,
  selectRecentLines,
  sumLinesByAccount,
} from './ledger.repository.js';

export { accountCode, parseAccountCode } from './accounts.js';

/**
 * The one way money moves (docs/ledger.md). Every amount is integer micro-USDT (bigint).
 *
 * Journal kinds: 'rebate' (commission -> a UID's cashback), 'inviteBonus' (rewards-expense -> a
 * member's rewards); the withdrawal issue adds its own (hold, payout, release).
 */
export type JournalKind = 'rebate' | 'inviteBonus' | (string & {});

/**
 * What a member has earned on an account, as the member's totals and the withdrawal queue count it:
 * rebates on a UID's cashback, invite bonuses on rewards, and operators' corrections on either
 * (signed, so a debit lowers it). One list, so the operator reads the figure the member reads.
 */
export const EARNED_CASHBACK_JOURNAL_KINDS = ['rebate', 'correction'] as const;
export const EARNED_REWARD_JOURNAL_KINDS = ['inviteBonus', 'correction'] as const;

interface JournalLine {
  /** An account code (accounts.ts). */
  account: string;
  /** Signed micro-USDT, never zero. */
  amount: bigint;
}

export interface JournalInput {
  kind: JournalKind;
  /** Idempotency key: posting the same key again books nothing ('rebate:<rebateId>' ...). */
  key: string;
  lines: readonly JournalLine[];
  /** Booking time, from deps.clock. */
  at: Date;
  memo?: string;
}

export interface PostedJournal {
  key: string;
  journalId: number;
  /** False when a journal with this key existed already (nothing was booked now). */
  created: boolean;
}

export class LedgerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** A posting would take a member-facing account below zero: the caller's transaction must roll back. */
export class InsufficientBalanceError extends LedgerError {
  constructor(
    readonly account: string,
    readonly balance: bigint,
    readonly change: bigint,
  ) {
    super(`${account} holds ${balance} micro-USDT, cannot move ${change}`);
    this.name = 'InsufficientBalanceError';
  }
}

const MAX_AMOUNT = 2n ** 63n - 1n;

/** The code-side twin of the database's balance trigger, plus what the database cannot see. */
function validateJournal(journal: JournalInput): ParsedAccount[] {
  if (!journal.key || !journal.kind) throw new LedgerError('a journal needs a kind and a key');
  if (journal.lines.length < 2) throw new LedgerError(`journal ${journal.key} needs at least two lines`);
  let sum = 0n;
  const accounts: ParsedAccount[] = [];
  for (const line of journal.lines) {
    if (typeof line.amount !== 'bigint' || line.amount === 0n) {
      throw new LedgerError(`journal ${journal.key}: every line needs a non-zero bigint amount`);
    }
    if (line.amount > MAX_AMOUNT || line.amount < -MAX_AMOUNT) {
      throw new LedgerError(`journal ${journal.key}: amount out of range`);
    }
    const account = parseAccountCode(line.account);
    if (!account) throw new LedgerError(`journal ${journal.key}: unknown account ${line.account}`);
    accounts.push(account);
    sum += line.amount;
  }
  if (sum !== 0n) throw new LedgerError(`journal ${journal.key} does not balance (sum ${sum})`);
  return accounts;
}

/**
 * Posts one journal in the caller's transaction, once per key. Member-facing accounts that the
 * journal takes from are locked (`SELECT ... FOR UPDATE` on their account rows, in code order) and
 * checked against their balance, so concurrent postings cannot overdraw them; an overdraft throws
 * InsufficientBalanceError and the caller's transaction must roll back.
 */
export async function postJournal(tx: Transaction, journal: JournalInput): Promise<PostedJournal> {
  const [posted] = await postJournals(tx, [journal]);
  if (!posted) throw new LedgerError('postJournal booked nothing');
  return posted;
}

/** postJournal for many journals at once (settlement of a whole import), in multi-row statements. */
export async function postJournals(
  tx: Transaction,
  journals: readonly JournalInput[],
): Promise<PostedJournal[]> {
  if (journals.length === 0) return [];
  const parsed = new Map<string, ParsedAccount>();
  const seenKeys = new Set<string>();
  for (const journal of journals) {
    if (seenKeys.has(journal.key)) throw new LedgerError(`journal key ${journal.key} given twice`);
    seenKeys.add(journal.key);
    for (const account of validateJournal(journal)) parsed.set(account.code, account);
  }

  const used = new Set(journals.flatMap((journal) => journal.lines.map((line) => line.account)));
  // Every account of the journals, locked in code order before anything is written (see
  // ensureAccountRows); a concurrent posting of the same key has committed by the time we hold them,
  // so it is found below and not counted against a balance a second time.
  const accountIds = await ensureAccountRows(
    tx,
    [...used].map((code) => parsed.get(code) as ParsedAccount),
    journals[0]?.at ?? new Date(0),
    { lock: true },
  );
  const debited = debitedAccounts(journals, parsed);
  const before = await selectJournalIds(
    tx,
    journals.map((journal) => journal.key),
  );
  const fresh = journals.filter((journal) => !before.has(journal.key));
  let newIds = new Map<string, number>();
  if (fresh.length > 0) {
    await refuseOverdrafts(tx, fresh, debited);
    newIds = await insertJournalsWithLines(
      tx,
      fresh.map((journal) => ({
        kind: journal.kind,
        key: journal.key,
        memo: journal.memo ?? null,
        at: journal.at,
        lines: journal.lines.map((line) => ({
          accountId: accountIds.get(line.account) as number,
          amount: line.amount,
        })),
      })),
    );
  }
  const raced = fresh.filter((journal) => !newIds.has(journal.key)).map((journal) => journal.key);
  const existingIds =
    raced.length > 0 ? new Map([...before, ...(await selectJournalIds(tx, raced))]) : before;

  return journals.map((journal) => {
    const created = newIds.get(journal.key);
    const journalId = created ?? existingIds.get(journal.key);
    if (journalId === undefined) throw new LedgerError(`journal ${journal.key} vanished`);
    return { key: journal.key, journalId, created: created !== undefined };
  });
}

/** The member-facing accounts some journal takes from: they may not go below zero. */
function debitedAccounts(journals: readonly JournalInput[], parsed: Map<string, ParsedAccount>): Set<string> {
  const debited = new Set<string>();
  for (const journal of journals) {
    for (const line of journal.lines) {
      const account = parsed.get(line.account);
      if (line.amount < 0n && account && isNonNegativeAccount(account.kind)) debited.add(line.account);
    }
  }
  return debited;
}

/** Replays the journals over the locked accounts' balances: none may go below zero. */
async function refuseOverdrafts(tx: Transaction, journals: readonly JournalInput[], debited: Set<string>) {
  if (debited.size === 0) return;
  // A new statement after the lock: it sees every posting committed before the lock was granted.
  const running = await selectBalances(tx, [...debited]);
  for (const journal of journals) {
    for (const line of journal.lines) {
      if (!debited.has(line.account)) continue;
      const before = running.get(line.account) ?? 0n;
      const after = before + line.amount;
      if (after < 0n) throw new InsufficientBalanceError(line.account, before, line.amount);
      running.set(line.account, after);
    }
  }
}

/**
 * An account's balance: the one kept on its row (the sum of its lines). With `forUpdate` the account row is created if needed and locked until the
 * transaction ends: a withdrawal checks the balance and posts its hold under that one lock.
 */
export async function balanceOf(
  tx: Executor,
  code: string,
  options: { forUpdate?: boolean; at?: Date } = {},
): Promise<bigint> {
  if (options.forUpdate) {
    const account = parseAccountCode(code);
    if (!account) throw new LedgerError(`unknown account ${code}`);
    await ensureAccountRows(tx, [account], options.at ?? new Date());
    await lockAccountRows(tx, [code]);
  }
  return (await selectBalances(tx, [code])).get(code) ?? 0n;
}

/**
 * Holds these accounts (created if need be) until the transaction ends, locked in code order as a
 * posting locks them: for a caller that must decide under the lock what it posts to them (settlement
 * asks whether an inviter still has an account once their rewards account is held; a deletion holds it
 * while it forfeits it).
 */
export async function holdAccounts(tx: Transaction, codes: readonly string[], at: Date): Promise<void> {
  const accounts = [...new Set(codes)].map((code) => {
    const account = parseAccountCode(code);
    if (!account) throw new LedgerError(`unknown account ${code}`);
    return account;
  });
  if (accounts.length > 0) await ensureAccountRows(tx, accounts, at, { lock: true });
}

/** Balances of many accounts at once (no locks): for pages. */
export async function balancesOf(db: Executor, codes: readonly string[]): Promise<Map<string, bigint>> {
  return selectBalances(db, [...new Set(codes)]);
}

/** Per account, the sum of the lines that journals of these kinds booked to it (e.g. credited cashback). */
export async function creditedByAccount(
  db: Executor,
  codes: readonly string[],
  journalKinds: readonly JournalKind[],
): Promise<Map<string, bigint>> {
  const rows = await sumLinesByAccount(db, { codes: [...new Set(codes)], journalKinds });
  return new Map(rows.map((row) => [row.code, row.total]));
}

/**
 * Cashback credited by rebate journals since a moment, per UID of the given exchanges: each exchange's
 * `top` UIDs, largest first, with how many UIDs were credited and how much in all (public statistics).
 */
export async function cashbackRankingSince(
  db: Executor,
  platIds: readonly number[],
  since: Date,
  top: number,
): Promise<
  Array<{ platId: number; uid: string; amountMicro: bigint; holders: number; exchangeTotalMicro: bigint }>
> {
  const rows = await rankCashbackCreditedSince(db, { platIds, since, top });
  return rows.map((row) => ({
    platId: row.platId,
    uid: row.uid,
    amountMicro: row.total,
    holders: row.holders,
    exchangeTotalMicro: row.exchangeTotal,
  }));
}

/**
 * The latest movements of some accounts, newest first, with each account's balance after the movement
 * (the withdrawal queue shows an operator the UID's cashback and the member's rewards this way).
 */
export async function recentMovements(
  db: Executor,
  codes: readonly string[],
  limit = 20,
): Promise<
  Array<{
    account: string;
    kind: JournalKind;
    memo: string | null;
    at: Date;
    amountMicro: bigint;
    balanceAfterMicro: bigint;
  }>
> {
  const rows = await selectRecentLines(db, codes, limit);
  return rows.map((row) => ({
    account: row.code,
    kind: row.kind,
    memo: row.memo,
    at: row.at,
    amountMicro: row.amount,
    balanceAfterMicro: row.balanceAfter,
  }));
}

/** How many accounts, journals and lines the ledger holds (ledger:check's report). */
export function ledgerSize(db: Executor) {
  return countLedgerRows(db);
}
