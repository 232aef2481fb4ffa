import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AdapterOptions, SyncableExchangeAdapter } from '../../integrations/exchanges/adapter.js';
import { exchangeCase } from '../../integrations/exchanges/testing/cases.js';
import type { FakeExchange } from '../../integrations/exchanges/testing/fake-exchange.js';
import { createTestApp } from '../../test/test-app.js';
import { type SyncJob, type SyncJobDeps, startSyncJob } from './sync.job.js';
import type { SyncRunSummary } from './sync.service.js';
import { syncCursors, syncRuns } from './sync.tables.js';
import { createRecordingIngest } from './sync.test-support.js';

let ctx: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  ctx = await createTestApp();
  await seedPartnerCatalog(ctx.db);
});
afterAll(() => ctx.close());

const fast: AdapterOptions = {
  retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  sleep: async () => {},
  rateLimit: { limit: 1000, intervalMs: 1000 },
};
const iso = (text: string) => new Date(text);
const errors: unknown[] = [];
const log = {
  info() {},
  warn() {},
  error(details: object) {
    errors.push(details);
  },
};

/** Resolves once `count` runs have been reported (or fails the test after `ms`). */
function runsReported(runs: SyncRunSummary[], count: number, ms = 15_000) {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (runs.length >= count) {
        clearInterval(poll);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(poll);
        reject(new Error(`expected ${count} runs, saw ${runs.length}`));
      }
    }, 10);
  });
}

let fake: FakeExchange;
let adapters: Map<string, SyncableExchangeAdapter>;
let recorder: ReturnType<typeof createRecordingIngest>;
let jobs: SyncJob[] = [];
let settlements = 0;

beforeEach(async () => {
  await ctx.db.delete(syncRuns);
  await ctx.db.delete(syncCursors);
  errors.length = 0;
  settlements = 0;
  ctx.clock.set(iso('2026-01-15T13:30:00Z'));
  recorder = createRecordingIngest();
  fake = await exchangeCase('bitget').createFake().start();
  // The 12th's daily row: read with the 18:00-24:00 segment of the 12th, 48 h after the day ended.
  fake.addReferral('90000001', iso('2026-01-12T13:00:00Z')).addTrade({
    uid: '90000001',
    at: iso('2026-01-12T14:00:00Z'),
    volume: '100',
    fee: '0.05',
    commission: '0.02',
  });
  adapters = new Map([['bitget', exchangeCase('bitget').createAdapter(fake, fast)]]);
});
afterEach(async () => {
  await Promise.all(jobs.map((job) => job.stop()));
  jobs = [];
  await fake.close();
});

function jobDeps(kind: SyncJobDeps['databaseKind']): SyncJobDeps {
  return {
    db: ctx.db,
    databaseKind: kind,
    clock: ctx.clock,
    ingest: recorder.ingest,
    adapters,
    log,
    settle: async () => {
      settlements += 1;
    },
  };
}

describe('the sync job in process (embedded PGlite runs it on a timer; the same job function)', () => {
  it('with firstRoundAfterMs, the first round (exchanges and tasks due at start) waits that long', async () => {
    const started = Date.now();
    const taskRuns: number[] = [];
    const runs: SyncRunSummary[] = [];
    const job = await startSyncJob(
      {
        ...jobDeps('pglite'),
        tasks: [{ name: 'probe', everyMinutes: 60, run: async () => taskRuns.push(Date.now()) }],
      },
      { intervalMinutes: 60, backfillDays: 3, firstRoundAfterMs: 400, onRun: (run) => runs.push(run) },
    );
    jobs.push(job);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(taskRuns).toEqual([]);
    expect(runs).toEqual([]);
    await runsReported(runs, 1);
    await vi.waitFor(() => expect(taskRuns).toHaveLength(1), { timeout: 15_000 });
    expect((taskRuns[0] ?? 0) - started).toBeGreaterThanOrEqual(400);
    expect(runs[0]?.status).toBe('succeeded');
  });

  it('runs each configured exchange at start, and retries a failed run with backoff from the failed segment', async () => {
    recorder.failRebatesWhen(() => true);
    const runs: SyncRunSummary[] = [];
    const job = await startSyncJob(jobDeps('pglite'), {
      intervalMinutes: 60,
      backfillDays: 3,
      retryBaseMs: 30,
      onRun: (summary) => {
        runs.push(summary);
        recorder.failRebatesWhen(undefined);
      },
    });
    jobs.push(job);
    expect(job.kind).toBe('in-process');
    await runsReported(runs, 2);
    expect(runs.map((run) => run.status)).toEqual(['failed', 'succeeded']);
    expect(runs[0]?.failedSegmentStart).toEqual(iso('2026-01-12T18:00:00Z'));
    expect(runs[1]?.window).toEqual({ from: iso('2026-01-12T18:00:00Z'), to: iso('2026-01-13T12:00:00Z') });
    expect(recorder.rebates.map((row) => row.uid)).toEqual(['90000001']);
    await job.stop();
    // Settlement once per interval, after the exchanges' runs.
    expect(settlements).toBe(1);
    const stored = await ctx.db.select().from(syncRuns);
    expect(stored.map((run) => run.status).sort()).toEqual(['failed', 'succeeded']);
    expect(errors).toEqual([]);
  });

  it('a page the exchange refuses (HTTP 400) fails the run; the job tries again from that segment until it answers, each failure recorded', async () => {
    const COMMISSIONS = '/api/v2/broker/customer-commissions';
    fake.failWhile((request) => request.path === COMMISSIONS, 'refused');
    const runs: SyncRunSummary[] = [];
    const job = await startSyncJob(jobDeps('pglite'), {
      intervalMinutes: 60,
      backfillDays: 3,
      retryBaseMs: 30,
      onRun: (summary) => {
        runs.push(summary);
        if (runs.length === 2) fake.failWhile(undefined);
      },
    });
    jobs.push(job);
    await runsReported(runs, 3);
    expect(runs.map((run) => run.status)).toEqual(['failed', 'failed', 'succeeded']);
    expect(runs[0]?.error).toMatch(/^bitget GET \/api\/v2\/broker\/customer-commissions: .*40017/);
    expect(runs[1]?.failedSegmentStart).toEqual(runs[0]?.failedSegmentStart);
    expect(runs[2]?.window.from).toEqual(runs[0]?.failedSegmentStart);
    expect(recorder.rebates.map((row) => row.uid)).toEqual(['90000001']);
    // The operator console shows each failed run with the exchange's answer.
    const stored = await ctx.db.select().from(syncRuns);
    expect(stored.filter((run) => run.status === 'failed').map((run) => run.error)).toEqual([
      expect.stringContaining('40017'),
      expect.stringContaining('40017'),
    ]);
  });
});

// pg-boss needs PostgreSQL: this block runs when the suite runs on PostgreSQL (TEST_DATABASE_URL); on
// embedded PGlite the job runs in process (above), through the same job function.
describe.runIf(process.env.TEST_DATABASE_URL)('the sync job on PostgreSQL (pg-boss)', () => {
  it('gives one job per exchange and interval however many instances offer it, and retries a failed job', async () => {
    recorder.failRebatesWhen(() => true);
    const runs: SyncRunSummary[] = [];
    const options = {
      intervalMinutes: 60,
      backfillDays: 3,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      onRun: (summary: SyncRunSummary) => {
        runs.push(summary);
        recorder.failRebatesWhen(undefined);
      },
    };
    // Two server instances against one database, both offering this interval's jobs.
    const first = await startSyncJob(jobDeps('postgres'), options);
    const second = await startSyncJob(jobDeps('postgres'), options);
    jobs.push(first, second);
    expect(first.kind).toBe('pg-boss');
    await Promise.all([first.offer?.(), second.offer?.(), first.offer?.()]);

    await runsReported(runs, 2);
    expect(runs.map((run) => run.status)).toEqual(['failed', 'succeeded']);
    expect(runs[1]?.window.from).toEqual(iso('2026-01-12T18:00:00Z'));
    // Nothing more arrives: the offers of this interval made one job, retried once.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runs).toHaveLength(2);
    expect(settlements).toBe(1);
    expect(recorder.rebates.map((row) => row.uid)).toEqual(['90000001']);
    const stored = await ctx.db.select().from(syncRuns);
    expect(stored.map((run) => run.status).sort()).toEqual(['failed', 'succeeded']);
    expect(errors).toEqual([]);
  });
});
