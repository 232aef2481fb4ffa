import { translate } from '@elex/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import type { AppDeps } from '../../deps.js';
import { exchangeCase, TEST_CREDENTIALS } from '../../integrations/exchanges/testing/cases.js';
import type { FakeExchange } from '../../integrations/exchanges/testing/fake-exchange.js';
import { runOpsCommand } from '../../ops/run-command.js';
import { seedOperator, testOperatorActor } from '../../test/ops-command.js';
import { createTestApp } from '../../test/test-app.js';
import { listAudit } from '../admin/audit.service.js';
import { listSyncRuns } from '../admin/imports.service.js';
import { operatorsExist, revokeOperator } from '../admin/operators.service.js';
import { rebates } from '../cashback/cashback.tables.js';
import { isReferred, registrationOf } from '../cashback/ingest.service.js';
import {
  runSyncCommand,
  runSyncSkipCommand,
  runSyncStatusCommand,
  type SyncCommandIo,
} from './sync.commands.js';
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

  it('names in its run note a known UID the exchange now lists with another registration time (the stored time stays)', async () => {
    const listed = fake.referrals.find((referral) => referral.uid === '71000001');
    if (!listed) throw new Error('the fake lost its referral');
    // The exchange now says 14:30 (same segment); the roster has 13:00 from the first run.
    listed.registeredAt = iso('2026-01-12T14:30:00Z');
    try {
      const { out, io: streams } = io();
      expect(
        await runSync(
          deps(),
          ['bitget', '--from', '2026-01-12T12:00:00Z', '--to', '2026-01-12T18:00:00Z'],
          streams,
        ),
      ).toBe(0);
      expect(out).toContain('Referrals: 0 inserted, 1 already known');
      const runId = Number(/run (\d+)$/.exec(out[0] ?? '')?.[1]);
      const noteIn = async (lang: 'en' | 'zh' | 'ko') =>
        (await listSyncRuns(deps(), { platId: 4 }, lang)).runs.find((run) => run.id === runId)?.error;
      const stored = '2026-01-12T13:00:00.000Z';
      const english =
        '1 UID(s) already in the roster listed with another registration time; the stored times stay: 71000001 registered at 2026-01-12 13:00 UTC, the exchange now says 2026-01-12 14:30 UTC';
      expect(await noteIn('en')).toBe(english);
      // The command's own printout says it too, after the status, though the run succeeded.
      expect(out.slice(-2)).toEqual(['Status:    succeeded', `Note:      ${english}`]);
      for (const lang of ['en', 'zh', 'ko'] as const) {
        expect(await noteIn(lang), lang).toBe(
          translate(lang, 'syncRegistrationsDiffer', {
            count: 1,
            rows: translate(lang, 'syncRegistrationDiffers', {
              uid: '71000001',
              stored: '2026-01-12 13:00 UTC',
              stated: '2026-01-12 14:30 UTC',
            }),
          }),
        );
      }
      expect(await registrationOf(ctx.db, 4, '71000001')).toEqual(iso(stored));
    } finally {
      listed.registeredAt = iso('2026-01-12T13:00:00Z');
    }
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

/**
 * `npm run ops -- sync:skip`: an exchange that refuses one segment for good (a malformed row) holds
 * every later segment back; the operator moves the cursor past exactly that segment and pulls it
 * later with `sync --from … --to …`, which re-pulls behind the cursor without moving it back.
 */
describe('ops sync:skip <platId> --segment <iso> --reason <text>', () => {
  const COMMISSIONS = '/api/v2/broker/customer-commissions';
  const skip = (args: string[], streams: SyncCommandIo, app: AppDeps = fastDeps()) =>
    runSyncSkipCommand(app, args, streams, testOperatorActor);
  const cursorAt = async () =>
    (await ctx.db.select().from(syncCursors).where(eq(syncCursors.platId, 4)))[0]?.nextSegmentStart;
  /** The rebate records stored for the 16th's two UIDs. */
  const storedRebates = async () =>
    (
      await ctx.db
        .select({ uid: rebates.uid })
        .from(rebates)
        .where(and(eq(rebates.platId, 4), eq(rebates.periodStart, iso('2026-01-16T00:00:00Z'))))
    )
      .map((row) => row.uid)
      .sort();
  /** Bitget reads the 16th (a daily row) with its 18:00 segment; it refuses that request for good. */
  const refuseThe16th = () =>
    fake.failWhile(
      (request) =>
        request.path === COMMISSIONS && request.query.get('startTime') === String(Date.parse('2026-01-16')),
      'refused',
    );

  beforeAll(() => {
    fake
      .addReferral('71000011', iso('2026-01-16T13:00:00Z'))
      .addReferral('71000012', iso('2026-01-16T14:00:00Z'))
      .addTrade({
        uid: '71000011',
        at: iso('2026-01-16T10:00:00Z'),
        volume: '50',
        fee: '0.03',
        commission: '0.01',
      })
      .addTrade({
        uid: '71000012',
        at: iso('2026-01-16T19:00:00Z'),
        volume: '70',
        fee: '0.04',
        commission: '0.02',
      });
  });
  beforeEach(async () => {
    // Settled up to 12:00 on the 18th; the sync had got to 12:00 on the 16th.
    ctx.clock.set(iso('2026-01-20T13:30:00Z'));
    await ctx.db.delete(syncRuns);
    await ctx.db.delete(syncCursors);
    await ctx.db
      .insert(syncCursors)
      .values({ platId: 4, nextSegmentStart: iso('2026-01-16T12:00:00Z'), updatedAt: ctx.clock.now() });
  });
  afterEach(() => fake.failWhile(undefined));

  it('an operator revoked after the command read the role skips nothing and syncs nothing (the role asked in each transaction)', async () => {
    const leaving = await seedOperator(deps(), 'sync-leaving@example.com', testOperatorActor);
    expect(await revokeOperator(deps(), leaving.email, testOperatorActor)).toBe(true);
    const revoked = { userId: leaving.userId, label: leaving.email };
    const auditBefore = (await listAudit(ctx.db, { page: 1, pageSize: 1 })).total;

    const skipping = io();
    await expect(
      runSyncSkipCommand(
        fastDeps(),
        ['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', 'stuck'],
        skipping.io,
        revoked,
      ),
    ).rejects.toMatchObject({ messageKey: 'forbidden' });
    expect(await cursorAt()).toEqual(iso('2026-01-16T12:00:00Z'));
    expect(await ctx.db.select().from(syncRuns)).toEqual([]);
    expect((await listAudit(ctx.db, { page: 1, pageSize: 1 })).total).toBe(auditBefore);

    // The sync stops at its first page: the run fails there saying why, the cursor stays, no UID joins.
    const syncing = io();
    expect(await runSyncCommand(fastDeps(), ['bitget'], syncing.io, revoked)).toBe(1);
    expect(syncing.err.join('\n')).toContain(
      'Error:     sync-leaving@example.com no longer holds the operator role: the run stopped before this segment',
    );
    expect(await cursorAt()).toEqual(iso('2026-01-16T12:00:00Z'));
    expect(await isReferred(ctx.db, 4, '71000011')).toBe(false);
    expect(await storedRebates()).toEqual([]);
  });

  it('moves the cursor past the refused segment only, audits it, and the printed command pulls it later without moving the cursor back or doubling a record', async () => {
    refuseThe16th();
    // Stuck: every run stops at the 18:00 segment, and the segments after it wait.
    for (let run = 0; run < 2; run += 1) {
      const { err, io: streams } = io();
      expect(await runSync(fastDeps(), ['bitget'], streams)).toBe(1);
      expect(err).toContain('Failed at: segment 2026-01-16T18:00:00.000Z (the next run starts there)');
    }
    expect(await cursorAt()).toEqual(iso('2026-01-16T18:00:00Z'));

    const { out, err, io: streams } = io();
    const reason = 'Bitget answers code 40034 for the 16th (a row without fee), ticket 8812';
    expect(await skip(['bitget', '--segment', '2026-01-16T18:00:00Z', '--reason', reason], streams)).toBe(0);
    expect(err).toEqual([]);
    const runId = /run (\d+)$/.exec(out[0] ?? '')?.[1];
    expect(out).toEqual([
      `Exchange:  bitget (platId 4), run ${runId}`,
      'Skipped:   2026-01-16T18:00:00.000Z .. 2026-01-17T00:00:00.000Z',
      'Cursor:    2026-01-17T00:00:00.000Z (the next sync continues there)',
      `Reason:    ${reason}`,
      'The skipped segment is not pulled by the sync. Once the exchange answers for it, pull it with:',
      '  npm run ops -- sync bitget --from 2026-01-16T18:00:00Z --to 2026-01-17T00:00:00Z',
    ]);
    expect(await cursorAt()).toEqual(iso('2026-01-17T00:00:00Z'));
    expect((await listAudit(ctx.db, { target: `sync:${runId}`, page: 1, pageSize: 10 })).rows).toMatchObject([
      {
        action: 'sync.skip',
        actor: testOperatorActor.label,
        before: { exchange: 'bitget', platId: 4, cursor: '2026-01-16T18:00:00.000Z' },
        after: {
          cursor: '2026-01-17T00:00:00.000Z',
          skipped: { from: '2026-01-16T18:00:00.000Z', to: '2026-01-17T00:00:00.000Z' },
          reason,
        },
      },
    ]);

    // The sync goes on past it (the exchange still refuses the 16th).
    const resumed = io();
    expect(await runSync(fastDeps(), ['bitget'], resumed.io)).toBe(0);
    expect(resumed.out).toContain('Window:    2026-01-17T00:00:00.000Z .. 2026-01-18T12:00:00.000Z');
    expect(await cursorAt()).toEqual(iso('2026-01-18T12:00:00Z'));
    expect(await storedRebates()).toEqual([]);

    // Where operators look: sync:status and the console's sync page name it and how to pull it.
    const status = io();
    expect(await runSyncStatusCommand(deps(), ['bitget'], status.io)).toBe(0);
    const listed = status.out.slice(status.out.indexOf('Skipped segments (newest first):'));
    expect(listed).toEqual([
      'Skipped segments (newest first):',
      `  #${runId} bitget  2026-01-16 18:00 .. 2026-01-17 00:00  skipped 2026-01-20 13:30\n` +
        `      segment skipped by ${testOperatorActor.label}: ${reason}\n` +
        '      not pulled yet: npm run ops -- sync bitget --from 2026-01-16T18:00:00Z --to 2026-01-17T00:00:00Z',
    ]);
    expect(
      status.out.some((line) => line.includes(`#${runId} bitget  cli skipped `) && line.includes(reason)),
    ).toBe(true);
    const console = await listSyncRuns(deps(), { platId: 4 }, 'en');
    expect(console.skippedSegments).toEqual([
      {
        runId: Number(runId),
        platId: 4,
        from: '2026-01-16T18:00:00.000Z',
        to: '2026-01-17T00:00:00.000Z',
        note: `segment skipped by ${testOperatorActor.label}: ${reason}`,
        skippedAt: '2026-01-20T13:30:00.000Z',
        pulledByRunId: null,
        pullCommand: 'npm run ops -- sync bitget --from 2026-01-16T18:00:00Z --to 2026-01-17T00:00:00Z',
      },
    ]);
    expect(console.runs.find((run) => run.id === Number(runId))).toMatchObject({
      status: 'skipped',
      segmentSkipped: true,
    });

    // The exchange answers again: the printed command pulls the segment behind the cursor...
    fake.failWhile(undefined);
    const pull = io();
    expect(
      await runSync(
        fastDeps(),
        ['bitget', '--from', '2026-01-16T18:00:00Z', '--to', '2026-01-17T00:00:00Z'],
        pull.io,
      ),
    ).toBe(0);
    expect(pull.out).toContain('Window:    2026-01-16T18:00:00.000Z .. 2026-01-17T00:00:00.000Z');
    expect(pull.out.find((line) => line.startsWith('Rebates:'))).toMatch(
      /^Rebates: +2 inserted, 0 duplicates/,
    );
    const pullRunId = Number(/run (\d+)$/.exec(pull.out[0] ?? '')?.[1]);
    // ...leaves the cursor where the sync got to...
    expect(await cursorAt()).toEqual(iso('2026-01-18T12:00:00Z'));
    expect(await storedRebates()).toEqual(['71000011', '71000012']);
    expect((await listSyncRuns(deps(), { platId: 4 }, 'en')).skippedSegments[0]?.pulledByRunId).toBe(
      pullRunId,
    );
    const after = io();
    await runSyncStatusCommand(deps(), ['bitget'], after.io);
    expect(after.out.at(-1)).toMatch(new RegExp(`pulled since by run #${pullRunId}$`));

    // ...and pulling a window behind the cursor again stores nothing twice.
    const again = io();
    expect(
      await runSync(
        fastDeps(),
        ['bitget', '--from', '2026-01-16T12:00:00Z', '--to', '2026-01-17T06:00:00Z'],
        again.io,
      ),
    ).toBe(0);
    expect(again.out).toContain('Referrals: 0 inserted, 2 already known');
    expect(again.out.find((line) => line.startsWith('Rebates:'))).toMatch(
      /^Rebates: +0 inserted, 2 duplicates/,
    );
    expect(await storedRebates()).toEqual(['71000011', '71000012']);
    expect(await cursorAt()).toEqual(iso('2026-01-18T12:00:00Z'));
  });

  it('counts failures afresh after a skip: the next stuck segment alerts again', async () => {
    // Alerts go to the operators: one is needed (an earlier test may have made the first).
    if (!(await operatorsExist(ctx.db))) await seedOperator(deps(), 'skip-alerts@example.com');
    const alerts = async () =>
      Number(
        rowsOf<{ n: string }>(
          await ctx.db.execute(
            sql`select count(*) as n from mail_outbox where template = 'alertSyncFailing'`,
          ),
        )[0]?.n,
      );
    const before = await alerts();
    // The 16th and the 17th are both refused for good.
    const refused = [Date.parse('2026-01-16'), Date.parse('2026-01-17')].map(String);
    fake.failWhile(
      (request) => request.path === COMMISSIONS && refused.includes(request.query.get('startTime') ?? ''),
      'refused',
    );
    const failures = ctx.config.alerts.syncFailures;
    for (let run = 0; run < failures; run += 1)
      expect(await runSync(fastDeps(), ['bitget'], io().io)).toBe(1);
    expect((await alerts()) - before).toBe(1);
    expect(
      await skip(['bitget', '--segment', '2026-01-16T18:00:00Z', '--reason', 'row without fee'], io().io),
    ).toBe(0);
    for (let run = 0; run < failures; run += 1) {
      const { err, io: streams } = io();
      expect(await runSync(fastDeps(), ['bitget'], streams)).toBe(1);
      expect(err).toContain('Failed at: segment 2026-01-17T18:00:00.000Z (the next run starts there)');
    }
    expect((await alerts()) - before).toBe(2);
  });

  it('refuses, changing nothing, a segment the cursor is not at, one not settled yet, or an exchange never synced', async () => {
    const refused = async (args: string[], message: string) => {
      const runsBefore = await ctx.db.select().from(syncRuns);
      const cursorBefore = await cursorAt();
      const { out, err, io: streams } = io();
      expect(await skip([...args, '--reason', 'test'], streams)).toBe(1);
      expect(out).toEqual([]);
      expect(err.join('\n')).toContain('sync:skip: refused, nothing changed: ');
      expect(err.join('\n')).toContain(message);
      expect(await ctx.db.select().from(syncRuns)).toEqual(runsBefore);
      expect(await cursorAt()).toEqual(cursorBefore);
    };
    // Behind the cursor (already pulled) and ahead of it (not tried yet).
    await refused(
      ['bitget', '--segment', '2026-01-16T06:00:00Z'],
      'the cursor of bitget is at 2026-01-16T12:00:00.000Z, not at 2026-01-16T06:00:00.000Z',
    );
    await refused(['4', '--segment', '2026-01-16T18:00:00Z'], 'not at 2026-01-16T18:00:00.000Z');
    // The cursor at a segment that has not settled: the sync has not tried it.
    await ctx.db.update(syncCursors).set({ nextSegmentStart: iso('2026-01-18T12:00:00Z') });
    await refused(['bitget', '--segment', '2026-01-18T12:00:00Z'], 'has not settled yet');
    await ctx.db.delete(syncCursors);
    await refused(['bitget', '--segment', '2026-01-16T12:00:00Z'], 'bitget has not been synced yet');
  });

  it('refuses while a sync holds the cursor, and skips once its lease has run out', async () => {
    const lockedUntil = new Date(ctx.clock.now().getTime() + 5 * 60_000);
    await ctx.db.update(syncCursors).set({ lockedBy: 'host:1:run', lockedUntil });
    const held = io();
    expect(await skip(['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', 'stuck'], held.io)).toBe(1);
    expect(held.err.join('\n')).toContain(
      'a sync of bitget holds the cursor (host:1:run, lease until 2026-01-20T13:35:00.000Z): wait for it to finish',
    );
    expect(await cursorAt()).toEqual(iso('2026-01-16T12:00:00Z'));
    expect(await ctx.db.select().from(syncRuns)).toEqual([]);

    // A crashed run's lease runs out: the cursor is free to move.
    ctx.clock.set(new Date(lockedUntil.getTime() + 1000));
    const free = io();
    expect(await skip(['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', 'stuck'], free.io)).toBe(0);
    expect(await cursorAt()).toEqual(iso('2026-01-16T18:00:00Z'));
  });

  it.each([
    [[], 'name one exchange'],
    [['bitget', '--reason', 'x'], '--segment needs the segment’s start'],
    [['bitget', '--segment', '2026-01-16T12:00:00', '--reason', 'x'], '--segment: the time needs its zone'],
    [
      ['bitget', '--segment', '2026-01-16T13:00:00Z', '--reason', 'x'],
      '--segment: 2026-01-16T13:00:00.000Z is not the start of a 6-hour segment',
    ],
    [['bitget', '--segment', '2026-01-16T12:00:00Z'], '--reason needs a text saying why'],
    [['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', '  '], '--reason needs a text saying why'],
    [['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', 'x'.repeat(501)], 'at most 500'],
    [['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', 'x', '--to', 'y'], 'unknown option --to'],
  ])('refuses the arguments %j with usage (exit 2), changing nothing', async (args, message) => {
    const { err, io: streams } = io();
    expect(await skip(args, streams)).toBe(2);
    expect(err.join('\n')).toContain(message);
    expect(err.join('\n')).toContain('Usage: npm run ops -- sync:skip <platId|name> --segment');
    expect(await cursorAt()).toEqual(iso('2026-01-16T12:00:00Z'));
  });

  it('is refused without an operator named (exit 2), changing nothing', async () => {
    const { err, io: streams } = io();
    const request = {
      name: 'sync:skip',
      args: ['bitget', '--segment', '2026-01-16T12:00:00Z', '--reason', 'stuck'],
      osUser: 'night-shift',
    };
    expect(await runOpsCommand(deps(), request, streams)).toBe(2);
    expect(err.join('\n')).toContain('sync:skip changes data: name the operator running it');
    expect(await cursorAt()).toEqual(iso('2026-01-16T12:00:00Z'));
  });

  it('refuses an exchange without an API (exit 1)', async () => {
    const { err, io: streams } = io();
    expect(await skip(['okx', '--segment', '2026-01-16T12:00:00Z', '--reason', 'x'], streams)).toBe(1);
    expect(err.join('\n')).toContain('OKX has no API configured');
  });
});
