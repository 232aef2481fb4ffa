import {
  DECIMALS,
  fromScaled,
  type OpenRebate,
  type OpenRebatePage,
  type OpenRebateReason,
  RECONCILIATION,
  type ReconciliationFigures,
  type ReconciliationSummary,
  type ResettleResult,
  type RosterPage,
  type RosterSource,
  State,
} from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { maskEmail } from '../cashback/mask-email.js';
import { loadPartners } from '../cashback/partners.js';
import { REFERRAL_GRACE_DAYS, type SettlementResult, settleRebates } from '../cashback/settlement.service.js';
import type { AuditActor } from './audit.service.js';
import { confirmOperatorRole, recordAudit } from './audit.service.js';
import {
  type CommissionFigures,
  type OpenRebateRow,
  selectOpenRebatePage,
  selectRosterPage,
  sumCommissionByExchange,
  sumWithdrawalsByExchange,
  type WithdrawalFigures,
} from './reconciliation.repository.js';

/**
 * The console's reconciliation (issue 12, docs/operator-console.md "Reconciliation"): per exchange and
 * period, the commission received and what became of it, the payouts, the roster, the records not
 * paid with why, and re-settling an exchange or a UID with the settlement service.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The UTC days asked for, or the last 30 days (today included). */
function resolvePeriod(now: Date, from?: string, to?: string): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const end =
    to ??
    (from
      ? dayOf(Date.parse(`${from}T00:00:00Z`) + (RECONCILIATION.defaultDays - 1) * DAY_MS)
      : dayOf(today));
  const start = from ?? dayOf(Date.parse(`${end}T00:00:00Z`) - (RECONCILIATION.defaultDays - 1) * DAY_MS);
  return { from: start, to: end };
}

function figuresOf(commission?: CommissionFigures, withdrawals?: WithdrawalFigures) {
  const zero = 0n;
  const settled = commission?.settledCommissionMicro ?? zero;
  const credited = commission?.creditedMicro ?? zero;
  const rewards = commission?.rewardsMicro ?? zero;
  return {
    records: commission?.records ?? 0,
    commission: commission?.commissionMicro ?? zero,
    credited,
    creditedUnbound: commission?.creditedUnboundMicro ?? zero,
    rewards,
    margin: settled - credited - rewards,
    awaitingSettlement: commission?.awaitingMicro ?? zero,
    unbound: commission?.unboundMicro ?? zero,
    paidOut: withdrawals?.paidOutMicro ?? zero,
    held: withdrawals?.heldMicro ?? zero,
    heldCount: withdrawals?.heldCount ?? 0,
  };
}
type Figures = ReturnType<typeof figuresOf>;

function toWire(figures: Figures): ReconciliationFigures {
  return {
    records: figures.records,
    heldCount: figures.heldCount,
    commission: usdt(figures.commission),
    credited: usdt(figures.credited),
    creditedUnbound: usdt(figures.creditedUnbound),
    rewards: usdt(figures.rewards),
    margin: usdt(figures.margin),
    awaitingSettlement: usdt(figures.awaitingSettlement),
    unbound: usdt(figures.unbound),
    paidOut: usdt(figures.paidOut),
    held: usdt(figures.held),
  };
}

export async function reconciliationSummary(
  deps: AppDeps,
  query: { from?: string | undefined; to?: string | undefined },
): Promise<ReconciliationSummary> {
  const period = resolvePeriod(deps.clock.now(), query.from, query.to);
  const days = Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY_MS) + 1;
  if (days < 1) throw new AppError(State.ValidationFailed, 'reconciliationRangeOrder');
  if (days > RECONCILIATION.maxDays) throw new AppError(State.ValidationFailed, 'reconciliationRangeTooLong');
  const from = new Date(`${period.from}T00:00:00Z`);
  const to = new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS);
  const [partners, commission, withdrawals] = await Promise.all([
    loadPartners(deps),
    sumCommissionByExchange(deps.db, from, to),
    sumWithdrawalsByExchange(deps.db, from, to),
  ]);
  const commissionOf = new Map(commission.map((row) => [row.platId, row]));
  const withdrawalsOf = new Map(withdrawals.map((row) => [row.platId, row]));
  const platIds = new Set([...partners.keys(), ...commissionOf.keys(), ...withdrawalsOf.keys()]);
  const exchanges = [...platIds].map((platId) => ({
    platId,
    name: partners.get(platId)?.name ?? `#${platId}`,
    figures: figuresOf(commissionOf.get(platId), withdrawalsOf.get(platId)),
  }));
  const totals = figuresOf();
  for (const { figures } of exchanges) {
    for (const key of Object.keys(totals) as Array<keyof Figures>) {
      (totals[key] as bigint | number) = (totals[key] as never) + (figures[key] as never);
    }
  }
  return {
    ...period,
    exchanges: exchanges.map(({ platId, name, figures }) => ({ platId, name, ...toWire(figures) })),
    totals: toWire(totals),
  };
}

async function requirePartner(deps: AppDeps, platId: number) {
  const partner = (await loadPartners(deps)).get(platId);
  if (!partner) throw new AppError(State.NotFound, 'exchangeNotFound');
  return partner;
}

function rosterSource(source: string, label: string): RosterSource {
  if (source === 'csv') return 'import';
  return label.startsWith('checkReferral:') ? 'liveCheck' : 'sync';
}

export async function reconciliationRoster(
  deps: AppDeps,
  query: { platId: number; uidPrefix?: string | undefined; page: number; pageSize: number },
): Promise<RosterPage> {
  await requirePartner(deps, query.platId);
  const { rows, total } = await selectRosterPage(deps.db, { ...query, prefix: query.uidPrefix ?? '' });
  return {
    rows: rows.map((row) => ({
      uid: row.uid,
      registeredAt: row.registeredAt.toISOString(),
      source: rosterSource(row.source, row.sourceLabel),
      sourceLabel: row.sourceLabel,
      firstSeenAt: row.firstSeenAt.toISOString(),
      boundTo: row.email ? maskEmail(row.email) : null,
      boundAt: row.boundAt?.toISOString() ?? null,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** Why a record is not paid, and for a pending one when settlement decides it (see the contract). */
function openReason(
  row: OpenRebateRow,
  now: Date,
  delayHours: number,
): { reason: OpenRebateReason; decidesAt: Date | null } {
  if (row.status === 'failed') {
    if (row.failureReason === 'noCommission') return { reason: 'noCommission', decidesAt: null };
    return { reason: row.inRoster ? 'rosterArrived' : 'uidNotReferred', decidesAt: null };
  }
  const dueAt = new Date(row.periodEnd.getTime() + delayHours * HOUR_MS);
  if (dueAt.getTime() > now.getTime()) return { reason: 'notYetDue', decidesAt: dueAt };
  if (row.inRoster) return { reason: 'awaitingSettlement', decidesAt: null };
  const failsAt = new Date(row.periodEnd.getTime() + REFERRAL_GRACE_DAYS * DAY_MS);
  return failsAt.getTime() > now.getTime()
    ? { reason: 'awaitingRoster', decidesAt: failsAt }
    : { reason: 'awaitingSettlement', decidesAt: null };
}

export async function reconciliationRebates(
  deps: AppDeps,
  query: {
    platId: number;
    status?: 'pending' | 'failed' | undefined;
    uid?: string | undefined;
    page: number;
    pageSize: number;
  },
): Promise<OpenRebatePage> {
  await requirePartner(deps, query.platId);
  const { status, uid, ...rest } = query;
  const { rows, total } = await selectOpenRebatePage(deps.db, {
    ...rest,
    ...(status ? { status } : {}),
    ...(uid ? { uid } : {}),
  });
  const now = deps.clock.now();
  return {
    rows: rows.map((row): OpenRebate => {
      const { reason, decidesAt } = openReason(row, now, deps.config.settlementDelayHours);
      return {
        id: row.id,
        uid: row.uid,
        periodStart: row.periodStart.toISOString(),
        periodEnd: row.periodEnd.toISOString(),
        fee: usdt(row.feeMicro),
        commission: usdt(row.commissionMicro),
        status: row.status,
        reason,
        receivedAt: row.createdAt.toISOString(),
        settledAt: row.settledAt?.toISOString() ?? null,
        decidesAt: decidesAt?.toISOString() ?? null,
        boundTo: row.email ? maskEmail(row.email) : null,
      };
    }),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * Settles every due record of one exchange or all (and those once refused as not referred whose UID
 * is listed now), or one UID's, with the settlement service; one `rebates.settle` entry per exchange
 * that settled anything, in that exchange's settlement transaction, so the money and its record
 * commit together. The console and `rebates:settle` both come here. Idempotent by construction: a
 * settled record is not due any more, so a second call (a double click) settles nothing and writes no
 * entry; two at once queue on the exchange's ledger lock.
 */
export async function settleAudited(
  deps: AppDeps,
  actor: AuditActor,
  scope: { platId?: number | undefined; uid?: string | undefined },
  requestId: string | null = null,
) {
  const partners = await loadPartners(deps);
  const { platId, uid } = scope;
  return settleRebates(deps, {
    ...(platId === undefined ? {} : { platId }),
    ...(uid === undefined ? {} : { uid }),
    // The role asked again in each exchange's transaction that settled anything (at its end, as an
    // import asks): a revocation meanwhile rolls that exchange's settlement back and stops the rest.
    onSettled: async (tx, settledPlatId, settlement) => {
      await confirmOperatorRole(tx, actor);
      await recordAudit(tx, {
        actor,
        action: 'rebates.settle',
        target: uid === undefined ? `settlement:${settledPlatId}` : `settlement:${settledPlatId}:${uid}`,
        after: {
          platId: settledPlatId,
          exchange: partners.get(settledPlatId)?.name ?? null,
          uid: uid ?? null,
          completed: settlement.completed,
          failed: settlement.failed,
          recovered: settlement.recovered,
          cashbackCredited: usdt(settlement.creditedMicro),
          inviteBonuses: usdt(settlement.bonusMicro),
        },
        at: deps.clock.now(),
        requestId,
      });
    },
  });
}

export async function resettle(
  deps: AppDeps,
  context: { actor: AuditActor; requestId: string | null },
  input: { platId: number; uid?: string | undefined },
): Promise<ResettleResult> {
  await requirePartner(deps, input.platId);
  const result: SettlementResult = await settleAudited(deps, context.actor, input, context.requestId);
  return {
    platId: input.platId,
    uid: input.uid ?? null,
    settled: result.completed + result.failed,
    completed: result.completed,
    failed: result.failed,
    recovered: result.recovered,
    credited: usdt(result.creditedMicro),
    rewards: usdt(result.bonusMicro),
  };
}
