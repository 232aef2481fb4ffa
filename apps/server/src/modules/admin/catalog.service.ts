import { createHash } from 'node:crypto';
import {
  type AdminActivity,
  type Catalog,
  type CatalogExchange,
  DECIMALS,
  type ExchangeFields,
  type ExchangeStatus,
  fromScaled,
  type MessageKey,
  PLACEHOLDER_REFERRAL_CODE,
  type ReplaceVipTiersRequestSchema,
  type SaveActivityRequestSchema,
  State,
  signupProblems,
  toScaled,
} from '@elex/contract';
import type { z } from 'zod';
import type { Executor, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { refuseUnlessVersion } from '../../db/row-version.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import {
  type ActivityRow,
  addActivities,
  type CatalogDeps,
  createExchange,
  type ExchangeRow,
  getCatalogRows,
  invalidateCatalogCache,
  lockActivityRow,
  lockExchangeRow,
  removeActivity,
  replaceVipTiers,
  updateActivity,
  updateExchange,
  type VipTierRow,
} from '../exchanges/exchanges.service.js';
import { insertMediaUnlessPresent } from './admin.repository.js';
import { type AuditActor, recordAudit } from './audit.service.js';
import { inspectLogo, LogoRefusedError } from './logo-file.js';

/**
 * The catalog editor (issue 6): every write goes through the exchanges module's services inside a
 * transaction that also writes the audit entry, and the home cache is invalidated again after the
 * commit (the service invalidates after its own statement, which is before our commit: a request in
 * between could cache the old catalog).
 */

export interface ActionContext {
  actor: AuditActor;
  requestId: string | null;
}

const scoreOf = (tenths: number) => fromScaled(BigInt(tenths), 1);
const cashPercent = (bps: number) => fromScaled(BigInt(bps), DECIMALS.cashPercent);
const feePercent = (ppm: number) => fromScaled(BigInt(ppm), DECIMALS.feePercent);
const scaled = (value: string, scale: number) => Number(toScaled(value, scale));

function toActivity(row: ActivityRow): AdminActivity {
  return {
    id: row.id,
    platId: row.exchangeId,
    kind: row.kind,
    titles: { en: row.titles.en, zh: row.titles.zh, ko: row.titles.ko },
    activityUrl: row.activityUrl,
    position: row.position,
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toCatalogExchange(
  row: ExchangeRow,
  tiers: VipTierRow[],
  activities: ActivityRow[],
): CatalogExchange {
  return {
    platId: row.id,
    status: row.status,
    name: row.name,
    abbreviation: row.abbreviation,
    logo: row.logo,
    position: row.position,
    score: scoreOf(row.scoreTenths),
    cashRate: cashPercent(row.cashRateBps),
    speedUpCashRate: cashPercent(row.speedUpCashRateBps),
    limitPrice: feePercent(row.makerFeePpm),
    marketPrice: feePercent(row.takerFeePpm),
    vipRule: row.vipRule,
    marks: row.marks,
    signupUrlTemplate: row.signupUrlTemplate,
    referralCode: row.referralCode,
    newUserDiscountPercent: row.newUserDiscountPercent,
    newUserDiscountDays: row.newUserDiscountDays,
    isRecommended: row.isRecommended,
    isRacing: row.isRacing,
    feesCheckedOn: row.feesCheckedOn,
    updatedAt: row.updatedAt.toISOString(),
    vipTiers: tiers.map((tier) => ({
      level: tier.level,
      volume30d: tier.minVolume30dUsdt === null ? null : tier.minVolume30dUsdt.toString(),
      assetAmount: tier.minAssetAmount === null ? null : tier.minAssetAmount.toString(),
      assetSymbol: tier.minAssetSymbol,
      limitPrice: feePercent(tier.makerFeePpm),
      marketPrice: feePercent(tier.takerFeePpm),
    })),
    activities: activities.map(toActivity),
  };
}

async function loadCatalog(db: Executor): Promise<CatalogExchange[]> {
  const { exchangeRows, tierRows, activityRows } = await getCatalogRows(db);
  return exchangeRows.map((row) =>
    toCatalogExchange(
      row,
      tierRows.filter((tier) => tier.exchangeId === row.id),
      activityRows.filter((activity) => activity.exchangeId === row.id),
    ),
  );
}

async function loadExchange(db: Executor, platId: number): Promise<CatalogExchange> {
  const found = (await loadCatalog(db)).find((exchange) => exchange.platId === platId);
  if (!found) throw new AppError(State.NotFound, 'exchangeNotFound');
  return found;
}

/** /elex/admin/catalog */
export async function getCatalog(deps: AppDeps): Promise<Catalog> {
  return { exchanges: await loadCatalog(deps.db) };
}

/** The exchanges module's services run on the action's transaction. */
function within(tx: Transaction, deps: AppDeps): CatalogDeps {
  return { db: tx, clock: deps.clock };
}

/**
 * Locks the partner's row for the rest of the transaction and checks it is still the version the
 * editor loaded (`expectedUpdatedAt`): otherwise another operator saved it since, and this write,
 * built on the old page, would silently undo theirs or act on what it never showed. Refused (with
 * `refusal`), nothing written. Answers the row as locked.
 */
async function lockUnchanged(
  tx: Transaction,
  platId: number,
  expectedUpdatedAt: string,
  refusal: MessageKey = 'exchangeEditedMeanwhile',
): Promise<ExchangeRow> {
  // FOR NO KEY UPDATE: an import of this partner inserts records that reference the row for minutes
  // (FOR KEY SHARE), and a save of its fees must not hang behind it (found in review).
  const row = await lockExchangeRow(tx, platId);
  if (!row) throw new AppError(State.NotFound, 'exchangeNotFound');
  refuseUnlessVersion(row, expectedUpdatedAt, refusal);
  return row;
}

/** Runs a catalog write and its audit entry in one transaction, then drops the home cache. */
async function catalogWrite<T>(deps: AppDeps, write: (tx: Transaction) => Promise<T>): Promise<T> {
  try {
    return await deps.db.transaction(write);
  } finally {
    invalidateCatalogCache();
  }
}

/** /elex/admin/updateExchange: every field at once. */
export async function saveExchange(
  deps: AppDeps,
  context: ActionContext,
  platId: number,
  fields: ExchangeFields,
  expectedUpdatedAt: string,
): Promise<CatalogExchange> {
  return catalogWrite(deps, async (tx) => {
    await lockUnchanged(tx, platId, expectedUpdatedAt);
    const before = await loadExchange(tx, platId);
    try {
      await updateExchange(within(tx, deps), platId, {
        name: fields.name,
        abbreviation: fields.abbreviation,
        logo: fields.logo,
        position: fields.position,
        scoreTenths: scaled(fields.score, 1),
        cashRateBps: scaled(fields.cashRate, DECIMALS.cashPercent),
        speedUpCashRateBps: scaled(fields.speedUpCashRate, DECIMALS.cashPercent),
        makerFeePpm: scaled(fields.limitPrice, DECIMALS.feePercent),
        takerFeePpm: scaled(fields.marketPrice, DECIMALS.feePercent),
        vipRule: fields.vipRule,
        marks: fields.marks,
        signupUrlTemplate: fields.signupUrlTemplate,
        referralCode: fields.referralCode,
        newUserDiscountPercent: fields.newUserDiscountPercent,
        newUserDiscountDays: fields.newUserDiscountDays,
        isRecommended: fields.isRecommended,
        isRacing: fields.isRacing,
        feesCheckedOn: fields.feesCheckedOn,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.refused('abbreviationTaken');
      throw error;
    }
    const after = await loadExchange(tx, platId);
    const { vipTiers: _t1, activities: _a1, ...beforeFields } = before;
    const { vipTiers: _t2, activities: _a2, ...afterFields } = after;
    await recordAudit(tx, {
      actor: context.actor,
      action: 'exchange.update',
      target: `exchange:${platId}`,
      before: beforeFields,
      after: afterFields,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return after;
  });
}

/** What a new partner starts with: nothing a trader could be misled by, until the editor fills it. */
const DRAFT_DEFAULTS = {
  logo: '/logos/new-exchange.svg',
  scoreTenths: 0,
  cashRateBps: 0,
  speedUpCashRateBps: 0,
  makerFeePpm: 0,
  takerFeePpm: 0,
  vipRule: 'either',
  marks: [],
  signupUrlTemplate: '',
  referralCode: PLACEHOLDER_REFERRAL_CODE,
  newUserDiscountPercent: 0,
  newUserDiscountDays: 0,
  isRecommended: false,
  isRacing: false,
  feesCheckedOn: null,
} as const;

/** /elex/admin/createExchange: a new partner, as a draft only the console sees. */
export async function addExchange(
  deps: AppDeps,
  context: ActionContext,
  fields: { name: string; abbreviation: string },
): Promise<CatalogExchange> {
  return catalogWrite(deps, async (tx) => {
    let platId: number;
    try {
      platId = await createExchange(within(tx, deps), { ...DRAFT_DEFAULTS, marks: [], ...fields });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.refused('abbreviationTaken');
      throw error;
    }
    const after = await loadExchange(tx, platId);
    const { vipTiers: _tiers, activities: _activities, ...afterFields } = after;
    await recordAudit(tx, {
      actor: context.actor,
      action: 'exchange.create',
      target: `exchange:${platId}`,
      before: null,
      after: afterFields,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return after;
  });
}

/** The moves of a partner's life: from which status, to which, refused otherwise with which message. */
const TRANSITIONS = {
  publish: { from: 'draft', to: 'live', refusal: 'exchangeNotDraft' },
  retire: { from: 'live', to: 'retired', refusal: 'exchangeNotLive' },
  reinstate: { from: 'retired', to: 'live', refusal: 'exchangeNotRetired' },
} as const satisfies Record<string, { from: ExchangeStatus; to: ExchangeStatus; refusal: MessageKey }>;
export type ExchangeTransition = keyof typeof TRANSITIONS;

/**
 * /elex/admin/publishExchange, /retireExchange, /reinstateExchange. The row is held (FOR NO KEY UPDATE,
 * like a save) so two operators cannot both move it, yet a running import of the partner does not hold
 * the move up. The move is made only on the version the operator's page showed (`expectedUpdatedAt`):
 * a publish never makes live what another operator saved unseen, and a retire or reinstate from a stale
 * page does not act unseen. It moves the version, so a save built on the page before it is refused. A
 * draft is published only with a sign-up link that refers traders. Retiring touches no binding and no
 * money: the UIDs there keep their records and balances.
 */
export async function changeExchangeStatus(
  deps: AppDeps,
  context: ActionContext,
  platId: number,
  transition: ExchangeTransition,
  expectedUpdatedAt: string,
): Promise<CatalogExchange> {
  const { from, to, refusal } = TRANSITIONS[transition];
  return catalogWrite(deps, async (tx) => {
    const row = await lockUnchanged(tx, platId, expectedUpdatedAt, 'exchangeStatusEditedMeanwhile');
    if (row.status !== from) throw AppError.refused(refusal);
    if (transition === 'publish' && signupProblems(row).length > 0) {
      throw AppError.refused('exchangePublishNotReady');
    }
    await updateExchange(within(tx, deps), platId, { status: to });
    await recordAudit(tx, {
      actor: context.actor,
      action: `exchange.${transition}`,
      target: `exchange:${platId}`,
      before: { status: from },
      after: { status: to },
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return loadExchange(tx, platId);
  });
}

/** /elex/admin/replaceVipTiers */
export async function saveVipTiers(
  deps: AppDeps,
  context: ActionContext,
  input: z.output<typeof ReplaceVipTiersRequestSchema>,
): Promise<CatalogExchange> {
  return catalogWrite(deps, async (tx) => {
    await lockUnchanged(tx, input.platId, input.updatedAt);
    const before = await loadExchange(tx, input.platId);
    await replaceVipTiers(
      within(tx, deps),
      input.platId,
      input.tiers.map((tier) => ({
        level: tier.level,
        minVolume30dUsdt: tier.volume30d === null ? null : BigInt(tier.volume30d),
        minAssetAmount: tier.assetAmount === null ? null : BigInt(tier.assetAmount),
        minAssetSymbol: tier.assetSymbol,
        makerFeePpm: scaled(tier.limitPrice, DECIMALS.feePercent),
        takerFeePpm: scaled(tier.marketPrice, DECIMALS.feePercent),
      })),
    );
    const after = await loadExchange(tx, input.platId);
    await recordAudit(tx, {
      actor: context.actor,
      action: 'exchange.vipTiers',
      target: `exchange:${input.platId}`,
      before: before.vipTiers,
      after: after.vipTiers,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return after;
  });
}

/**
 * /elex/admin/saveActivity: adds one (no id) or changes one, if it is still the version the editor
 * loaded (`updatedAt`, checked under the activity's row lock): otherwise another operator changed it
 * since, and this change, built on the old values, would silently undo theirs. Refused, nothing written.
 */
export async function saveActivity(
  deps: AppDeps,
  context: ActionContext,
  input: z.output<typeof SaveActivityRequestSchema>,
): Promise<AdminActivity> {
  return catalogWrite(deps, async (tx) => {
    await loadExchange(tx, input.platId);
    const fields = {
      exchangeId: input.platId,
      kind: input.kind,
      titles: input.titles,
      activityUrl: input.activityUrl,
      position: input.position,
    };
    if (input.id === undefined) {
      const [row] = await addActivities(within(tx, deps), [fields]);
      if (!row) throw new Error('activity not written');
      const after = toActivity(row);
      await recordAudit(tx, {
        actor: context.actor,
        action: 'activity.create',
        target: `activity:${row.id}`,
        before: null,
        after,
        at: deps.clock.now(),
        requestId: context.requestId,
      });
      return after;
    }
    const before = await lockActivityRow(tx, input.id);
    if (!before) throw new AppError(State.NotFound, 'notFound');
    refuseUnlessVersion(before, input.updatedAt, 'activityEditedMeanwhile');
    const row = await updateActivity(within(tx, deps), input.id, fields);
    if (!row) throw new AppError(State.NotFound, 'notFound');
    const after = toActivity(row);
    await recordAudit(tx, {
      actor: context.actor,
      action: 'activity.update',
      target: `activity:${row.id}`,
      before: toActivity(before),
      after,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return after;
  });
}

/**
 * /elex/admin/deleteActivity: removes the activity if it is still the version the operator confirmed
 * (`expectedUpdatedAt`): otherwise another operator changed it since the confirmation opened, and the
 * removal would take away their change unseen. The check and the removal run under the activity's
 * row lock, so a save cannot commit between them: a save holding the row makes the removal wait and
 * then read the save's version (refused); a removal holding it makes the save wait and find nothing.
 */
export async function deleteActivity(
  deps: AppDeps,
  context: ActionContext,
  id: number,
  expectedUpdatedAt: string,
): Promise<void> {
  await catalogWrite(deps, async (tx) => {
    const before = await lockActivityRow(tx, id);
    if (!before) throw new AppError(State.NotFound, 'notFound');
    refuseUnlessVersion(before, expectedUpdatedAt, 'activityEditedMeanwhile');
    if (!(await removeActivity(within(tx, deps), id))) throw new AppError(State.NotFound, 'notFound');
    await recordAudit(tx, {
      actor: context.actor,
      action: 'activity.delete',
      target: `activity:${id}`,
      before: toActivity(before),
      after: null,
      at: deps.clock.now(),
      requestId: context.requestId,
    });
  });
}

/**
 * /elex/admin/uploadLogo: checks the file (type by content, 200 KB, safe SVG), stores it under its
 * SHA-256 and makes it the partner's logo, in one transaction with the audit entry, if the partner is
 * still the version the page showed (`updatedAt`, under the row lock): of two uploads from one page
 * version the second is refused, not silently replacing the first. Moves the version.
 */
export async function uploadLogo(
  deps: AppDeps,
  context: ActionContext,
  input: { platId: number; updatedAt: string; fileName: string; content: string },
): Promise<CatalogExchange> {
  const bytes = Buffer.from(input.content, 'base64');
  let type: Awaited<ReturnType<typeof inspectLogo>>;
  try {
    type = await inspectLogo(bytes);
  } catch (error) {
    if (error instanceof LogoRefusedError) throw AppError.refused(error.messageKey);
    throw error;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const logo = `/media/${sha256}.${type.extension}`;
  return catalogWrite(deps, async (tx) => {
    await lockUnchanged(tx, input.platId, input.updatedAt, 'logoEditedMeanwhile');
    const before = await loadExchange(tx, input.platId);
    const now = deps.clock.now();
    await insertMediaUnlessPresent(tx, {
      sha256,
      contentType: type.contentType,
      bytes,
      sizeBytes: bytes.length,
      uploadedBy: context.actor.userId,
      createdAt: now,
    });
    await updateExchange(within(tx, deps), input.platId, { logo });
    await recordAudit(tx, {
      actor: context.actor,
      action: 'exchange.logo',
      target: `exchange:${input.platId}`,
      before: { logo: before.logo },
      after: { logo, fileName: input.fileName, contentType: type.contentType, sizeBytes: bytes.length },
      at: now,
      requestId: context.requestId,
    });
    return loadExchange(tx, input.platId);
  });
}
