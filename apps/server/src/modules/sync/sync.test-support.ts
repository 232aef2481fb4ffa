import type { CommissionEntry, ReferralEntry } from '../../integrations/exchanges/types.js';
import type { IngestSource, SyncIngest } from './sync.service.js';

/**
 * A stand-in for the cashback module's ingest: records every page and keeps the same natural keys
 * (platId + UID for referrals; platId + UID + period for rebates), so a page seen twice is "already
 * known" / "duplicates" as it is in the real one.
 */
export function createRecordingIngest() {
  const referralKeys = new Set<string>();
  const rebateKeys = new Set<string>();
  const referralCalls: Array<{ platId: number; entries: ReferralEntry[]; source: IngestSource }> = [];
  const rebateCalls: Array<{ platId: number; rows: CommissionEntry[]; source: IngestSource }> = [];
  let failWhen: ((rows: CommissionEntry[]) => boolean) | undefined;

  const ingest: SyncIngest = {
    async ingestReferrals(platId, entries, source) {
      referralCalls.push({ platId, entries, source });
      let inserted = 0;
      for (const entry of entries) {
        const key = `${platId}|${entry.uid}`;
        if (!referralKeys.has(key)) inserted += 1;
        referralKeys.add(key);
      }
      return { inserted, alreadyKnown: entries.length - inserted };
    },
    async ingestRebates(platId, rows, source) {
      if (failWhen?.(rows)) throw new Error('ingest refused the page (test)');
      rebateCalls.push({ platId, rows, source });
      let inserted = 0;
      for (const row of rows) {
        const key = `${platId}|${row.uid}|${row.periodStart.toISOString()}|${row.periodEnd.toISOString()}`;
        if (!rebateKeys.has(key)) inserted += 1;
        rebateKeys.add(key);
      }
      return { inserted, duplicates: rows.length - inserted, settled: 0 };
    },
  };

  return {
    ingest,
    referralCalls,
    rebateCalls,
    /** Every rebate row handed over, in order. */
    get rebates() {
      return rebateCalls.flatMap((call) => call.rows);
    },
    get referrals() {
      return referralCalls.flatMap((call) => call.entries);
    },
    failRebatesWhen(predicate?: (rows: CommissionEntry[]) => boolean) {
      failWhen = predicate;
    },
  };
}
