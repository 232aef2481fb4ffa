import * as z from 'zod';
import type { MessageKey } from './messages.js';
import { isCalendarDay } from './rules.js';

/**
 * Running the business from the console (issue 12): CSV exports and operator alerts
 * (docs/operator-console.md, "Exports" and "Alerts"). Days are UTC, YYYY-MM-DD, both ends included.
 */

const fail = (key: MessageKey) => ({ error: key });

export const EXPORT_KINDS = ['withdrawals', 'members', 'ledger', 'rebates', 'audit'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** How long a download link lives after `exports/create`; it works once. */
export const EXPORT_LINK_SECONDS = 60;

const exportDay = (requiredKey: MessageKey) =>
  z
    .string(fail(requiredKey))
    .trim()
    .min(1, fail(requiredKey))
    .refine(isCalendarDay, fail('exportDayInvalid'));

export const CreateExportRequestSchema = z
  .object({
    kind: z.enum(EXPORT_KINDS, fail('exportKindInvalid')),
    from: exportDay('exportFromRequired'),
    to: exportDay('exportToRequired'),
  })
  // Days as YYYY-MM-DD compare as text.
  .refine((range) => range.from <= range.to, { ...fail('exportRangeReversed'), path: ['to'] });
export type CreateExportRequest = z.input<typeof CreateExportRequestSchema>;

export const ExportLinkSchema = z.object({
  /** Site-relative: `/elex/admin/exports/download/<token>`; needs no header, works once. */
  url: z.string(),
  fileName: z.string(),
  expiresAt: z.string(),
});
export type ExportLink = z.infer<typeof ExportLinkSchema>;

/** What an operator can be told about, each switched on or off by the operator for themself. */
export const ALERT_KINDS = [
  'withdrawalRequested',
  'syncFailing',
  'ledgerBroken',
  'clockSkew',
  'dailySummary',
  'payoutWalletShort',
  'payoutStuck',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const AlertPreferencesSchema = z.object({
  withdrawalRequested: z.boolean(),
  syncFailing: z.boolean(),
  ledgerBroken: z.boolean(),
  /** An instance's clock off the database's (docs/operations.md, "Clock skew"). */
  clockSkew: z.boolean(),
  dailySummary: z.boolean(),
  payoutWalletShort: z.boolean(),
  payoutStuck: z.boolean(),
});
export type AlertPreferences = z.infer<typeof AlertPreferencesSchema>;

/** A save names the switches it changes; the others keep their value. */
export const SaveAlertPreferencesRequestSchema = z.object({
  withdrawalRequested: z.boolean(fail('invalidValue')).optional(),
  syncFailing: z.boolean(fail('invalidValue')).optional(),
  ledgerBroken: z.boolean(fail('invalidValue')).optional(),
  clockSkew: z.boolean(fail('invalidValue')).optional(),
  dailySummary: z.boolean(fail('invalidValue')).optional(),
  payoutWalletShort: z.boolean(fail('invalidValue')).optional(),
  payoutStuck: z.boolean(fail('invalidValue')).optional(),
});
export type SaveAlertPreferencesRequest = z.input<typeof SaveAlertPreferencesRequestSchema>;
