import { SUPPORT } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { deleteEventsReceivedBefore } from '../analytics/analytics.service.js';
import { deleteCodesExpiredBefore, deleteSessionsEndedBefore } from '../auth/auth.service.js';
import { deleteUidWatchesEndedBefore } from '../bindings/bindings.service.js';
import { deleteExportLinksExpiredBefore } from '../exports/exports.service.js';
import { foldCashbackCreditDaysBefore, foldLedgerDaySumsBefore } from '../ledger/day-sums.js';
import { deleteMailsSentBefore } from '../mail/outbox.js';
import { eraseImagesOfRequestsClosedBefore } from '../support/support.service.js';
import type { PeriodicTask } from '../sync/sync.job.js';
import { deleteEmptyRunRowsBefore } from '../sync/sync.service.js';

/**
 * Prunes rows the platform no longer needs, so these tables do not grow forever (docs/decisions.md,
 * "Housekeeping"). Money and history tables (ledger, points, audit log, withdrawals, imports, users)
 * are never touched (the ledger's day sums are folded, their sums unchanged); analytics events go after 400 days; support screenshots lose their bytes a year
 * after their request closed. Every rule looks only at rows that ended well before now, so
 * nothing still valid or still counted (a live session, a code inside its cool-down or hourly caps,
 * an unsent or failed mail) can match.
 */
const DAY_MS = 24 * 60 * 60_000;

/** Days a row is kept after it stopped mattering. The web needs none of these. */
const HOUSEKEEPING_RETENTION_DAYS = {
  /** After expiry: codes live 10 minutes and the caps count the last hour; a week keeps a recent flood
   * of requests (per IP hash) visible to an operator. */
  verificationCodes: 7,
  /** After expiry or revocation: a session lives 30 days from creation. */
  sessions: 30,
  /** After sending (the encrypted payload is erased at send; the row is then only a receipt). */
  sentMails: 30,
  /** After finishing, for sync runs that had nothing to do. */
  emptySyncRuns: 30,
  /** After receipt, raw analytics events: the console reads at most 90 days; 400 leaves a year and a
   * month for comparing a season with last year's, and bounds the table a flood of events can grow. */
  analyticsEvents: 400,
  /** After expiry, the console's one-minute export links (used or not): the audit log keeps the export. */
  exportLinks: 1,
  /** After the mail saying a UID joined the roster, or after the wait began when none came: a roster
   * lists a new account within CASHBACK.rosterDelayHours (48), so a month of waiting in vain means a
   * mistyped UID or an account not opened through our link. */
  uidWatches: 30,
  /** After their request closed, the screenshots members attached (their bytes; the row stays). */
  supportImages: SUPPORT.imageRetentionDays,
  /** After the day, the ledger's day sums and cashback credits kept a row per posting statement:
   * folded into one a key. A day later, not at midnight: a posting whose transaction began before it
   * may still add a row. */
  ledgerDaySums: 2,
} as const;

const HOUSEKEEPING_EVERY_MINUTES = 24 * 60;

/**
 * Each statement deletes at most one batch, so locks stay short and a run beside live traffic is
 * harmless; a run stops after `maxBatches` per table (a million rows) and the next day goes on.
 */
const HOUSEKEEPING_BATCH = { size: 1000, maxBatches: 1000 } as const;

interface HousekeepingRule {
  table: string;
  /** What goes, for the operator command and the logs. */
  description: string;
  retentionDays: number;
  deleteBatch(db: Executor, cutoff: Date, limit: number): Promise<number>;
}

const HOUSEKEEPING_RULES: readonly HousekeepingRule[] = [
  {
    table: 'verification_codes',
    description: `codes expired (or used) more than ${HOUSEKEEPING_RETENTION_DAYS.verificationCodes} days ago`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.verificationCodes,
    deleteBatch: deleteCodesExpiredBefore,
  },
  {
    table: 'sessions',
    description: `sessions expired or revoked more than ${HOUSEKEEPING_RETENTION_DAYS.sessions} days ago`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.sessions,
    deleteBatch: deleteSessionsEndedBefore,
  },
  {
    table: 'mail_outbox',
    description: `mails sent more than ${HOUSEKEEPING_RETENTION_DAYS.sentMails} days ago (pending and failed ones stay)`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.sentMails,
    deleteBatch: deleteMailsSentBefore,
  },
  {
    table: 'sync_runs',
    description: `sync runs that had nothing to do, finished more than ${HOUSEKEEPING_RETENTION_DAYS.emptySyncRuns} days ago (the newest per exchange stays)`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.emptySyncRuns,
    deleteBatch: deleteEmptyRunRowsBefore,
  },
  {
    table: 'analytics_events',
    description: `analytics events received more than ${HOUSEKEEPING_RETENTION_DAYS.analyticsEvents} days ago`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.analyticsEvents,
    deleteBatch: deleteEventsReceivedBefore,
  },
  {
    table: 'export_links',
    description: `export download links expired more than ${HOUSEKEEPING_RETENTION_DAYS.exportLinks} day ago`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.exportLinks,
    deleteBatch: deleteExportLinksExpiredBefore,
  },
  {
    table: 'uid_watches',
    description: `waits for a UID to join a roster, mailed or begun more than ${HOUSEKEEPING_RETENTION_DAYS.uidWatches} days ago`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.uidWatches,
    deleteBatch: deleteUidWatchesEndedBefore,
  },
  {
    table: 'support_images',
    description: `screenshots of support requests closed more than ${HOUSEKEEPING_RETENTION_DAYS.supportImages} days ago (erased; the row stays)`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.supportImages,
    deleteBatch: eraseImagesOfRequestsClosedBefore,
  },
  {
    table: 'ledger_day_sums',
    description: `the ledger's day sums of days more than ${HOUSEKEEPING_RETENTION_DAYS.ledgerDaySums} days ago, folded into one row per day and kinds (the sums stay)`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.ledgerDaySums,
    deleteBatch: foldLedgerDaySumsBefore,
  },
  {
    table: 'cashback_credit_days',
    description: `the cashback credited per UID and day of days more than ${HOUSEKEEPING_RETENTION_DAYS.ledgerDaySums} days ago, folded into one row per day and UID (the sums stay)`,
    retentionDays: HOUSEKEEPING_RETENTION_DAYS.ledgerDaySums,
    deleteBatch: foldCashbackCreditDaysBefore,
  },
];

interface HousekeepingTableResult {
  table: string;
  description: string;
  deleted: number;
  /** False when the batch bound stopped the table early: the next run goes on. */
  complete: boolean;
}

export interface HousekeepingResult {
  at: Date;
  /** The rules that ran, with what each deleted (its batches commit one by one). */
  tables: HousekeepingTableResult[];
  /** The rule that failed, which stopped the run: what ran before it stays deleted. */
  failure?: { table: string; error: unknown };
}

export interface HousekeepingOptions {
  batchSize?: number;
  maxBatches?: number;
  /**
   * Asked first in each batch's transaction (the batch then runs in one): the operator's command asks
   * for the operator's role there, so a revocation while it runs stops it at the next batch.
   */
  confirm?: (tx: Executor) => Promise<void>;
}

/**
 * Runs every rule, batch after batch, each batch its own statement. Safe on several instances at
 * once (each batch takes its rows with SKIP LOCKED, so two runs split the work) and harmless twice.
 */
export async function runHousekeeping(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  options: HousekeepingOptions = {},
): Promise<HousekeepingResult> {
  const batchSize = options.batchSize ?? HOUSEKEEPING_BATCH.size;
  const maxBatches = options.maxBatches ?? HOUSEKEEPING_BATCH.maxBatches;
  const at = deps.clock.now();
  const tables: HousekeepingTableResult[] = [];
  for (const rule of HOUSEKEEPING_RULES) {
    const cutoff = new Date(at.getTime() - rule.retentionDays * DAY_MS);
    let deleted = 0;
    let complete = false;
    try {
      for (let batch = 0; batch < maxBatches; batch += 1) {
        const { confirm } = options;
        const count = confirm
          ? await deps.db.transaction(async (tx) => {
              await confirm(tx);
              return rule.deleteBatch(tx, cutoff, batchSize);
            })
          : await rule.deleteBatch(deps.db, cutoff, batchSize);
        deleted += count;
        if (count < batchSize) {
          complete = true;
          break;
        }
      }
    } catch (error) {
      // Earlier batches are committed: the caller records them with the failure, not the failure alone.
      tables.push({ table: rule.table, description: rule.description, deleted, complete });
      return { at, tables, failure: { table: rule.table, error } };
    }
    tables.push({ table: rule.table, description: rule.description, deleted, complete });
  }
  return { at, tables };
}

export interface HousekeepingLog {
  info(details: object, message: string): void;
}

/** Housekeeping as the background runner's daily task (sync.job.ts), logging what it deleted. */
export function housekeepingTask(deps: Pick<AppDeps, 'db' | 'clock'>, log: HousekeepingLog): PeriodicTask {
  return {
    name: 'housekeeping',
    everyMinutes: HOUSEKEEPING_EVERY_MINUTES,
    async run() {
      const result = await runHousekeeping(deps);
      log.info(
        {
          deleted: Object.fromEntries(result.tables.map((table) => [table.table, table.deleted])),
          incomplete: result.tables.filter((table) => !table.complete).map((table) => table.table),
        },
        result.failure ? `housekeeping stopped at ${result.failure.table}` : 'housekeeping done',
      );
      // The runner reports a failed task: the deletions before it are in the line above.
      if (result.failure) throw result.failure.error;
      return result;
    },
  };
}
