import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AppDeps } from '../../deps.js';
import { exchangeCase, TEST_CREDENTIALS } from '../../integrations/exchanges/testing/cases.js';
import type { FakeExchange } from '../../integrations/exchanges/testing/fake-exchange.js';
import { seedOperator, testOperatorActor } from '../../test/ops-command.js';
import { createTestApp } from '../../test/test-app.js';
import { listAudit } from '../admin/audit.service.js';
import { isReferred } from '../cashback/ingest.service.js';
import { runSyncCommand, runSyncStatusCommand, type SyncCommandIo } from './sync.commands.js';
import { syncCursors, syncRuns } from './sync.tables.js';

/** The command as an operator runs it. */
const runSync = (deps: AppDeps, args: string[], io: SyncCommandIo) =>
  runSyncCommand(deps, args, io, testOperatorActor);

/**
 * `npm run ops -- sync`, end to end: the adapter built from config (BITGET_API_URL pointing at the
 * fake), the real cashback ingest, the database.
 */

let ctx: Awaited<ReturnType<typeof createTestApp>>;
let fake: FakeExchange;
const iso = (text: string) => new Date(text);

beforeAll(async () => {
  fake = await exchangeCase('bitget').createFake().start();
  ctx = await createTestApp({
    exchangeApis: { bitget: { ...TEST_CREDENTIALS, baseUrl: fake.url } },
  });
  await seedPartnerCatalog(ctx.db);
  fake
    .addReferral('71000001', iso('2026-01-12T13:00:00Z'))
    .addReferral('71000002', iso('2026-01-12T20:00:00Z'))
    // Daily rows for the 12th: a day is read with the segment it ends in (18:00-24:00 on the 12th).
    .addTrade({
      uid: '71000001',
      at: iso('2026-01-12T14:00:00Z'),
      volume: '100',
      fee: '0.05',
      commission: '0.02',
    })
    .addTrade({
      uid: '71000002',
      at: iso('2026-01-12T21:00:00Z'),
      volume: '300',
      fee: '0.15',
      commission: '0.06',
    });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) } };
}

const deps = (): AppDeps => ctx.app.deps;
/** The app with an adapter that retries instantly and has no rate limit (long windows stay fast). */
const fastDeps = (): AppDeps => ({
  ...ctx.app.deps,
  exchangeAdapters: new Map([
    [
      'bitget',
      exchangeCase('bitget').createAdapter(fake, {
        retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
        rateLimit: { limit: 10_000, intervalMs: 1000 },
      }),
    ],
  ]),
});

describe('ops sync <platId> [--from] [--to]', () => {
  beforeEach(async () => {
    ctx.clock.set(iso('2026-01-15T13:30:00Z'));
    await ctx.db.delete(syncRuns);
    await ctx.db.delete(syncCursors);
  });
  afterEach(() => fake.failWhile(undefined));

  it('pulls the window into the roster and the rebate records and prints a summary', async () => {
    const { out, err, io: streams } = io();
    const code = await runSync(
      deps(),
      ['bitget', '--from', '2026-01-12T12:00:00Z', '--to', '2026-01-13T12:00:00Z'],
      streams,
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(/^Exchange: +bitget \(platId 4\), run \d+$/),
      'Window:    2026-01-12T12:00:00.000Z .. 2026-01-13T12:00:00.000Z',
      'Segments:  4/4',
      'Referrals: 2 inserted, 0 already known',
      expect.stringMatching(/^Rebates: +2 inserted, 0 duplicates, \d+ settled$/),
      'Status:    succeeded',
    ]);
    expect(await isReferred(ctx.db, 4, '71000001')).toBe(true);
    expect(await isReferred(ctx.db, 4, '71000002')).toBe(true);
  });

  it('a second run of the same window finds duplicates and credits nothing twice', async () => {
    const { out, io: streams } = io();
    const code = await runSync(
      deps(),
      ['4', '--from=2026-01-12T12:00:00Z', '--to=2026-01-13T12:00:00Z'],
      streams,
    );
    expect(code).toBe(0);
    expect(out).toContain('Referrals: 0 inserted, 2 already known');
    expect(out.find((line) => line.startsWith('Rebates:'))).toMatch(/0 inserted, 2 duplicates/);
  });

  it('writes each run to the audit log as the command line’s user, failed ones too', async () => {
    const { out, io: streams } = io();
    expect(
      await runSync(deps(), ['bitget', '--from', '2026-01-12', '--to', '2026-01-12T18:00:00+00:00'], streams),
    ).toBe(0);
    const runId = /run (\d+)$/.exec(out[0] ?? '')?.[1];
    const entries = async (id: string | undefined) =>
      (await listAudit(ctx.db, { target: `sync:${id}`, page: 1, pageSize: 10 })).rows;
    expect(await entries(runId)).toMatchObject([
      {
        action: 'sync.run',
        actor: testOperatorActor.label,
        before: {
          exchange: 'bitget',
          platId: 4,
          from: '2026-01-12T00:00:00.000Z',
          to: '2026-01-12T18:00:00.000Z',
        },
        after: { status: 'succeeded', segments: '3/3', error: null },
      },
    ]);

    fake.failWhile((request) => request.path === '/api/v2/broker/customer-list', 'rate-limit');
    const failed = io();
    expect(await runSync(fastDeps(), ['bitget', '--from', '2026-01-13T00:00:00Z'], failed.io)).toBe(1);
    const failedRunId = /run (\d+)$/.exec(failed.out[0] ?? '')?.[1];
    expect(await entries(failedRunId)).toMatchObject([
      { action: 'sync.run', after: { status: 'failed', error: expect.stringContaining('rate limited') } },
    ]);
  });

  it('continues from the cursor without --from', async () => {
    const { out, io: streams } = io();
    expect(await runSync(fastDeps(), ['BG'], streams)).toBe(0);
    // SYNC_BACKFILL_DAYS (30) back, up to 48 h ago on a segment boundary.
    expect(out).toContain('Window:    2025-12-16T12:00:00.000Z .. 2026-01-13T12:00:00.000Z');
    expect(out).toContain('Segments:  112/112');
  });

  it('fails with exit 1, the exchange’s error and the segment the next run starts at', async () => {
    fake.failWhile((request) => request.path === '/api/v2/broker/customer-list', 'rate-limit');
    const { err, io: streams } = io();
    const code = await runSync(fastDeps(), ['bitget', '--from', '2026-01-13T00:00:00Z'], streams);
    expect(code).toBe(1);
    expect(err).toContain('Status:    failed');
    expect(err).toContain('Failed at: segment 2026-01-13T00:00:00.000Z (the next run starts there)');
    expect(err.find((line) => line.startsWith('Error:'))).toMatch(
      /bitget POST \/api\/v2\/broker\/customer-list: rate limited \(HTTP 429, code 429.*gave up after 2 attempts/,
    );
  });

  it('alerts the operators on the run that makes ALERT_SYNC_FAILURES failures in a row, as the job does', async () => {
    await seedOperator(deps(), 'sync-alerts@example.com');
    const alerts = async () =>
      rowsOf<{ n: string }>(
        await ctx.db.execute(sql`select count(*) as n from mail_outbox where template = 'alertSyncFailing'`),
      )[0]?.n;
    const before = Number(await alerts());
    fake.failWhile((request) => request.path === '/api/v2/broker/customer-list', 'rate-limit');
    const failures = ctx.config.alerts.syncFailures;
    for (let run = 1; run <= failures + 1; run += 1) {
      expect(await runSync(fastDeps(), ['bitget', '--from', '2026-01-13T00:00:00Z'], io().io)).toBe(1);
      // Quiet before the Nth failure, one alert at it, quiet again after it.
      expect(Number(await alerts()) - before).toBe(run < failures ? 0 : 1);
    }
  });

  it('names the settings to check when the exchange refuses the key', async () => {
    const config = {
      ...ctx.config,
      exchangeApis: { bitget: { ...TEST_CREDENTIALS, apiSecret: 'wrong', baseUrl: fake.url } },
    };
    const { err, io: streams } = io();
    expect(await runSync({ ...ctx.app.deps, config }, ['bitget'], streams)).toBe(1);
    expect(err.find((line) => line.startsWith('Error:'))).toMatch(
      /authentication refused \(HTTP 400, code 40009, "sign signature error"\); check BITGET_API_KEY, BITGET_API_SECRET/,
    );
  });

  it.each([
    [['okx'], 'OKX has no API configured: set OKX_API_KEY and _API_SECRET'],
    [
      ['binance'],
      'Binance has no affiliate API for regular affiliates: import its CSV export with rebates:import',
    ],
    [['nowhere'], 'no exchange "nowhere" in the catalog'],
  ])('refuses %j with a clear message (exit 1)', async (args, message) => {
    const { err, io: streams } = io();
    expect(await runSync(deps(), args, streams)).toBe(1);
    expect(err.join('\n')).toContain(message);
  });

  it.each([
    [[], 'name one exchange'],
    [['bitget', '--from'], '--from needs a time'],
    [['bitget', '--from', 'yesterday'], '--from: not an ISO 8601 time such as 2026-01-31T00:00:00Z'],
    // new Date() took these, in the server's zone or as a guess; the CSV import's parser does not.
    [['bitget', '--from', 'March 3, 2026'], '--from: not an ISO 8601 time'],
    [['bitget', '--from', '2026-01-12T12:00:00'], '--from: the time needs its zone, Z or +hh:mm'],
    [['bitget', '--from', '2026-01-12', '--to', '2026-02-30'], '--to: not a real date or time'],
    [['bitget', '--to', '2026-01-01'], '--to needs --from'],
    [['bitget', '--from', '2026-01-02', '--to', '2026-01-01'], '--to must be after --from'],
    [['bitget', '--since', '2026-01-01'], 'unknown option --since'],
  ])('refuses the arguments %j with usage (exit 2)', async (args, message) => {
    const { err, io: streams } = io();
    expect(await runSync(deps(), args, streams)).toBe(2);
    expect(err.join('\n')).toContain(message);
    expect(err.join('\n')).toContain('Usage: npm run ops -- sync <platId|name>');
  });

  it('sync:status shows the cursor and the runs, newest first, with their errors', async () => {
    await runSync(fastDeps(), ['bitget', '--from', '2026-01-13T00:00:00Z'], io().io);
    fake.failWhile((request) => request.path === '/api/v2/broker/customer-list');
    await runSync(fastDeps(), ['bitget'], io().io);
    const { out, io: streams } = io();
    expect(await runSyncStatusCommand(deps(), ['bitget', '--limit', '5'], streams)).toBe(0);
    expect(out[0]).toBe('Cursors (next segment, lock):');
    expect(out[1]).toBe('  platId 4   next 2025-12-16 12:00  free');
    expect(out[2]).toBe('Runs (newest first):');
    expect(out[3]).toMatch(
      /^ {2}#\d+ bitget +cli failed +2025-12-16 12:00 \.\. 2026-01-13 12:00 {2}segments 0\/112/,
    );
    expect(out[3]).toContain('exchange server error');
    expect(out[4]).toMatch(/^ {2}#\d+ bitget +cli succeeded/);
  });

  it('sync:status refuses a bad limit', async () => {
    const { err, io: streams } = io();
    expect(await runSyncStatusCommand(deps(), ['--limit', 'many'], streams)).toBe(2);
    expect(err.join('\n')).toContain('--limit needs a number');
  });
});
