import {
  canonicalPromotionCode,
  ENCR_REFUSAL_MESSAGES,
  type EncrRefusal,
  type PromotionCode,
  type PromotionCodePage,
  type PromotionStatus,
  State,
} from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { refuseUnlessVersion } from '../../db/row-version.js';
import { AppError } from '../../http/app-error.js';
import {
  countSignup,
  findPromotionCodeByCode,
  findPromotionCodeForUpdate,
  insertPromotionCode,
  selectPromotionCodePage,
  updatePromotionCodeRow,
} from './promotions.repository.js';
import type { PromotionCodeRow } from './promotions.tables.js';

/**
 * Promotion codes (`encr`, issue 11): whether a registration may use one, counting its use, and the
 * console's list and changes. Codes compare case-insensitively (stored upper-cased).
 */

const DAY_MS = 24 * 60 * 60_000;

/** What a registration with this code would meet now: disabled, then expired, then used up. */
function statusOf(row: PromotionCodeRow, now: Date): PromotionStatus {
  if (row.disabledAt) return 'disabled';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (row.maxUses !== null && row.signups >= row.maxUses) return 'usedUp';
  return 'active';
}

function encrRefused(reason: EncrRefusal): AppError {
  return new AppError(State.Refused, ENCR_REFUSAL_MESSAGES[reason], {}, { encrRefused: reason });
}

function refusalFor(row: PromotionCodeRow | undefined, now: Date): AppError | null {
  if (!row) return encrRefused('unknown');
  const status = statusOf(row, now);
  return status === 'active' ? null : encrRefused(status);
}

/**
 * Refuses a code a registration could not use now (unknown, disabled, expired, at its cap), with the
 * reason in the refusal's content. Answers the code as stored. Reads only: the registration counts
 * its use with `usePromotionCode` in its own transaction.
 */
export async function checkPromotionCode(db: Executor, code: string, now: Date): Promise<string> {
  const canonical = canonicalPromotionCode(code);
  const refusal = refusalFor(await findPromotionCodeByCode(db, canonical), now);
  if (refusal) throw refusal;
  return canonical;
}

/**
 * Counts a registration's use of a code in the registration's transaction, or refuses it. The count
 * and the cap are one conditional UPDATE, so concurrent registrations cannot pass the cap; the
 * registration rolling back takes its count back with it.
 */
export async function usePromotionCode(tx: Executor, code: string, now: Date): Promise<string> {
  const canonical = canonicalPromotionCode(code);
  if (await countSignup(tx, canonical, now)) return canonical;
  // The UPDATE matched nothing: say why. A row that looks usable again here (re-enabled this instant)
  // was not usable when the UPDATE ran; its cap is the likeliest reason.
  throw refusalFor(await findPromotionCodeByCode(tx, canonical), now) ?? encrRefused('usedUp');
}

// --- the console (through the admin module, which audits each change)

/** The first day a code no longer works, from its last valid day (UTC). */
function expiryOf(validThrough: string | null): Date | null {
  return validThrough === null ? null : new Date(Date.parse(`${validThrough}T00:00:00Z`) + DAY_MS);
}

function validThroughOf(expiresAt: Date | null): string | null {
  return expiresAt === null ? null : new Date(expiresAt.getTime() - DAY_MS).toISOString().slice(0, 10);
}

export function toPromotionCode(row: PromotionCodeRow, now: Date): PromotionCode {
  return {
    id: row.id,
    code: row.code,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    validThrough: validThroughOf(row.expiresAt),
    maxUses: row.maxUses,
    signups: row.signups,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    status: statusOf(row, now),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function refuseDayInPast(validThrough: string | null, now: Date) {
  if (validThrough !== null && validThrough < now.toISOString().slice(0, 10)) {
    throw AppError.refused('promotionValidThroughPast');
  }
}

export async function listPromotionCodes(
  db: Executor,
  page: { page: number; pageSize: number },
  now: Date,
): Promise<PromotionCodePage> {
  const { rows, total } = await selectPromotionCodePage(db, page);
  return { rows: rows.map((row) => toPromotionCode(row, now)), total, ...page };
}

export interface NewPromotionCodeInput {
  code: string;
  note: string;
  validThrough: string | null;
  maxUses: number | null;
}

/** Creates a code; a code taken (in any letter case) is refused. */
export async function createPromotionCode(
  tx: Executor,
  input: NewPromotionCodeInput,
  creator: { userId: number | null; label: string },
  now: Date,
): Promise<PromotionCodeRow> {
  refuseDayInPast(input.validThrough, now);
  const row = await insertPromotionCode(tx, {
    code: canonicalPromotionCode(input.code),
    note: input.note,
    createdById: creator.userId,
    createdBy: creator.label,
    createdAt: now,
    expiresAt: expiryOf(input.validThrough),
    maxUses: input.maxUses,
    updatedAt: now,
  });
  if (!row) throw AppError.refused('promotionCodeTaken');
  return row;
}

export interface PromotionCodeChange {
  note?: string | undefined;
  validThrough?: string | null | undefined;
  maxUses?: number | null | undefined;
  disabled?: boolean | undefined;
}

/**
 * Changes the fields given, under the row's lock (a registration counting a use waits, so a cap is
 * never lowered below a sign-up committed meanwhile), only if the code is still the version the
 * operator's change was built on (`expectedUpdatedAt`, checked under that lock): else another operator
 * changed it since and this change would set their fields back or flip their switch unseen, refused
 * with `promotionCodeEditedMeanwhile`, nothing written. A sign-up does not move the version. A new last
 * valid day cannot be in the past (to stop a code, disable it); a cap cannot go below the sign-ups
 * made. Answers the row before and after.
 */
export async function changePromotionCode(
  tx: Executor,
  id: number,
  change: PromotionCodeChange,
  expectedUpdatedAt: string,
  now: Date,
): Promise<{ before: PromotionCodeRow; after: PromotionCodeRow }> {
  const before = await findPromotionCodeForUpdate(tx, id);
  if (!before) throw new AppError(State.NotFound, 'notFound');
  refuseUnlessVersion(before, expectedUpdatedAt, 'promotionCodeEditedMeanwhile');
  const patch: Parameters<typeof updatePromotionCodeRow>[2] = {};
  if (change.note !== undefined) patch.note = change.note;
  if (change.validThrough !== undefined && change.validThrough !== validThroughOf(before.expiresAt)) {
    refuseDayInPast(change.validThrough, now);
    patch.expiresAt = expiryOf(change.validThrough);
  }
  if (change.maxUses !== undefined) {
    if (change.maxUses !== null && change.maxUses < before.signups) {
      throw AppError.refused('promotionCapBelowSignups', { signups: before.signups });
    }
    patch.maxUses = change.maxUses;
  }
  if (change.disabled !== undefined) patch.disabledAt = change.disabled ? (before.disabledAt ?? now) : null;
  return { before, after: await updatePromotionCodeRow(tx, id, patch, now) };
}
