import { DECIMALS, displayUsdt, fromScaled, State, type Withdrawal } from '@elex/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import type { WithdrawalMailParams } from '../mail/templates.js';
import type { DecidedVia, WithdrawalRow } from './withdrawals.tables.js';

/**
 * What a withdrawal request and a decision share (docs/withdrawals.md): the ledger journals' kinds and
 * keys, the fault points tests use, how amounts and times read in messages, and the withdrawal as the
 * member and the audit log see it.
 */

export const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

/** Ledger journal kinds of a withdrawal's three movements. */
export const WITHDRAWAL_JOURNAL_KINDS = {
  hold: 'withdrawalHold',
  payout: 'withdrawalPayout',
  release: 'withdrawalRelease',
} as const;

export const journalKey = (id: number, movement: keyof typeof WITHDRAWAL_JOURNAL_KINDS) =>
  `withdrawal:${id}:${movement}`;

/**
 * Points where a test makes the flow fail, to see that a failure at any step leaves the whole change
 * or none (each runs inside the transaction, after the step it names), or changes something between
 * two steps ('request:beforeTransaction' runs after the checks outside the transaction, before it
 * opens: a password change landing there must still stop the request). Never set in production.
 */
export type WithdrawalFaultPoint =
  | 'request:beforeTransaction'
  | 'request:afterInsert'
  | 'request:afterCode'
  | 'request:afterHold'
  | 'request:afterMail'
  | 'decide:afterStatus'
  | 'decide:afterJournal'
  | 'decide:afterMail';

export type WithdrawalDeps = AppDeps & {
  withdrawalFaults?: Partial<Record<WithdrawalFaultPoint, () => void | Promise<void>>>;
};

export async function checkpoint(deps: WithdrawalDeps, point: WithdrawalFaultPoint) {
  await deps.withdrawalFaults?.[point]?.();
}

/** A field checked by a contract schema inside a rule: its message key becomes the refusal. */
export function parseField<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message;
  throw AppError.refused((message as Parameters<typeof AppError.refused>[0]) ?? 'invalidValue');
}

export function parseWithdrawalId(id: string | number): number {
  const text = String(id).trim();
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new AppError(State.NotFound, 'notFound');
  return Number(text);
}

// ---------------------------------------------------------------------------------------------------
// Snapshots: what the member sees, and the full row for the operator console's audit log.

export function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: String(row.id),
    platId: row.platId,
    uid: row.uid,
    amount: usdt(row.amountMicro),
    address: row.address,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    txHash: row.txHash,
    failureReason: row.failureReason,
  };
}

/** The whole withdrawal, JSON-safe (amounts as 6-decimal strings): what the audit log records. */
export interface WithdrawalSnapshot extends Withdrawal {
  userId: number;
  requestId: string;
  /** The part taken from the UID's cashback (drawn first) and from the member's rewards. */
  cashbackPart: string;
  rewardsPart: string;
  decidedBy: number | null;
  decidedVia: DecidedVia | null;
}

export function toSnapshot(row: WithdrawalRow): WithdrawalSnapshot {
  return {
    ...toWithdrawal(row),
    userId: row.userId,
    requestId: row.requestId,
    cashbackPart: usdt(row.cashbackMicro),
    rewardsPart: usdt(row.rewardsMicro),
    decidedBy: row.decidedBy,
    decidedVia: row.decidedVia,
  };
}

/** The row as it was before a decision: pending, with no decision fields (the table's check says so). */
export function pendingVersionOf(row: WithdrawalRow): WithdrawalRow {
  return {
    ...row,
    status: 'pending',
    decidedAt: null,
    decidedBy: null,
    decidedVia: null,
    txHash: null,
    failureReason: null,
  };
}

export function mailParams(row: WithdrawalRow, exchange: string, at: Date): WithdrawalMailParams {
  return {
    amount: displayUsdt(row.amountMicro),
    address: row.address,
    exchange,
    uid: row.uid,
    at: at.toISOString(),
  };
}
