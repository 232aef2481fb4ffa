import type { Pool } from 'pg';
import type { Database, DatabaseHandle } from '../../db/client.js';
import type { SyncableExchangeAdapter } from '../../integrations/exchanges/adapter.js';
import type { Clock } from '../../lib/clock.js';
import {
  resolveSyncTargets,
  type SyncIngest,
  type SyncLog,
  type SyncRunSummary,
  type SyncTarget,
  syncExchange,
} from './sync.service.js';

/**
 * Runs the exchange sync in the background, started by main and stopped on shutdown.
 *
 * - PostgreSQL: a pg-boss queue (`exchange-sync`, policy 'stately': at most one queued and one active
 *   job per exchange). Every instance offers one job per exchange per interval with a singleton key
 *   and a once-per-interval slot, so N instances still give one job; whichever instance fetches it
 *   runs it. A failed job is retried by pg-boss with exponential backoff.
 * - Embedded PGlite (one process by construction): the same job function on a timer in this process;
 *   a failed exchange is tried again after 1, 2, 4 ... minutes (never later than the interval).
 *
 * Either way each run claims the exchange's cursor (a lease), so two runs never pull one segment, and
 * once per interval the cashback settlement runs (a job of its own on pg-boss).
 *
 * The platform's other periodic work rides on the same runner as `tasks` (housekeeping, daily): on
 * pg-boss a job per task and period, whichever instance offers it first; in process, on the timer.
 * main starts the runner even when no exchange is synced, for those tasks.
 */
const SYNC_QUEUE = 'exchange-sync';

export interface SyncJobDeps {
  db: Database;
  databaseKind: DatabaseHandle['kind'];
  clock: Clock;
  ingest: SyncIngest;
  adapters: ReadonlyMap<string, SyncableExchangeAdapter>;
  /**
   * Settles what became due (the cashback module's settlement delay passed), for every exchange,
   * CSV-fed ones included: once per interval, after the exchanges' runs.
   */
  settle?: () => Promise<unknown>;
  log: SyncLog & { error(details: object, message: string): void };
  /** Told after each exchange run (the operators' sync alert); a fault here is logged, never the run's. */
  afterRun?: (summary: SyncRunSummary) => Promise<unknown>;
  /** Periodic work besides the exchanges, each at its own period (at least the interval). */
  tasks?: readonly PeriodicTask[];
}

/** Work the runner does every `everyMinutes`; it must be harmless when it runs twice. */
export interface PeriodicTask {
  /** Names the task's pg-boss job (its singleton key) and its log lines. */
  name: string;
  everyMinutes: number;
  run(): Promise<unknown>;
}

export interface SyncJobOptions {
  intervalMinutes: number;
  backfillDays: number;
  /** First retry delay after a failed run (in-process runner); doubles per failure. */
  retryBaseMs?: number;
  /** pg-boss polling (seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** pg-boss job retries after a failed run, the first after retryDelaySeconds, then doubling. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** Runs each exchange at once instead of after the first interval. */
  runAtStart?: boolean;
  /**
   * In-process runner (embedded PGlite) only: its first round (the exchanges and tasks due at start)
   * waits this long. PGlite runs every statement on this process's thread, so a round at once holds
   * the first requests behind it (main.ts, docs/decisions.md "Cold start on PGlite"). 0 by default.
   */
  firstRoundAfterMs?: number;
  /** Told after each run (tests wait on it). */
  onRun?(summary: SyncRunSummary): void;
}

export interface SyncJob {
  kind: 'in-process' | 'pg-boss';
  stop(): Promise<void>;
  /** pg-boss only: offers this round of jobs now (tests and start-up). */
  offer?(): Promise<void>;
}

export async function startSyncJob(deps: SyncJobDeps, options: SyncJobOptions): Promise<SyncJob> {
  return deps.databaseKind === 'postgres' ? startQueue(deps, options) : startInProcess(deps, options);
}

async function runOne(
  deps: SyncJobDeps,
  target: SyncTarget,
  options: SyncJobOptions,
): Promise<SyncRunSummary> {
  const summary = await syncExchange(deps, target, { trigger: 'job', backfillDays: options.backfillDays });
  options.onRun?.(summary);
  if (deps.afterRun) {
    await deps
      .afterRun(summary)
      .catch((error: unknown) =>
        deps.log.error({ err: error, exchange: summary.exchange }, 'after-run step failed'),
      );
  }
  if (summary.status === 'succeeded' && summary.segmentsDone > 0) {
    deps.log.info(
      {
        exchange: summary.exchange,
        runId: summary.runId,
        segments: summary.segmentsDone,
        referralsInserted: summary.referralsInserted,
        rebatesInserted: summary.rebatesInserted,
        rebatesDuplicates: summary.rebatesDuplicates,
      },
      'exchange sync done',
    );
  }
  return summary;
}

// ---------------------------------------------------------------------------------------------------
// Embedded PGlite: in process, on a timer

function startInProcess(deps: SyncJobDeps, options: SyncJobOptions): SyncJob {
  const intervalMs = options.intervalMinutes * 60_000;
  const retryBaseMs = options.retryBaseMs ?? 60_000;
  const nextDue = new Map<number, number>();
  const failures = new Map<number, number>();
  let nextSettle = 0;
  const tasks = deps.tasks ?? [];
  const taskDue = new Map<string, number>();
  const taskFailures = new Map<string, number>();
  for (const task of tasks) {
    taskDue.set(task.name, options.runAtStart === false ? Date.now() + task.everyMinutes * 60_000 : 0);
  }
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = async () => {
    const targets = await resolveSyncTargets(deps, deps.adapters);
    for (const target of targets) {
      if (stopped) return;
      const due = nextDue.get(target.platId) ?? (options.runAtStart === false ? Date.now() + intervalMs : 0);
      if (!nextDue.has(target.platId)) nextDue.set(target.platId, due);
      if (due > Date.now()) continue;
      let failed: boolean;
      try {
        failed = (await runOne(deps, target, options)).status === 'failed';
      } catch (error) {
        failed = true;
        deps.log.error({ err: error, exchange: target.adapter.exchange }, 'exchange sync crashed');
      }
      const count = failed ? (failures.get(target.platId) ?? 0) + 1 : 0;
      failures.set(target.platId, count);
      nextDue.set(
        target.platId,
        Date.now() + (failed ? Math.min(intervalMs, retryBaseMs * 2 ** (count - 1)) : intervalMs),
      );
    }
    if (deps.settle && !stopped && Date.now() >= nextSettle) {
      nextSettle = Date.now() + intervalMs;
      await deps.settle();
    }
    for (const task of tasks) {
      if (stopped) return;
      if ((taskDue.get(task.name) ?? 0) > Date.now()) continue;
      const periodMs = task.everyMinutes * 60_000;
      try {
        await task.run();
        taskFailures.set(task.name, 0);
        taskDue.set(task.name, Date.now() + periodMs);
      } catch (error) {
        const count = (taskFailures.get(task.name) ?? 0) + 1;
        taskFailures.set(task.name, count);
        taskDue.set(task.name, Date.now() + Math.min(periodMs, retryBaseMs * 2 ** (count - 1)));
        deps.log.error({ err: error, task: task.name }, 'periodic task failed');
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    const soonest = Math.min(...nextDue.values(), ...taskDue.values(), Date.now() + intervalMs);
    timer = setTimeout(loop, Math.max(50, soonest - Date.now()));
  };
  const loop = () => {
    running = tick()
      .catch((error: unknown) => deps.log.error({ err: error }, 'exchange sync tick failed'))
      .finally(schedule);
  };
  timer = setTimeout(loop, options.firstRoundAfterMs ?? 0);

  return {
    kind: 'in-process',
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL: pg-boss

/** One exchange's sync, the settlement of every exchange, or a periodic task. */
type SyncJobData = { platId: number } | { settle: true } | { task: string };

/**
 * Completed jobs stay in pg-boss's job table this long before maintenance archives them. Its unique
 * singleton index only sees that table, so the longest period offered (a daily task) must be shorter:
 * pg-boss's default (12 h) would let a second daily job in after the first was archived, and refuses
 * a singleton period longer than it.
 */
const ARCHIVE_COMPLETED_AFTER_SECONDS = 2 * 24 * 60 * 60;

/**
 * pg-boss runs its SQL through the app's own pool (node-postgres), so it needs no connection settings
 * of its own and no extra connections. drizzle's node-postgres database keeps the pool as `$client`.
 */
function poolOf(db: Database): Pool {
  const pool = (db as unknown as { $client?: Pool }).$client;
  if (!pool || typeof pool.query !== 'function') throw new Error('the PostgreSQL database has no pool');
  return pool;
}

async function startQueue(deps: SyncJobDeps, options: SyncJobOptions): Promise<SyncJob> {
  const pool = poolOf(deps.db);
  const intervalSeconds = options.intervalMinutes * 60;
  // Loaded here, on PostgreSQL only: PGlite runs the same jobs in process.
  const { default: PgBoss } = await import('pg-boss');
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: 'pgboss',
    // We send jobs ourselves (no cron); maintenance expires and archives jobs.
    schedule: false,
    archiveCompletedAfterSeconds: ARCHIVE_COMPLETED_AFTER_SECONDS,
  });
  boss.on('error', (error) => deps.log.error({ err: error }, 'pg-boss error'));
  await boss.start();
  await boss.createQueue(SYNC_QUEUE, {
    name: SYNC_QUEUE,
    policy: 'stately',
    retryLimit: options.retryLimit ?? 5,
    retryDelay: options.retryDelaySeconds ?? 60,
    retryBackoff: true,
    // A run is bounded by its segments; one that hangs is expired and retried.
    expireInSeconds: 60 * 60,
  });

  const workerId = await boss.work<SyncJobData>(
    SYNC_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 5 },
    async ([job]) => {
      if (!job) return;
      if ('settle' in job.data) {
        await deps.settle?.();
        return;
      }
      if ('task' in job.data) {
        const { task: name } = job.data;
        // pg-boss retries a task that throws, with its backoff.
        await deps.tasks?.find((task) => task.name === name)?.run();
        return;
      }
      const { platId } = job.data;
      const targets = await resolveSyncTargets(deps, deps.adapters);
      const target = targets.find((candidate) => candidate.platId === platId);
      if (!target) return;
      const summary = await runOne(deps, target, options);
      // pg-boss retries a job that throws, with its backoff.
      if (summary.status === 'failed') throw new Error(summary.error ?? 'exchange sync failed');
    },
  );

  const offer = async () => {
    const targets = await resolveSyncTargets(deps, deps.adapters);
    for (const target of targets) {
      // One job per exchange per interval slot, whichever instance offers it first.
      await boss.send(
        SYNC_QUEUE,
        { platId: target.platId },
        { singletonKey: String(target.platId), singletonSeconds: intervalSeconds },
      );
    }
    if (deps.settle) {
      await boss.send(
        SYNC_QUEUE,
        { settle: true },
        { singletonKey: 'settle', singletonSeconds: intervalSeconds },
      );
    }
    for (const task of deps.tasks ?? []) {
      // One job per period slot (a UTC day for a daily task), whichever instance offers it first.
      await boss.send(
        SYNC_QUEUE,
        { task: task.name },
        { singletonKey: `task:${task.name}`, singletonSeconds: task.everyMinutes * 60 },
      );
    }
    boss.notifyWorker(workerId);
  };
  const offerSafely = () =>
    offer().catch((error: unknown) => deps.log.error({ err: error }, 'could not offer exchange sync jobs'));
  if (options.runAtStart !== false) await offerSafely();
  const timer = setInterval(offerSafely, Math.min(intervalSeconds * 1000, 60_000));

  return {
    kind: 'pg-boss',
    offer,
    async stop() {
      clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    },
  };
}
