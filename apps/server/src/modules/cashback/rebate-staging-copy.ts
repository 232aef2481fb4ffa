import { copyText } from '../../db/copy-in.js';
import type { CommissionEntry } from '../../integrations/exchanges/types.js';
import { isoTextsOnce } from './rebate-staging-json.js';

/** The staging table's columns a batch fills, in the order stagingCopyText writes them. */
export const STAGED_COLUMNS = [
  'line',
  'uid',
  'period_start',
  'period_end',
  'trading_volume_micro',
  'fee_micro',
  'commission_micro',
] as const;

/**
 * A batch as COPY text for the staging table on PostgreSQL (db/copy-in.ts), the same values
 * stagingJson gives PGlite: a row a line, each boundary's ISO text made once per batch. A UID passed
 * EXCHANGE_UID_PATTERN already; it is escaped all the same, so no text can end a field or a row.
 */
export function stagingCopyText(entries: readonly CommissionEntry[], lines: readonly number[]): string {
  const iso = isoTextsOnce();
  let text = '';
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as CommissionEntry;
    text +=
      `${lines[index]}\t${copyText(entry.uid)}\t${iso(entry.periodStart)}\t${iso(entry.periodEnd)}\t` +
      `${entry.tradingVolumeMicro}\t${entry.feeMicro}\t${entry.commissionMicro}\n`;
  }
  return text;
}
