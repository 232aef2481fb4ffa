import * as z from 'zod';
import { PageRequestSchema, pageOf } from './admin.js';
import { exchangeUidSchema, platIdSchema } from './exchanges.js';
import type { MessageKey } from './messages.js';
import { daySchema } from './promotions.js';

/**
 * Reconciliation in the operator console (issue 12, docs/operator-console.md "Reconciliation"):
 * `POST /elex/admin/reconciliation/<call>`, operators only like every console call. Amounts are USDT
 * decimal strings with 6 decimals, times ISO 8601 UTC, days YYYY-MM-DD (UTC, inclusive).
 */

const fail = (key: MessageKey) => ({ error: key });
const usdt = z.string();
const isoTime = z.string();

export const RECONCILIATION = {
  /** The period shown when none is asked for: the last 30 UTC days, today included. */
  defaultDays: 30,
  /** The longest period one summary may cover. */
  maxDays: 366,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days from `from` to `to`, both included (1 for one day). */
export function reconciliationDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

// /elex/admin/reconciliation/summary {from?, to?}: per exchange, the commission received on those UTC
// days (both included; the last 30 days by default) and what became of it, with the payouts.
export const ReconciliationSummaryRequestSchema = z
  .object({ from: daySchema.optional(), to: daySchema.optional() })
  .superRefine((value, ctx) => {
    if (value.from === undefined || value.to === undefined) return;
    const days = reconciliationDays(value.from, value.to);
    if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'reconciliationRangeOrder' });
    else if (days > RECONCILIATION.maxDays) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'reconciliationRangeTooLong' });
    }
  });
export type ReconciliationSummaryRequest = z.input<typeof ReconciliationSummaryRequestSchema>;

/**
 * The figures of one exchange (or the totals). The identity, to the cent:
 * commission = credited + rewards + margin + awaitingSettlement + unbound.
 */
export const ReconciliationFiguresSchema = z.object({
  /** Rebate records received (imported or synced) in the period. */
  records: z.number().int(),
  /** Their commission: what the exchange paid us for them. */
  commission: usdt,
  /** Cashback credited to the UIDs' cashback accounts by those records' rebate journals. */
  credited: usdt,
  /** Of `credited`, what sits on UIDs no member holds now (waits for the UID's next binding). */
  creditedUnbound: usdt,
  /** Invite bonuses those records paid (their inviteBonus journals, from rewards-expense). */
  rewards: usdt,
  /** What the platform keeps of the settled records: their commission - credited - rewards. */
  margin: usdt,
  /** Commission of records not settled yet whose UID is in the roster (not due yet, or due now). */
  awaitingSettlement: usdt,
  /** Commission of records whose UID is not in the roster, so nobody can have bound it: waiting. */
  unbound: usdt,
  /** Withdrawals of the exchange's UIDs paid on chain in the period (cashback and rewards parts). */
  paidOut: usdt,
  /** Withdrawals of the exchange's UIDs under review now: the funds on hold. */
  held: usdt,
  heldCount: z.number().int(),
});
export type ReconciliationFigures = z.infer<typeof ReconciliationFiguresSchema>;

export const ReconciliationSummarySchema = z.object({
  from: z.string(),
  to: z.string(),
  exchanges: z.array(ReconciliationFiguresSchema.extend({ platId: z.number().int(), name: z.string() })),
  totals: ReconciliationFiguresSchema,
});
export type ReconciliationSummary = z.infer<typeof ReconciliationSummarySchema>;

/** A UID, or none when empty (a form's cleared field). */
const optionalUidSchema = z.preprocess(
  (value) => (value === '' ? undefined : value),
  exchangeUidSchema.optional(),
);

/** The start of a UID: up to 32 of its characters, empty for all. */
export const uidPrefixSchema = z
  .string(fail('uidInvalid'))
  .trim()
  .regex(/^[A-Za-z0-9_-]{0,32}$/, fail('uidInvalid'));

// /elex/admin/reconciliation/roster {platId, uidPrefix?, page, pageSize}: the exchange's referral
// roster in UID order (byte order), UIDs starting with the prefix (case-sensitive, as UIDs are).
export const RosterRequestSchema = PageRequestSchema.extend({
  platId: platIdSchema,
  uidPrefix: uidPrefixSchema.optional(),
});
export type RosterRequest = z.input<typeof RosterRequestSchema>;

/** How a UID reached the roster: a CSV import, the exchange sync, a live check at binding. */
export const ROSTER_SOURCES = ['import', 'sync', 'liveCheck'] as const;
export type RosterSource = (typeof ROSTER_SOURCES)[number];

export const RosterEntrySchema = z.object({
  uid: z.string(),
  registeredAt: isoTime,
  source: z.enum(ROSTER_SOURCES),
  /** The file name or the adapter call that reported it. */
  sourceLabel: z.string(),
  firstSeenAt: isoTime,
  /** The masked e-mail of the member who holds the UID now, or null. */
  boundTo: z.string().nullable(),
  boundAt: isoTime.nullable(),
});
export type RosterEntry = z.infer<typeof RosterEntrySchema>;
export const RosterPageSchema = pageOf(RosterEntrySchema);
export type RosterPage = z.infer<typeof RosterPageSchema>;

export const OPEN_REBATE_STATUSES = ['pending', 'failed'] as const;

// /elex/admin/reconciliation/rebates {platId, status?, uid?, page, pageSize}: records not settled or
// failed, with why, latest period first.
export const OpenRebatesRequestSchema = PageRequestSchema.extend({
  platId: platIdSchema,
  status: z.enum(OPEN_REBATE_STATUSES).optional(),
  uid: optionalUidSchema,
});
export type OpenRebatesRequest = z.input<typeof OpenRebatesRequestSchema>;

/**
 * Why a record is not paid (the web words each one):
 * - pending `notYetDue`: its period ended less than SETTLEMENT_DELAY_HOURS ago (`decidesAt`: due then);
 * - pending `awaitingRoster`: due, but its UID is not in the roster yet; fails as not referred at
 *   `decidesAt` unless the roster lists it first;
 * - pending `awaitingSettlement`: due and decidable: the next settlement (or a re-settle) decides it;
 * - failed `uidNotReferred`: the UID was not in the roster 7 days after the period, and still is not;
 * - failed `rosterArrived`: failed as not referred, but its UID is in the roster now: a re-settle pays;
 * - failed `noCommission`: the exchange paid no commission for the period (final).
 */
export const OPEN_REBATE_REASONS = [
  'notYetDue',
  'awaitingRoster',
  'awaitingSettlement',
  'uidNotReferred',
  'rosterArrived',
  'noCommission',
] as const;
export type OpenRebateReason = (typeof OPEN_REBATE_REASONS)[number];

export const OpenRebateSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  periodStart: isoTime,
  periodEnd: isoTime,
  fee: usdt,
  commission: usdt,
  status: z.enum(OPEN_REBATE_STATUSES),
  reason: z.enum(OPEN_REBATE_REASONS),
  /** When the figures arrived. */
  receivedAt: isoTime,
  settledAt: isoTime.nullable(),
  /** For a pending record: when it becomes due, or fails as not referred. */
  decidesAt: isoTime.nullable(),
  /** The masked e-mail of the member who holds the UID now, or null. */
  boundTo: z.string().nullable(),
});
export type OpenRebate = z.infer<typeof OpenRebateSchema>;
export const OpenRebatePageSchema = pageOf(OpenRebateSchema);
export type OpenRebatePage = z.infer<typeof OpenRebatePageSchema>;

// /elex/admin/reconciliation/settle {platId, uid?}: settles the exchange's due records (or that UID's)
// and the records once refused as not referred whose UID is listed now; audited as `rebates.settle`.
export const ResettleRequestSchema = z.object({ platId: platIdSchema, uid: optionalUidSchema });
export type ResettleRequest = z.input<typeof ResettleRequestSchema>;

export const ResettleResultSchema = z.object({
  platId: z.number().int(),
  uid: z.string().nullable(),
  /** Records decided by this call: completed + failed (0 when nothing was due: a second click). */
  settled: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  /** Of those, records once refused as not referred (their UID is in the roster now). */
  recovered: z.number().int(),
  credited: usdt,
  rewards: usdt,
});
export type ResettleResult = z.infer<typeof ResettleResultSchema>;
