import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AdapterOptions } from '../../integrations/exchanges/adapter.js';
import { exchangeCase } from '../../integrations/exchanges/testing/cases.js';
import type { FakeExchange } from '../../integrations/exchanges/testing/fake-exchange.js';
import { deferred } from '../../test/deferred.js';
import { createTestApp } from '../../test/test-app.js';
import { getSyncStatus, SEGMENT_MS, type SyncTarget, syncExchange } from './sync.service.js';
import { syncCursors, syncRuns } from './sync.tables.js';
import { createRecordingIngest } from './sync.test-support.js';

let ctx: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  ctx = await createTestApp();
  await seedPartnerCatalog(ctx.db);
});
afterAll(() => ctx.close());

const BITGET_ID = 4;
const fast: AdapterOptions = {
  retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
  sleep: async () => {},
  rateLimit: { limit: 1000, intervalMs: 1000 },
};
const iso = (text: string) => new Date(text);
const COMMISSIONS = '/api/v2/broker/customer-commissions';
const CUSTOMERS = '/api/v2/broker/customer-list';

/** The start of each commission request's range, in order. */
const commissionStarts = (fake: FakeExchange) =>
  fake.served
    .filter((request) => request.path === COMMISSIONS)
    .map((request) => new Date(Number(request.query.get('startTime'))).toISOString());

async function resetSyncTables() {
  await ctx.db.delete(syncRuns);
  await ctx.db.delete(syncCursors);
}

describe('exchange sync (Bitget against its fake, 48 h settlement)', () => {
  let fake: FakeExchange;
  let target: SyncTarget;
  let recorder: ReturnType<typeof createRecordingIngest>;
  const deps = () => ({ db: ctx.db, clock: ctx.clock, ingest: recorder.ingest });

  beforeEach(async () => {
    await resetSyncTables();
    // Now 13:30 on the 15th: figures have settled up to 13:30 on the 13th, i.e. the 12:00 segment boundary.
    // Bitget's rows are daily: the 12th (ended at midnight on the 13th) is due, the 13th is not.
    ctx.clock.set(iso('2026-01-15T13:30:00Z'));
    recorder = createRecordingIngest();
    fake = await exchangeCase('bitget').createFake().start();
    fake
      .addReferral('70000001', iso('2026-01-12T13:00:00Z'))
      .addReferral('70000002', iso('2026-01-13T01:00:00Z'))
      .addReferral('70000003', iso('2026-01-13T20:00:00Z')) // not settled yet
      .addTrade({
        uid: '70000001',
        at: iso('2026-01-12T14:00:00Z'),
        volume: '100',
        fee: '0.05',
        commission: '0.02',
      })
      .addTrade({
        uid: '70000002',
        at: iso('2026-01-13T09:00:00Z'),
        volume: '300',
        fee: '0.15',
        commission: '0.06',
      });
    target = { platId: BITGET_ID, adapter: exchangeCase('bitget').createAdapter(fake, fast) };
  });
  afterEach(() => fake.close());

  it('pulls a first backfill in 6-hour segments up to what has settled, and records the run', async () => {
    const summary = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(summary).toMatchObject({
      status: 'succeeded',
      window: { from: iso('2026-01-12T12:00:00Z'), to: iso('2026-01-13T12:00:00Z') },
      segmentsTotal: 4,
      segmentsDone: 4,
      referralsInserted: 2,
      rebatesInserted: 1,
    });
    // Only the segment a day ends in (18:00-24:00 on the 12th) asks for that whole day.
    expect(commissionStarts(fake)).toEqual(['2026-01-12T00:00:00.000Z']);
    for (const request of fake.served.filter((entry) => entry.path === COMMISSIONS)) {
      const span = Number(request.query.get('endTime')) - Number(request.query.get('startTime'));
      expect(span).toBe(4 * SEGMENT_MS - 1);
    }
    // The 13th's figures wait until 48 h after the 13th ends.
    expect(
      recorder.rebates.map((row) => [row.uid, row.periodStart.toISOString(), row.commissionMicro]),
    ).toEqual([['70000001', '2026-01-12T00:00:00.000Z', 20_000n]]);
    expect(recorder.referrals.map((entry) => entry.uid)).toEqual(['70000001', '70000002']);
    expect(recorder.referralCalls[0]?.source).toMatchObject({
      kind: 'api',
      label: expect.stringContaining('bitget sync run'),
    });

    const [run] = await ctx.db.select().from(syncRuns).where(eq(syncRuns.id, summary.runId));
    expect(run).toMatchObject({
      platId: BITGET_ID,
      exchange: 'bitget',
      trigger: 'job',
      status: 'succeeded',
      segmentsTotal: 4,
      segmentsDone: 4,
      referralsInserted: 2,
      rebatesInserted: 1,
      error: null,
    });
    expect(run?.finishedAt).not.toBeNull();
    const [cursor] = await ctx.db.select().from(syncCursors).where(eq(syncCursors.platId, BITGET_ID));
    expect(cursor).toMatchObject({
      nextSegmentStart: iso('2026-01-13T12:00:00Z'),
      lockedBy: null,
      lockedUntil: null,
    });
  });

  it('reads a day of Bitget figures (rows dated by the day’s start) no sooner than 48 h after the day ends', async () => {
    const firstSeen = new Map<string, Date>();
    for (const now of ['2026-01-15T13:30:00Z', '2026-01-15T19:30:00Z', '2026-01-16T00:30:00Z']) {
      ctx.clock.set(iso(now));
      await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
      for (const row of recorder.rebates) {
        const key = `${row.uid} ${row.periodStart.toISOString()}`;
        if (!firstSeen.has(key)) firstSeen.set(key, ctx.clock.now());
        // Read at 13:30 on the 15th, the 13th (ended at midnight on the 14th) would be 37.5 h old.
        expect(ctx.clock.now().getTime() - row.periodEnd.getTime()).toBeGreaterThanOrEqual(48 * 3_600_000);
      }
    }
    expect([...firstSeen]).toEqual([
      ['70000001 2026-01-12T00:00:00.000Z', iso('2026-01-15T13:30:00Z')],
      ['70000002 2026-01-13T00:00:00.000Z', iso('2026-01-16T00:30:00Z')],
    ]);
  });

  it('a first backfill that starts mid-day still reads that day’s figures', async () => {
    // 70000001 traded at 14:00 on the 12th; 3 days back from 13:30 on the 15th: the backfill starts at 12:00 on the 12th, mid-day.
    const summary = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(summary.window.from).toEqual(iso('2026-01-12T12:00:00Z'));
    expect(
      recorder.rebates.map((row) => [row.uid, row.periodStart.toISOString(), row.commissionMicro]),
    ).toContainEqual(['70000001', '2026-01-12T00:00:00.000Z', 20_000n]);
  });

  it('resumes from the cursor and pulls only the segments that settled since', async () => {
    await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    ctx.clock.set(iso('2026-01-15T19:59:00Z'));
    const second = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(second).toMatchObject({ status: 'succeeded', segmentsDone: 1 });
    expect(second.window.from).toEqual(iso('2026-01-13T12:00:00Z'));
    ctx.clock.set(iso('2026-01-16T00:30:00Z'));
    const third = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(third.window).toEqual({ from: iso('2026-01-13T18:00:00Z'), to: iso('2026-01-14T00:00:00Z') });
    expect(third.referralsInserted).toBe(1); // 70000003 registered at 20:00 on the 13th
    // The 13th's figures, 48 h after the 13th ended (pulled with its last segment).
    expect(third.rebatesInserted).toBe(1);
    expect(recorder.rebates.at(-1)).toMatchObject({
      uid: '70000002',
      periodStart: iso('2026-01-13T00:00:00Z'),
    });
    const nothingDue = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(nothingDue).toMatchObject({ status: 'succeeded', segmentsTotal: 0 });
  });

  it('stops at a failing segment with a clear error; the next run starts there, not from scratch and not after it', async () => {
    fake.failWhile((request) => request.path === COMMISSIONS);
    const failed = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(failed).toMatchObject({
      status: 'failed',
      segmentsDone: 1,
      failedSegmentStart: iso('2026-01-12T18:00:00Z'),
    });
    expect(failed.error).toMatch(
      /^bitget GET \/api\/v2\/broker\/customer-commissions: exchange server error \(HTTP 500/,
    );
    expect(failed.error).toContain('gave up after 2 attempts');
    const [run] = await ctx.db.select().from(syncRuns).where(eq(syncRuns.id, failed.runId));
    expect(run).toMatchObject({
      status: 'failed',
      segmentsDone: 1,
      failedSegmentStart: iso('2026-01-12T18:00:00Z'),
    });
    expect(run?.error).toContain('gave up after 2 attempts');
    const [cursor] = await ctx.db.select().from(syncCursors).where(eq(syncCursors.platId, BITGET_ID));
    expect(cursor?.nextSegmentStart).toEqual(iso('2026-01-12T18:00:00Z'));
    expect(cursor?.lockedBy).toBeNull();

    fake.failWhile(undefined);
    fake.requests.length = 0;
    const resumed = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(resumed).toMatchObject({ status: 'succeeded', segmentsDone: 3 });
    expect(resumed.window).toEqual({ from: iso('2026-01-12T18:00:00Z'), to: iso('2026-01-13T12:00:00Z') });
    expect(commissionStarts(fake)).toEqual(['2026-01-12T00:00:00.000Z']);
    // The roster of the failed segment was handed over twice (idempotent), the earlier segments once.
    expect(recorder.rebates.map((row) => row.uid)).toEqual(['70000001']);
  });

  it('an operator re-run of a synced window finds everything already there and leaves the cursor alone', async () => {
    const first = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    const rerun = await syncExchange(deps(), target, {
      trigger: 'cli',
      backfillDays: 3,
      window: { from: iso('2026-01-12T13:10:00Z'), to: iso('2026-01-13T11:00:00Z') },
    });
    expect(rerun).toMatchObject({
      status: 'succeeded',
      window: first.window,
      segmentsDone: 4,
      referralsInserted: 0,
      referralsKnown: 2,
      rebatesInserted: 0,
      rebatesDuplicates: 1,
    });
    const [cursor] = await ctx.db.select().from(syncCursors).where(eq(syncCursors.platId, BITGET_ID));
    expect(cursor?.nextSegmentStart).toEqual(iso('2026-01-13T12:00:00Z'));
    const [run] = await ctx.db.select().from(syncRuns).where(eq(syncRuns.id, rerun.runId));
    expect(run).toMatchObject({ trigger: 'cli', rebatesDuplicates: 1, referralsKnown: 2 });
  });

  it('an operator window is limited to what has settled', async () => {
    const summary = await syncExchange(deps(), target, {
      trigger: 'cli',
      backfillDays: 3,
      window: { from: iso('2026-01-13T00:00:00Z'), to: iso('2026-01-20T00:00:00Z') },
    });
    expect(summary.window).toEqual({ from: iso('2026-01-13T00:00:00Z'), to: iso('2026-01-13T12:00:00Z') });
  });

  it('two runs at once: one claims the exchange, the other is recorded as skipped; each segment is pulled once', async () => {
    // The first run is held inside its first page until the second has tried: left to the scheduler,
    // the first could finish and free the lease before the second asks, and both would succeed.
    const insideFirstRun = deferred();
    const released = deferred();
    const held = {
      ...recorder.ingest,
      async ingestReferrals(...args: Parameters<typeof recorder.ingest.ingestReferrals>) {
        insideFirstRun.resolve();
        await released.promise;
        return recorder.ingest.ingestReferrals(...args);
      },
    };
    const first = syncExchange({ ...deps(), ingest: held }, target, { trigger: 'job', backfillDays: 3 });
    await insideFirstRun.promise;
    const second = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    released.resolve();
    expect(second.status).toBe('skipped');
    expect(second.error).toMatch(/another sync of bitget is running/);
    expect((await first).status).toBe('succeeded');
    expect(commissionStarts(fake)).toEqual(['2026-01-12T00:00:00.000Z']);
    expect(fake.served.filter((request) => request.path === CUSTOMERS)).toHaveLength(4);
    expect(recorder.rebateCalls).toHaveLength(1);
    const runs = await ctx.db.select().from(syncRuns);
    expect(runs.map((run) => run.status).sort()).toEqual(['skipped', 'succeeded']);
  });

  it('takes over a lease that ran out (a crashed run) and marks that run as abandoned', async () => {
    await ctx.db.insert(syncCursors).values({
      platId: BITGET_ID,
      nextSegmentStart: iso('2026-01-13T00:00:00Z'),
      lockedBy: 'crashed-host:1:abc',
      lockedUntil: iso('2026-01-15T13:00:00Z'),
      updatedAt: iso('2026-01-15T12:50:00Z'),
    });
    const [crashed] = await ctx.db
      .insert(syncRuns)
      .values({
        platId: BITGET_ID,
        exchange: 'bitget',
        trigger: 'job',
        status: 'running',
        windowStart: iso('2026-01-13T00:00:00Z'),
        windowEnd: iso('2026-01-13T12:00:00Z'),
        instance: 'crashed-host:1:abc',
        startedAt: iso('2026-01-15T12:50:00Z'),
      })
      .returning();
    const summary = await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    expect(summary).toMatchObject({ status: 'succeeded', segmentsDone: 2 });
    const [after] = await ctx.db
      .select()
      .from(syncRuns)
      .where(eq(syncRuns.id, crashed?.id ?? 0));
    expect(after).toMatchObject({ status: 'failed', error: expect.stringContaining('abandoned') });
  });

  it('leaves a live lease alone', async () => {
    await ctx.db.insert(syncCursors).values({
      platId: BITGET_ID,
      nextSegmentStart: iso('2026-01-13T00:00:00Z'),
      lockedBy: 'other-host:2:def',
      lockedUntil: iso('2026-01-15T13:40:00Z'),
      updatedAt: iso('2026-01-15T13:29:00Z'),
    });
    const summary = await syncExchange(deps(), target, { trigger: 'cli', backfillDays: 3 });
    expect(summary.status).toBe('skipped');
    expect(summary.error).toContain('other-host:2:def');
    expect(fake.requests).toHaveLength(0);
  });

  it('shows the operator console each cursor and the latest runs, newest first', async () => {
    await syncExchange(deps(), target, { trigger: 'job', backfillDays: 3 });
    ctx.clock.set(iso('2026-01-15T19:00:00Z'));
    await syncExchange(deps(), target, { trigger: 'cli', backfillDays: 3 });
    const status = await getSyncStatus({ db: ctx.db }, { platId: BITGET_ID });
    expect(status.runs.map((run) => run.trigger)).toEqual(['cli', 'job']);
    expect(status.cursors).toEqual([expect.objectContaining({ platId: BITGET_ID, lockedBy: null })]);
  });
});

describe('exchange sync of other exchanges', () => {
  let fake: FakeExchange | undefined;
  beforeEach(resetSyncTables);
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('pulls only the roster of an exchange whose commissions come by CSV (Bybit)', async () => {
    ctx.clock.set(iso('2026-01-15T13:30:00Z'));
    const recorder = createRecordingIngest();
    fake = await exchangeCase('bybit').createFake().start();
    fake
      .addReferral('80000001', iso('2026-01-14T07:00:00Z'))
      .addReferral('80000002', iso('2026-01-13T19:00:00Z'))
      .addReferral('80000003', iso('2026-01-14T13:00:00Z')) // listed, but its segment is not a day old
      .addTrade({ uid: '80000001', at: iso('2026-01-15T08:00:00Z'), volume: '1', fee: '1', commission: '1' });
    const adapter = exchangeCase('bybit').createAdapter(fake, fast);
    const summary = await syncExchange(
      { db: ctx.db, clock: ctx.clock, ingest: recorder.ingest },
      { platId: 3, adapter },
      { trigger: 'job', backfillDays: 2 },
    );
    // A segment's registrations are read a day after it ends (some are listed late).
    expect(summary).toMatchObject({
      status: 'succeeded',
      window: { from: iso('2026-01-13T12:00:00Z'), to: iso('2026-01-14T12:00:00Z') },
      referralsInserted: 2,
      rebatesInserted: 0,
    });
    expect(recorder.rebateCalls).toHaveLength(0);
    // The list cannot be asked by registration time: it is read once for the run's four segments.
    expect(fake.served.filter((request) => request.path === '/v5/affiliate/aff-user-list')).toHaveLength(1);
  });

  it.each([
    ['bybit', 3],
    ['bingx', 6],
  ] as const)(
    '%s: a registration the roster lists a few hours late is still pulled',
    async (name, platId) => {
      const recorder = createRecordingIngest();
      fake = await exchangeCase(name).createFake().start();
      const adapter = exchangeCase(name).createAdapter(fake, { ...fast, nowDate: () => ctx.clock.now() });
      const run = () =>
        syncExchange(
          { db: ctx.db, clock: ctx.clock, ingest: recorder.ingest },
          { platId, adapter },
          { trigger: 'job', backfillDays: 3 },
        );
      ctx.clock.set(iso('2026-01-15T07:00:00Z'));
      await run();
      // Registered at 05:00, listed by the exchange only after the 07:00 run.
      fake.addReferral('81000001', iso('2026-01-15T05:00:00Z'));
      for (const now of ['2026-01-15T13:00:00Z', '2026-01-16T07:00:00Z', '2026-01-16T13:00:00Z']) {
        ctx.clock.set(iso(now));
        await run();
      }
      expect(recorder.referrals.map((entry) => entry.uid)).toContain('81000001');
    },
  );

  it('resumes no earlier than the API looks back (OKX: 180 days) and works a backlog off over several runs', async () => {
    ctx.clock.set(new Date());
    const recorder = createRecordingIngest();
    fake = await exchangeCase('okx').createFake().start();
    const adapter = exchangeCase('okx').createAdapter(fake, { ...fast, nowDate: () => ctx.clock.now() });
    await ctx.db.insert(syncCursors).values({
      platId: 2,
      nextSegmentStart: new Date(Date.now() - 300 * 86_400_000),
      updatedAt: new Date(),
    });
    const summary = await syncExchange(
      { db: ctx.db, clock: ctx.clock, ingest: recorder.ingest },
      { platId: 2, adapter },
      { trigger: 'job', backfillDays: 30, maxSegments: 3 },
    );
    expect(summary).toMatchObject({ status: 'succeeded', segmentsDone: 3 });
    expect(summary.window.from.getTime()).toBeGreaterThan(Date.now() - 180 * 86_400_000);
    expect(summary.window.from.getTime() % SEGMENT_MS).toBe(0);
    const [cursor] = await ctx.db.select().from(syncCursors).where(eq(syncCursors.platId, 2));
    expect(cursor?.nextSegmentStart).toEqual(summary.window.to);
  });
});
