import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verificationCodes } from '../../db/schema.js';
import { createTestApp } from '../../test/test-app.js';
import { type PeriodicTask, type SyncJob, type SyncJobDeps, startSyncJob } from '../sync/sync.job.js';
import { createRecordingIngest } from '../sync/sync.test-support.js';
import { housekeepingTask } from './housekeeping.service.js';

/**
 * Housekeeping rides on the sync's runner as a daily task: in process on embedded PGlite, one pg-boss
 * job per day on PostgreSQL however many instances offer it. No exchange is configured here, as on a
 * server without exchange APIs, where main starts the runner for its tasks alone.
 */

let ctx: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60_000;
const errors: unknown[] = [];
const logged: object[] = [];
const log = {
  info(details: object) {
    logged.push(details);
  },
  warn() {},
  error(details: object) {
    errors.push(details);
  },
};

let jobs: SyncJob[] = [];
beforeEach(async () => {
  await ctx.db.delete(verificationCodes);
  errors.length = 0;
  logged.length = 0;
});
afterEach(async () => {
  await Promise.all(jobs.map((job) => job.stop()));
  jobs = [];
});

function jobDeps(kind: SyncJobDeps['databaseKind'], tasks: PeriodicTask[]): SyncJobDeps {
  return {
    db: ctx.db,
    databaseKind: kind,
    clock: ctx.clock,
    ingest: createRecordingIngest().ingest,
    adapters: new Map(),
    log,
    tasks,
  };
}

/** The housekeeping task, counting its runs; `failFirst` makes the first run throw. */
function countedHousekeeping(options: { failFirst?: boolean } = {}) {
  const inner = housekeepingTask(ctx, log);
  const counter = { runs: 0 };
  const task: PeriodicTask = {
    ...inner,
    async run() {
      counter.runs += 1;
      if (options.failFirst && counter.runs === 1) throw new Error('database went away');
      return inner.run();
    },
  };
  return { task, counter };
}

async function insertOldCode() {
  const long = new Date(ctx.clock.now().getTime() - 30 * DAY);
  await ctx.db
    .insert(verificationCodes)
    .values({ emailHash: 'e', module: 0, codeHash: 'c', ipHash: 'i', createdAt: long, expiresAt: long });
}

function until(condition: () => boolean, ms = 15_000) {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (condition()) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(poll);
        reject(new Error('the condition did not come true in time'));
      }
    }, 10);
  });
}

describe('housekeeping on the in-process runner (embedded PGlite)', () => {
  it('runs at start, then not again within the day', async () => {
    await insertOldCode();
    const { task, counter } = countedHousekeeping();
    expect(task.everyMinutes).toBe(24 * 60);

    const job = await startSyncJob(jobDeps('pglite', [task]), { intervalMinutes: 60, backfillDays: 1 });
    jobs.push(job);
    await until(() => counter.runs >= 1 && logged.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(counter.runs).toBe(1);
    expect(await ctx.db.select().from(verificationCodes)).toHaveLength(0);
    expect(logged[0]).toMatchObject({ deleted: { verification_codes: 1 }, incomplete: [] });
    expect(errors).toEqual([]);
  });

  it('retries a failed run with backoff and logs the failure', async () => {
    await insertOldCode();
    const { task, counter } = countedHousekeeping({ failFirst: true });

    const job = await startSyncJob(jobDeps('pglite', [task]), {
      intervalMinutes: 60,
      backfillDays: 1,
      retryBaseMs: 30,
    });
    jobs.push(job);
    await until(() => counter.runs >= 2 && logged.length >= 1);

    expect(errors).toEqual([expect.objectContaining({ task: 'housekeeping' })]);
    expect(await ctx.db.select().from(verificationCodes)).toHaveLength(0);
  });
});

// pg-boss needs PostgreSQL: this block runs when the suite runs on PostgreSQL (TEST_DATABASE_URL).
describe.runIf(process.env.TEST_DATABASE_URL)('housekeeping on pg-boss (PostgreSQL)', () => {
  it('makes one job a day however many instances offer it', async () => {
    await insertOldCode();
    const { task, counter } = countedHousekeeping();
    const options = { intervalMinutes: 60, backfillDays: 1, pollingIntervalSeconds: 0.5 };
    const first = await startSyncJob(jobDeps('postgres', [task]), options);
    const second = await startSyncJob(jobDeps('postgres', [task]), options);
    jobs.push(first, second);
    expect(first.kind).toBe('pg-boss');
    await Promise.all([first.offer?.(), second.offer?.(), first.offer?.()]);

    await until(() => counter.runs >= 1 && logged.length >= 1);
    // Offered again after it ran: the day's job exists (completed), so nothing new is queued.
    await Promise.all([first.offer?.(), second.offer?.()]);
    await new Promise((resolve) => setTimeout(resolve, 1500));

    expect(counter.runs).toBe(1);
    expect(await ctx.db.select().from(verificationCodes)).toHaveLength(0);
    expect(errors).toEqual([]);
  });
});
