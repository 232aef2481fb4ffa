import type { LedgerAccountKind } from './ledger.tables.js';

/**
 * Ledger account codes (docs/ledger.md). One spelling per account; the database checks the code
 * against its parts (ledger_accounts_code_check).
 *
 * Sign convention: a member-facing account's balance is what we owe the member, so credits are
 * positive. The sources (`commission:<platId>`, `rewards-expense`) go negative by what they paid out.
 */
export const accountCode = {
  /** Where an exchange's cashback comes from (our commission income). */
  commission: (platId: number) => `commission:${platId}`,
  /** A UID's cashback balance: by UID, not by binding, so it waits for the UID's next binding. */
  cashback: (platId: number, uid: string) => `cashback:${platId}:${uid}`,
  /** A member's event rewards (invite bonuses ...). */
  rewards: (userId: number) => `rewards:${userId}`,
  /** The platform's cost of event rewards. */
  rewardsExpense: 'rewards-expense',
  /** Funds held for a withdrawal under review (withdrawal issue). */
  hold: (withdrawalId: number) => `hold:${withdrawalId}`,
  /** Paid out on chain (withdrawal issue). */
  payout: 'payout',
  /** The platform's side of operator corrections: minus what corrections credited members, net. */
  adjustments: 'adjustments',
} as const;

export interface ParsedAccount {
  code: string;
  kind: LedgerAccountKind;
  platId: number | null;
  uid: string | null;
  userId: number | null;
  referenceId: number | null;
}

const UID_PART = /^[A-Za-z0-9_-]{1,64}$/;
const ID_PART = /^[1-9]\d{0,17}$/;

/** The parts of an account code, or null when the code is not one of ours. */
export function parseAccountCode(code: string): ParsedAccount | null {
  const base = { code, platId: null, uid: null, userId: null, referenceId: null };
  if (code === accountCode.rewardsExpense) return { ...base, kind: 'rewards-expense' };
  if (code === accountCode.payout) return { ...base, kind: 'payout' };
  if (code === accountCode.adjustments) return { ...base, kind: 'adjustments' };
  const [kind, first, second, ...rest] = code.split(':');
  if (rest.length > 0 || first === undefined || !ID_PART.test(first)) return null;
  const id = Number(first);
  if (kind === 'cashback') {
    return second !== undefined && UID_PART.test(second) ? { ...base, kind, platId: id, uid: second } : null;
  }
  if (second !== undefined) return null;
  if (kind === 'commission') return { ...base, kind, platId: id };
  if (kind === 'rewards') return { ...base, kind, userId: id };
  if (kind === 'hold') return { ...base, kind, referenceId: id };
  return null;
}

/**
 * Accounts that hold a member's money may never go negative: postJournal checks it under a row lock
 * on the account, so no interleaving of requests can overdraw one.
 */
export function isNonNegativeAccount(kind: LedgerAccountKind): boolean {
  return kind === 'cashback' || kind === 'rewards' || kind === 'hold';
}
