import { CodeModule, State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  analyticsEvents,
  mailOutbox,
  sessions,
  supportImages,
  supportMessages,
  supportRequests,
  syncRuns,
  uidWatches,
  verificationCodes,
} from '../../db/schema.js';
import { testOperatorActor } from '../../test/ops-command.js';
import { listAudit } from '../admin/audit.service.js';
import {
  call,
  nextEmail,
  PASSWORD,
  passCoolDown,
  readCode,
  requestCode,
  signUp,
} from '../auth/test-support.js';
import { insertUidWatch } from '../bindings/bindings.repository.js';
import {
  BINANCE,
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  createMember,
} from '../cashback/test-support.js';
import { ownRequestDetail } from '../support/support.service.js';
import { runHousekeepingCommand } from './housekeeping.commands.js';
import { type HousekeepingResult, runHousekeeping } from './housekeeping.service.js';

let ctx: CashbackTestContext;
let memberId: number;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  memberId = (await createMember(ctx)).id;
});
afterAll(() => ctx.close());

const NOW = new Date('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** `days` before NOW, give or take `ms`. */
const ago = (days: number, ms = 0) => new Date(NOW.getTime() - days * DAY + ms);

beforeEach(async () => {
  ctx.clock.set(NOW);
  await ctx.db.delete(verificationCodes);
  await ctx.db.delete(sessions);
  await ctx.db.delete(mailOutbox);
  await ctx.db.delete(syncRuns);
  await ctx.db.delete(analyticsEvents);
  await ctx.db.delete(uidWatches);
  await ctx.db.delete(supportMessages);
  await ctx.db.delete(supportImages);
  await ctx.db.delete(supportRequests);
});

let counter = 0;
async function insertCode(times: { createdAt: Date; expiresAt: Date; consumedAt?: Date }) {
  counter += 1;
  const [row] = await ctx.db
    .insert(verificationCodes)
    .values({ emailHash: `email-${counter}`, module: 0, codeHash: 'code', ipHash: 'ip', ...times })
    .returning({ id: verificationCodes.id });
  return row?.id ?? 0;
}

async function insertSession(times: { createdAt: Date; expiresAt: Date; revokedAt?: Date }) {
  counter += 1;
  const [row] = await ctx.db
    .insert(sessions)
    .values({ userId: memberId, tokenHash: `token-${counter}`, ...times })
    .returning({ id: sessions.id });
  return row?.id ?? 0;
}

async function insertMail(mail: { status: 'pending' | 'sent' | 'failed'; createdAt: Date; sentAt?: Date }) {
  const [row] = await ctx.db
    .insert(mailOutbox)
    .values({
      template: 'verificationCode',
      locale: 'en',
      payload: mail.status === 'sent' ? null : 'sealed',
      nextAttemptAt: mail.createdAt,
      ...mail,
    })
    .returning({ id: mailOutbox.id });
  return row?.id ?? 0;
}

async function insertRun(run: {
  platId: number;
  status: 'succeeded' | 'skipped' | 'failed';
  at: Date;
  segments?: number;
}) {
  const segments = run.segments ?? 0;
  const [row] = await ctx.db
    .insert(syncRuns)
    .values({
      platId: run.platId,
      exchange: run.platId === BITGET ? 'bitget' : 'binance',
      trigger: 'job',
      status: run.status,
      windowStart: run.at,
      windowEnd: new Date(run.at.getTime() + segments * 6 * 60 * MINUTE),
      segmentsTotal: segments,
      segmentsDone: run.status === 'succeeded' ? segments : 0,
      instance: 'test',
      startedAt: run.at,
      finishedAt: new Date(run.at.getTime() + MINUTE),
    })
    .returning({ id: syncRuns.id });
  return row?.id ?? 0;
}

async function insertEvent(receivedAt: Date) {
  const [row] = await ctx.db
    .insert(analyticsEvents)
    .values({ event: 'page_view', page: '/', channel: 'direct', agent: 'UA', locale: 'en', receivedAt })
    .returning({ id: analyticsEvents.id });
  return Number(row?.id ?? 0);
}

/** A member's wait for a UID to join BITGET's roster; answers the UID, which names it. */
async function insertWatch(times: { createdAt: Date; notifiedAt?: Date }) {
  counter += 1;
  const uid = `WATCH${counter}`;
  await ctx.db.insert(uidWatches).values({ userId: memberId, platId: BITGET, uid, ...times });
  return uid;
}

/** Rows of every kind at ages on both sides of their retention; answers the ids that must stay. */
async function insertRowsOfEveryAge() {
  const code = (expiresAt: Date, consumedAt?: Date) =>
    insertCode({ createdAt: new Date(expiresAt.getTime() - 10 * MINUTE), expiresAt, consumedAt });
  const goneCodes = [
    await code(ago(8)),
    await code(ago(7, -MINUTE)),
    // used at once, long ago
    await code(ago(10), ago(10, -9 * MINUTE)),
  ];
  const keptCodes = [
    await code(ago(7, MINUTE)),
    await code(ago(6)),
    // expired 40 minutes ago: still counted by the hourly caps
    await code(ago(0, -40 * MINUTE)),
    // valid now, unused and used
    await code(ago(0, 8 * MINUTE)),
    await code(ago(0, 5 * MINUTE), ago(0, -MINUTE)),
  ];

  const goneSessions = [
    await insertSession({ createdAt: ago(61), expiresAt: ago(31) }),
    // revoked 31 days ago, expired only a day and a half ago
    await insertSession({ createdAt: ago(31.5), expiresAt: ago(1.5), revokedAt: ago(31) }),
    await insertSession({ createdAt: ago(60, -MINUTE), expiresAt: ago(30, -MINUTE) }),
  ];
  const keptSessions = [
    await insertSession({ createdAt: ago(60, MINUTE), expiresAt: ago(30, MINUTE) }),
    await insertSession({ createdAt: ago(59), expiresAt: ago(29) }),
    await insertSession({ createdAt: ago(40), expiresAt: ago(10), revokedAt: ago(29) }),
    await insertSession({ createdAt: ago(5), expiresAt: ago(-25), revokedAt: ago(1) }),
    // live: created 29 days ago, one day left
    await insertSession({ createdAt: ago(29), expiresAt: ago(-1) }),
  ];

  const goneMails = [await insertMail({ status: 'sent', createdAt: ago(31, -MINUTE), sentAt: ago(31) })];
  const keptMails = [
    await insertMail({ status: 'sent', createdAt: ago(29, -MINUTE), sentAt: ago(29) }),
    await insertMail({ status: 'sent', createdAt: ago(0, -MINUTE), sentAt: ago(0) }),
    await insertMail({ status: 'pending', createdAt: ago(60) }),
    await insertMail({ status: 'failed', createdAt: ago(60) }),
  ];

  const goneRuns = [
    await insertRun({ platId: BITGET, status: 'succeeded', at: ago(40) }),
    await insertRun({ platId: BITGET, status: 'skipped', at: ago(35) }),
  ];
  const keptRuns = [
    await insertRun({ platId: BITGET, status: 'succeeded', at: ago(40), segments: 2 }),
    await insertRun({ platId: BITGET, status: 'failed', at: ago(39), segments: 1 }),
    await insertRun({ platId: BITGET, status: 'succeeded', at: ago(20) }),
    // Binance's only run: the newest of its exchange stays, however old
    await insertRun({ platId: BINANCE, status: 'succeeded', at: ago(60) }),
  ];
  const goneEvents = [await insertEvent(ago(401)), await insertEvent(ago(400, -MINUTE))];
  const keptEvents = [
    await insertEvent(ago(400, MINUTE)),
    await insertEvent(ago(90)),
    await insertEvent(ago(0)),
  ];
  const goneWatches = [
    // mailed 31 days ago; waiting in vain for 31 days
    await insertWatch({ createdAt: ago(40), notifiedAt: ago(31) }),
    await insertWatch({ createdAt: ago(30, -MINUTE) }),
  ];
  const keptWatches = [
    // begun long ago, mailed only 29 days ago: the mail is what counts
    await insertWatch({ createdAt: ago(60), notifiedAt: ago(29) }),
    await insertWatch({ createdAt: ago(30, MINUTE) }),
    await insertWatch({ createdAt: ago(2), notifiedAt: ago(1) }),
    await insertWatch({ createdAt: ago(0) }),
  ];
  return {
    gone: {
      codes: goneCodes,
      sessions: goneSessions,
      mails: goneMails,
      runs: goneRuns,
      events: goneEvents,
      watches: goneWatches,
    },
    kept: {
      codes: keptCodes,
      sessions: keptSessions,
      mails: keptMails,
      runs: keptRuns,
      events: keptEvents,
      watches: keptWatches,
    },
  };
}

async function remainingIds() {
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id).sort((a, b) => a - b);
  return {
    codes: ids(await ctx.db.select({ id: verificationCodes.id }).from(verificationCodes)),
    sessions: ids(await ctx.db.select({ id: sessions.id }).from(sessions)),
    mails: ids(await ctx.db.select({ id: mailOutbox.id }).from(mailOutbox)),
    runs: ids(await ctx.db.select({ id: syncRuns.id }).from(syncRuns)),
    events: ids(
      (await ctx.db.select({ id: analyticsEvents.id }).from(analyticsEvents)).map((row) => ({
        id: Number(row.id),
      })),
    ),
    watches: (await ctx.db.select({ uid: uidWatches.uid }).from(uidWatches)).map((row) => row.uid).sort(),
  };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const deletedPerTable = (result: HousekeepingResult) =>
  Object.fromEntries(result.tables.map((table) => [table.table, table.deleted]));

describe('housekeeping', () => {
  it('deletes exactly the rows past their retention and keeps every recent, valid or unsent one', async () => {
    const { gone, kept } = await insertRowsOfEveryAge();

    const result = await runHousekeeping(ctx.deps);

    expect(deletedPerTable(result)).toEqual({
      verification_codes: gone.codes.length,
      sessions: gone.sessions.length,
      mail_outbox: gone.mails.length,
      sync_runs: gone.runs.length,
      analytics_events: gone.events.length,
      // Export links are tested with the exports (exports.test.ts).
      export_links: 0,
      uid_watches: gone.watches.length,
      support_images: 0,
      // Folding the ledger's day sums and credits is tested with the ledger (day-sums.test.ts).
      ledger_day_sums: 0,
      cashback_credit_days: 0,
    });
    expect(result.tables.every((table) => table.complete)).toBe(true);
    expect(await remainingIds()).toEqual({
      codes: sorted(kept.codes),
      sessions: sorted(kept.sessions),
      mails: sorted(kept.mails),
      runs: sorted(kept.runs),
      events: sorted(kept.events),
      watches: [...kept.watches].sort(),
    });
  });

  it('counts a wait for a UID from the member’s latest try, and a mailed one from its mail', async () => {
    const watch = (uid: string, createdAt: Date) =>
      insertUidWatch(ctx.db, { userId: memberId, platId: BITGET, uid, createdAt });
    await watch('RETRIED', ago(40));
    await watch('RETRIED', ago(10));
    await insertWatch({ createdAt: ago(45), notifiedAt: ago(31) });
    const mailed = `WATCH${counter}`;
    // Trying a UID again after its mail (the bind then succeeds or is refused otherwise) restarts nothing.
    await watch(mailed, ago(1));

    await runHousekeeping(ctx.deps);

    expect((await remainingIds()).watches).toEqual(['RETRIED']);
  });

  it('is harmless run twice: the second run deletes nothing', async () => {
    await insertRowsOfEveryAge();
    await runHousekeeping(ctx.deps);
    const after = await remainingIds();

    const again = await runHousekeeping(ctx.deps);

    expect(again.tables.map((table) => table.deleted)).toEqual(again.tables.map(() => 0));
    expect(await remainingIds()).toEqual(after);
  });

  it('deletes in batches: a run stops at its batch bound and the next run goes on', async () => {
    for (let index = 0; index < 5; index += 1) await insertCode({ createdAt: ago(9), expiresAt: ago(9) });
    const kept = await insertCode({ createdAt: ago(0), expiresAt: ago(0, 10 * MINUTE) });

    const first = await runHousekeeping(ctx.deps, { batchSize: 2, maxBatches: 2 });
    expect(first.tables[0]).toMatchObject({ table: 'verification_codes', deleted: 4, complete: false });
    const second = await runHousekeeping(ctx.deps, { batchSize: 2, maxBatches: 2 });
    expect(second.tables[0]).toMatchObject({ table: 'verification_codes', deleted: 1, complete: true });
    expect((await remainingIds()).codes).toEqual([kept]);
  });

  it('runs at once on several instances without deleting a row twice or a row that must stay', async () => {
    const { gone, kept } = await insertRowsOfEveryAge();
    for (let index = 0; index < 30; index += 1) {
      gone.codes.push(await insertCode({ createdAt: ago(20), expiresAt: ago(20) }));
      gone.sessions.push(await insertSession({ createdAt: ago(90), expiresAt: ago(60) }));
    }

    const results = await Promise.all(
      [1, 2, 3].map(() => runHousekeeping(ctx.deps, { batchSize: 4, maxBatches: 1000 })),
    );

    const total = (table: string) =>
      results.reduce((sum, result) => sum + (deletedPerTable(result)[table] ?? 0), 0);
    expect(total('verification_codes')).toBe(gone.codes.length);
    expect(total('sessions')).toBe(gone.sessions.length);
    expect(total('mail_outbox')).toBe(gone.mails.length);
    expect(total('sync_runs')).toBe(gone.runs.length);
    expect(total('analytics_events')).toBe(gone.events.length);
    expect(total('uid_watches')).toBe(gone.watches.length);
    expect(await remainingIds()).toEqual({
      codes: sorted(kept.codes),
      sessions: sorted(kept.sessions),
      mails: sorted(kept.mails),
      runs: sorted(kept.runs),
      events: sorted(kept.events),
      watches: [...kept.watches].sort(),
    });
  });
});

describe('support screenshots', () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  /** A request with one screenshot, closed `closedDaysAgo` days before NOW (open when undefined). */
  async function requestWithScreenshot(closedDaysAgo?: number) {
    const closedAt = closedDaysAgo === undefined ? null : ago(closedDaysAgo);
    const [request] = await ctx.db
      .insert(supportRequests)
      .values({
        userId: memberId,
        kind: 'other',
        status: closedAt ? 'closed' : 'open',
        resolution: closedAt ? 'closed' : null,
        createdAt: ago(800),
        updatedAt: closedAt ?? ago(800),
        closedAt,
      })
      .returning({ id: supportRequests.id });
    const requestId = request?.id ?? 0;
    const [image] = await ctx.db
      .insert(supportImages)
      .values({ requestId, contentType: 'image/png', bytes: PNG, sizeBytes: PNG.length, createdAt: ago(800) })
      .returning({ id: supportImages.id });
    await ctx.db.insert(supportMessages).values({
      requestId,
      author: 'member',
      text: 'my screenshot',
      imageId: image?.id ?? 0,
      createdAt: ago(800),
    });
    return requestId;
  }
  const messageOf = async (requestId: number) =>
    (await ownRequestDetail(ctx.deps, memberId, requestId)).messages[0];

  it('erases the screenshots of requests closed over a year ago, and the thread says one was there', async () => {
    const longClosed = await requestWithScreenshot(366);
    const recentlyClosed = await requestWithScreenshot(364);
    // Opened long ago and still undecided: its evidence stays, whatever its age.
    const stillOpen = await requestWithScreenshot();

    const result = await runHousekeeping(ctx.deps);

    expect(deletedPerTable(result).support_images).toBe(1);
    expect(await messageOf(longClosed)).toMatchObject({
      text: 'my screenshot',
      image: null,
      imageErased: true,
    });
    for (const kept of [recentlyClosed, stillOpen]) {
      expect(await messageOf(kept)).toMatchObject({
        image: `data:image/png;base64,${PNG.toString('base64')}`,
        imageErased: false,
      });
    }
    const rows = await ctx.db.select().from(supportImages);
    expect(rows.filter((row) => row.bytes === null).map((row) => row.sizeBytes)).toEqual([PNG.length]);
    expect(rows.find((row) => row.bytes === null)?.erasedAt).toBeInstanceOf(Date);
    // A second run finds nothing more to erase.
    expect(deletedPerTable(await runHousekeeping(ctx.deps)).support_images).toBe(0);
  });

  it('a message without a screenshot is not marked erased', async () => {
    const [request] = await ctx.db
      .insert(supportRequests)
      .values({ userId: memberId, kind: 'other', status: 'open', createdAt: ago(1), updatedAt: ago(1) })
      .returning({ id: supportRequests.id });
    await ctx.db
      .insert(supportMessages)
      .values({ requestId: request?.id ?? 0, author: 'member', text: 'no image', createdAt: ago(1) });
    expect(await messageOf(request?.id ?? 0)).toMatchObject({ image: null, imageErased: false });
  });
});

describe('housekeeping beside members (through the API)', () => {
  const profile = async (token: string) =>
    (await call(ctx, '/elex/user/profile', {}, { token })).json() as { state: number };

  it('keeps a session while it lives and for 30 days after it expired', async () => {
    const token = await signUp(ctx, nextEmail('housekeeping'));
    ctx.clock.advance(29 * DAY);
    await runHousekeeping(ctx.deps);
    expect(await profile(token)).toMatchObject({ state: State.Success });

    ctx.clock.advance(2 * DAY);
    expect(await profile(token)).toMatchObject({ state: State.SessionExpired });
    await runHousekeeping(ctx.deps);
    expect(await ctx.db.select().from(sessions)).toHaveLength(1);

    ctx.clock.advance(30 * DAY);
    const result = await runHousekeeping(ctx.deps);
    expect(deletedPerTable(result)).toMatchObject({ sessions: 1 });
    expect(await ctx.db.select().from(sessions)).toHaveLength(0);
  });

  it('leaves a code in its window usable and its cool-down in force', async () => {
    const email = nextEmail('housekeeping');
    await signUp(ctx, email);
    passCoolDown(ctx);
    expect(await requestCode(ctx, CodeModule.Login, email)).toMatchObject({ state: State.Success });
    const authcode = await readCode(ctx, email);

    await runHousekeeping(ctx.deps);

    // The resend cool-down still counts from the code just sent.
    expect(await requestCode(ctx, CodeModule.Login, email)).toMatchObject({
      state: State.TooManyRequests,
    });
    const login = await call(ctx, '/elex/user/login', { email, passwd: PASSWORD, authcode });
    expect(login.json()).toMatchObject({ state: State.Success });
  });
});

describe('npm run ops -- housekeeping', () => {
  function io() {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) } };
  }

  it('prints what it deleted per table and exits 0', async () => {
    const { gone } = await insertRowsOfEveryAge();
    const { out, err, io: commandIo } = io();

    expect(await runHousekeepingCommand(ctx.deps, [], commandIo, testOperatorActor)).toBe(0);

    expect(err).toEqual([]);
    const deleted =
      gone.codes.length +
      gone.sessions.length +
      gone.mails.length +
      gone.runs.length +
      gone.events.length +
      gone.watches.length;
    expect(out[0]).toBe(`Housekeeping at ${NOW.toISOString()}: ${deleted} rows deleted.`);
    expect(out.slice(1)).toEqual([
      expect.stringMatching(/^ {2}verification_codes +3 {2}codes expired \(or used\) more than 7 days ago$/),
      expect.stringMatching(/^ {2}sessions +3 {2}sessions expired or revoked more than 30 days ago$/),
      expect.stringMatching(/^ {2}mail_outbox +1 {2}mails sent more than 30 days ago/),
      expect.stringMatching(/^ {2}sync_runs +2 {2}sync runs that had nothing to do/),
      expect.stringMatching(/^ {2}analytics_events +2 {2}analytics events received more than 400 days ago$/),
      expect.stringMatching(/^ {2}export_links +0 {2}export download links expired more than 1 day ago$/),
      expect.stringMatching(
        /^ {2}uid_watches +2 {2}waits for a UID to join a roster, mailed or begun more than 30 days ago$/,
      ),
      expect.stringMatching(
        /^ {2}support_images +0 {2}screenshots of support requests closed more than 365 days ago \(erased; the row stays\)$/,
      ),
      expect.stringMatching(
        /^ {2}ledger_day_sums +0 {2}the ledger's day sums of days more than 2 days ago, folded/,
      ),
      expect.stringMatching(
        /^ {2}cashback_credit_days +0 {2}the cashback credited per UID and day of days more than 2 days ago, folded/,
      ),
    ]);
    const { out: second, io: secondIo } = io();
    expect(await runHousekeepingCommand(ctx.deps, [], secondIo, testOperatorActor)).toBe(0);
    expect(second[0]).toMatch(/: 0 rows deleted\.$/);
    // Each run is in the audit log under the operator who ran it, with its counts.
    const audit = await listAudit(ctx.db, { action: 'housekeeping.run', page: 1, pageSize: 10 });
    expect(audit.rows.map((row) => ({ actor: row.actor, after: row.after }))).toEqual([
      { actor: testOperatorActor.label, after: expect.objectContaining({ sessions: 0 }) },
      {
        actor: testOperatorActor.label,
        after: expect.objectContaining({ verification_codes: 3, sessions: 3 }),
      },
    ]);
  });

  it('refuses arguments with exit 2 and the usage', async () => {
    const { out, err, io: commandIo } = io();
    expect(await runHousekeepingCommand(ctx.deps, ['--all'], commandIo, testOperatorActor)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/takes no arguments\nUsage: npm run ops -- housekeeping/);
  });
});

describe('a housekeeping run that fails part-way (found in review)', () => {
  it('records what it deleted before the failure, naming the operator, and exits 1', async () => {
    await insertCode({ createdAt: ago(30), expiresAt: ago(30) });
    // A later rule's table is unavailable (a failed statement, a lock that ran out...).
    await ctx.db.execute(sql`alter table uid_watches rename to uid_watches_away`);
    const err: string[] = [];
    const out: string[] = [];
    let code: number;
    try {
      code = await runHousekeepingCommand(
        ctx.deps,
        [],
        { out: (line) => out.push(line), err: (line) => err.push(line) },
        testOperatorActor,
      );
    } finally {
      await ctx.db.execute(sql`alter table uid_watches_away rename to uid_watches`);
    }
    expect(code).toBe(1);
    expect(err[0]).toMatch(/^housekeeping failed at uid_watches: /);
    expect(await ctx.db.select().from(verificationCodes)).toHaveLength(0);
    const audit = await listAudit(ctx.db, { action: 'housekeeping.run', page: 1, pageSize: 1 });
    expect(audit.rows[0]).toMatchObject({
      actor: testOperatorActor.label,
      after: { verification_codes: 1, failedAt: 'uid_watches' },
    });
  });
});
