import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpsCommand } from '../../ops/command.js';
import { runCommandAs, testOperatorActor } from '../../test/ops-command.js';
import { listAudit } from '../admin/audit.service.js';
import { rebatesImport, referralsImport } from '../admin/imports.commands.js';
import { listImportRuns } from '../admin/imports.service.js';
import { call, logIn } from '../auth/test-support.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { demoSeed, keptRebuild, ledgerCheck, rebatesSettle } from './cashback.commands.js';
import { rowsOf } from './cashback.repository.js';
import { DEMO } from './demo-seed.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp, nextUid } from './test-support.js';

let ctx: CashbackTestContext;
let dir: string;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-csv-'));
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let fileCounter = 0;
function csv(lines: readonly string[]): string {
  fileCounter += 1;
  const file = path.join(dir, `file-${fileCounter}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function run(command: OpsCommand, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommandAs(command, ctx.deps, args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n'), errLines: err };
}

async function count(table: 'rebates' | 'referrals', uids: readonly string[]): Promise<number> {
  const [row] = rowsOf<{ n: string }>(
    await ctx.db.execute(
      sql`select count(*) as n from ${sql.identifier(table)} where uid in (${sql.join(
        uids.map((uid) => sql`${uid}`),
        sql`, `,
      )})`,
    ),
  );
  return Number(row?.n);
}

const REBATE_HEADER = 'uid,period_start,period_end,trading_volume,fee,commission';

describe('referrals:import and rebates:import', () => {
  it('imports a roster and figures, settles, and imports the same file again as duplicates', async () => {
    ctx.clock.set(new Date('2026-05-10T12:00:00Z'));
    const [a, b] = [nextUid('C'), nextUid('C')] as [string, string];
    const roster = csv(['uid,registered_at', `${a},2025-01-01T08:00:00Z`, `${b},2025-02-01`]);
    const first = await run(referralsImport, ['bitget', roster]);
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toContain('2 row(s), 2 new, 0 already known');

    const figures = csv([
      REBATE_HEADER,
      `${a},2026-05-01T00:00:00Z,2026-05-02T00:00:00Z,1000,10,100`,
      `${a},2026-05-02T08:00:00+08:00,2026-05-02T16:00:00Z,1000.5,0.000001,100`,
      `"${b}",2026-05-01,2026-05-02,0,20.123457,3`,
    ]);
    const imported = await run(rebatesImport, [String(BITGET), figures]);
    expect(imported).toMatchObject({ code: 0, err: '' });
    expect(imported.out).toContain(`Importing 3 rebate row(s) for Bitget (platId ${BITGET})`);
    expect(imported.out).toContain('3 row(s), 3 new, 0 already imported; settled 3: 3 completed');
    // 10 x 50 % = 5 and 0.000001 x 50 % = 0.0000005 -> 0; 20.123457 x 50 % = 10.06... capped at 3
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, a))).toBe(5_000_000n);
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, b))).toBe(3_000_000n);

    const again = await run(rebatesImport, ['BG', figures]);
    expect(again.out).toContain('3 row(s), 0 new, 3 already imported; settled 0');
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, a))).toBe(5_000_000n);

    // Each run is in the console's import history, as run from the command line.
    const history = await listImportRuns(ctx.deps, { page: 1, pageSize: 3 });
    expect(
      history.rows.map((row) => [row.kind, row.fileName, row.status, row.rows, row.inserted, row.duplicates]),
    ).toEqual([
      ['rebates', path.basename(figures), 'succeeded', 3, 0, 3],
      ['rebates', path.basename(figures), 'succeeded', 3, 3, 0],
      ['referrals', path.basename(roster), 'succeeded', 2, 2, 0],
    ]);
    for (const row of history.rows) expect(row.operator).toBe(testOperatorActor.label);
    expect(again.out).toContain(`Recorded as import #${history.rows[0]?.id}.`);
  });

  it('lists every bad line of a figures file with its field and reason, and imports nothing', async () => {
    ctx.clock.set(new Date('2026-05-10T12:00:00Z'));
    const uid = nextUid('BAD');
    const good = `${uid},2026-05-01T00:00:00Z,2026-05-02T00:00:00Z,1000,10,100`;
    const file = csv([
      REBATE_HEADER,
      good, // 2
      `${uid},2026-05-03,2026-05-03,1000,10,100`, // 3 period_end = period_start
      `${uid},2026-05-04T00:00:00,2026-05-05T00:00:00Z,1000,10,100`, // 4 no zone
      `${uid},yesterday,2026-05-05T00:00:00Z,1000,10,100`, // 5 not ISO
      `${uid},2026-02-30,2026-03-01,1000,10,100`, // 6 not a real date
      `${uid},2026-05-05,2026-05-06,1000,1.1234567,100`, // 7 seven decimals
      `${uid},2026-05-06,2026-05-07,1000,10,-5`, // 8 negative
      `bad uid!,2026-05-07,2026-05-08,1000,10,100`, // 9 UID format
      good, // 10 duplicate of 2
      `${uid},2021-05-01,2021-05-02,1000,10,100`, // 11 older than 5 years
      `${uid},2026-05-10,2026-05-11,1000,10,100`, // 12 not ended
      `${uid},2026-05-01T12:00:00Z,2026-05-02T12:00:00Z,1000,10,100`, // 13 overlaps line 2
      `${uid},2026-05-08,2026-05-09,1000,10`, // 14 field count
      `${uid},2026-05-09,2026-05-10,abc,,100`, // 15 two bad amounts
    ]);
    const result = await run(rebatesImport, ['bitget', file]);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.errLines[0]).toBe(`${file}: 13 bad line(s), 14 problem(s); nothing was imported.`);
    const reported = result.errLines.slice(1).map((line) => line.trim());
    expect(reported).toEqual([
      'line 3, period_end: not after period_start',
      'line 4, period_start: the time needs its zone, Z or +hh:mm ("2026-05-04T00:00:00")',
      'line 5, period_start: not an ISO 8601 time such as 2026-01-31T00:00:00Z ("yesterday")',
      'line 6, period_start: not a real date or time ("2026-02-30")',
      'line 7, fee: more than 6 decimals ("1.1234567")',
      'line 8, commission: negative ("-5")',
      'line 9, uid: not a UID (4 to 32 letters, digits, - or _) ("bad uid!")',
      'line 10, row: duplicate row: the same UID and period are on line 2',
      'line 11, period_start: more than 5 years ago: refused',
      'line 12, period_end: in the future (the period has not ended)',
      'line 13, period_start: the period overlaps the one on line 2 for the same UID',
      'line 14, row: expected 6 fields, found 5',
      'line 15, trading_volume: not a decimal number ("abc")',
      'line 15, fee: required',
    ]);
    expect(await count('rebates', [uid])).toBe(0);
  });

  it('refuses a file with an unknown or missing column before reading its rows', async () => {
    const unknown = await run(rebatesImport, [
      'bitget',
      csv(['uid,period_start,period_end,volume,fee,commission', 'X1234,2026-05-01,2026-05-02,1,1,1']),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('line 1, volume: unknown column');
    expect(unknown.err).toContain('line 1, trading_volume: missing column');
    const empty = await run(referralsImport, ['bitget', csv([])]);
    expect(empty).toMatchObject({ code: 1 });
    expect(empty.err).toContain('empty file');
  });

  it('refuses a roster file with a future registration, a duplicate UID or a bad UID', async () => {
    ctx.clock.set(new Date('2026-05-10T12:00:00Z'));
    const uid = nextUid('R');
    const result = await run(referralsImport, [
      'bitget',
      csv([
        'UID,Registered_At',
        `${uid},2026-05-01T00:00:00Z`,
        `${uid},2026-05-02T00:00:00Z`,
        'x,2026-05-01',
        `${nextUid('R')},2026-05-10T12:00:01Z`,
      ]),
    ]);
    expect(result.code).toBe(1);
    expect(result.errLines.slice(1).map((line) => line.trim())).toEqual([
      'line 3, uid: duplicate row: the UID is already on line 2',
      'line 4, uid: not a UID (4 to 32 letters, digits, - or _) ("x")',
      'line 5, registered_at: in the future',
    ]);
    expect(await count('referrals', [uid])).toBe(0);
  });

  it('refuses a figures file that overlaps periods imported before, naming the line', async () => {
    ctx.clock.set(new Date('2026-05-10T12:00:00Z'));
    const uid = nextUid('O');
    expect(
      (await run(rebatesImport, ['bitget', csv([REBATE_HEADER, `${uid},2026-05-01,2026-05-02,1,1,1`])])).code,
    ).toBe(0);
    const result = await run(rebatesImport, [
      'bitget',
      csv([
        REBATE_HEADER,
        `${uid},2026-05-03,2026-05-04,1,1,1`,
        `${uid},2026-05-01T06:00:00Z,2026-05-01T12:00:00Z,1,1,1`,
      ]),
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      'line 3, period_start: overlaps the imported period 2026-05-01T00:00:00.000Z',
    );
    expect(await count('rebates', [uid])).toBe(1);
  });

  it('explains an unknown exchange, a missing file and a wrong call', async () => {
    expect(await run(rebatesImport, ['nowhere', csv([REBATE_HEADER])])).toMatchObject({
      code: 1,
      err: 'Unknown exchange "nowhere": give its platId, name or abbreviation (see the catalog).',
    });
    expect((await run(rebatesImport, ['bitget', path.join(dir, 'missing.csv')])).err).toContain(
      'No such file',
    );
    expect(await run(rebatesImport, ['bitget'])).toMatchObject({ code: 2 });
  });
});

describe('what a refused file prints and keeps (issue 13)', () => {
  it('quotes at most 64 characters of a huge cell, prints the first 100 problems, and stores it short', async () => {
    const huge = `9${'9'.repeat(2_000_000)}`;
    const lines = [REBATE_HEADER, `HUGE0001,2026-01-01,2026-01-02,${huge},1,1`];
    for (let n = 0; n < 150; n += 1) lines.push(`BAD${n}X,not-a-time,2026-01-02,1,1,1`);
    const result = await run(rebatesImport, ['bitget', csv(lines)]);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`"${'9'.repeat(64)}…" (2000001 characters)`);
    expect(result.err).toContain('… and 51 more problem(s).');
    expect(result.err.length).toBeLessThan(20_000);
    const [stored] = (await listImportRuns(ctx.deps, { page: 1, pageSize: 1 })).rows;
    expect(stored?.status).toBe('rejected');
    expect(JSON.stringify(stored).length).toBeLessThan(100_000);
  });

  it('lists a NUL byte in a UID as a bad line instead of crashing on the database', async () => {
    const result = await run(referralsImport, [
      'bitget',
      csv(['uid,registered_at', 'AB\u0000CD12,2025-01-01']),
    ]);
    expect(result).toMatchObject({ code: 1 });
    expect(result.err).toContain('line 2, uid:');
    expect(result.err).toContain('"AB\\u0000CD12"');
  });
});

describe('rebates:settle', () => {
  it('settles what became due and says what it did', async () => {
    ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
    const uid = nextUid('S');
    await run(referralsImport, ['bitget', csv(['uid,registered_at', `${uid},2025-01-01`])]);
    await run(rebatesImport, ['bitget', csv([REBATE_HEADER, `${uid},2026-05-31,2026-06-01,1,4,4`])]);
    ctx.clock.set(new Date('2026-06-02T00:00:00Z'));
    const result = await run(rebatesSettle, []);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Bitget: settled 1: 1 completed (2.000000 USDT cashback');
    expect(result.out).toMatch(/Settlement done: settled \d+/);
    expect((await run(rebatesSettle, ['nowhere'])).code).toBe(1);

    // The money it moved is in the operators' audit log, as the command line's user.
    const entries = async () =>
      (await listAudit(ctx.db, { target: `settlement:${BITGET}`, page: 1, pageSize: 10 })).rows;
    const [entry] = await entries();
    expect(entry).toMatchObject({
      action: 'rebates.settle',
      actor: testOperatorActor.label,
      after: { platId: BITGET, exchange: 'Bitget', completed: 1, failed: 0, cashbackCredited: '2.000000' },
    });
    // Nothing due now: nothing moved, nothing recorded.
    expect((await run(rebatesSettle, ['bitget'])).code).toBe(0);
    expect(await entries()).toHaveLength(1);
  });
});

describe('demo:seed', () => {
  it('fills the demo member’s pages once, however often it runs', async () => {
    ctx.clock.set(new Date('2026-08-15T09:00:00Z'));
    const first = await run(demoSeed, []);
    expect(first.code).toBe(0);
    expect(first.out).toContain(`member:   ${DEMO.email}  password: ${DEMO.password}`);
    expect(first.out).toMatch(
      /2 member\(s\) created, 4 binding\(s\) made, (\d+) daily rebate row\(s\) imported, \1 new/,
    );
    const second = await run(demoSeed, []);
    expect(second.out).toMatch(
      /0 member\(s\) created, 0 binding\(s\) made, \d+ daily rebate row\(s\) imported, 0 new/,
    );

    const token = await logIn(ctx, DEMO.email, DEMO.password);
    const info = (await call(ctx, '/elex/user/myInfo', {}, { token })).json().content;
    expect(info.exchangeBinds).toHaveLength(3);
    expect(Number(info.totalRebate)).toBeGreaterThan(1000);
    expect(Number(info.totalReward)).toBeGreaterThan(0);
    const [bind] = info.exchangeBinds;
    const detail = (
      await call(ctx, '/elex/user/seeRebateByExchangeId', { platId: bind.platId, uid: bind.uid }, { token })
    ).json().content;
    expect(detail.daily.length).toBeGreaterThanOrEqual(85);
    expect(Number(detail.pendingRebate)).toBeGreaterThan(0);
    const rewards = (await call(ctx, '/elex/user/seeRewardData', {}, { token })).json().content;
    expect(rewards.total).toBeGreaterThan(50);
    expect(rewards.records[0].source).toBe('de***@elex.local');
    expect((await run(ledgerCheck, [])).code).toBe(0);
    // The demo seed run more than once: 10 s alone, over 30 s beside another test file on a busy core.
  }, 90_000);

  it('refuses to run in production', async () => {
    const production = { ...ctx.deps, config: { ...ctx.deps.config, env: 'production' as const } };
    const err: string[] = [];
    const code = await demoSeed.run(production, [], { out: () => {}, err: (line) => err.push(line) });
    expect(code).toBe(1);
    expect(err[0]).toContain('refuses to run with NODE_ENV=production');
  });
});

describe('ledger:check', () => {
  it('passes on a sound ledger and fails, listing the broken invariant, on a tampered one', async () => {
    const sound = await run(ledgerCheck, []);
    expect(sound).toMatchObject({ code: 0, err: '' });
    expect(sound.out).toMatch(
      /^Ledger OK: every invariant holds \(\d+ accounts, \d+ journals, \d+ lines\)\.$/,
    );

    // A completed record that no journal credited: the database itself refuses it.
    const tamper = (journal: SQL) =>
      ctx.db.execute(sql`insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro,
      fee_micro, commission_micro, status, cash_rate_bps, amount_micro, source, source_label, created_at, settled_at,
      journal_id)
      values (${BITGET}, 'TAMPER01', '2026-01-01', '2026-01-02', 1, 10000000, 10000000, 'completed', 5000, 5000000,
        'csv', 'tamper', now(), now(), ${journal})`);
    const refused = (await tamper(sql`null`).catch((error: Error) => error)) as Error & { cause?: Error };
    expect(`${refused.message} ${refused.cause?.message}`).toMatch(/rebates_journal_check/);
    // What it cannot see: a record claiming another UID's journal, whose sum it does not match.
    await tamper(sql`(select journal_id from rebates where journal_id is not null order by id limit 1)`);
    const broken = await run(ledgerCheck, []);
    expect(broken.code).toBe(1);
    expect(broken.errLines[0]).toBe('Ledger check failed: 2 invariant(s) broken.');
    expect(broken.err).toContain(
      'each completed rebate with cashback is credited by a rebate journal of its UID',
    );
    expect(broken.err).toContain('a completed rebate belongs to a UID in the roster');
  });
});

describe('kept:rebuild', () => {
  // The kept tables ledger:check finds off (an earlier test here breaks other invariants on purpose).
  const keptProblems = async () =>
    (await checkAllInvariants(ctx.db))
      .map(
        (problem) =>
          /\((rebate_uid_totals|rebate_uid_days|invite_bonus_totals|invite_bonus_binding_totals|event_reward_counts|ledger_day_sums|cashback_credit_days)\)/.exec(
            problem.invariant,
          )?.[1],
      )
      .filter(Boolean);

  it('computes the kept figures again, says what was off, and ledger:check holds after it', async () => {
    // Sound figures first: nothing to change (the demo seed above left records, days, bonuses and counts).
    expect(await keptProblems()).toEqual([]);
    const sound = await run(keptRebuild, []);
    expect(sound.code).toBe(0);
    expect(sound.out).toContain('Kept figures rebuilt: nothing was off.');
    expect(sound.out).toMatch(/invite_bonus_totals: [1-9]\d* rows; 0 taken out, 0 put in/);

    // One figure off in each table, as a hand edit or a missed row would leave them.
    await ctx.db.execute(sql`update rebate_uid_totals set records = records + 1
      where (plat_id, uid, status) in (select plat_id, uid, status from rebate_uid_totals where records > 0 limit 1)`);
    await ctx.db.execute(sql`update rebate_uid_days set amount_micro = amount_micro + 1
      where (plat_id, uid, day) in (select plat_id, uid, day from rebate_uid_days limit 1)`);
    await ctx.db.execute(sql`delete from invite_bonus_totals
      where (inviter_id, friend_id) in (select inviter_id, friend_id from invite_bonus_totals limit 1)`);
    await ctx.db.execute(sql`update invite_bonus_binding_totals set held_micro = held_micro + 1
      where (binding_id, inviter_id) in (select binding_id, inviter_id from invite_bonus_binding_totals limit 1)`);
    await ctx.db.execute(sql`update event_reward_counts set rewards = rewards + 5
      where user_id in (select user_id from event_reward_counts limit 1)`);
    await ctx.db.execute(sql`delete from ledger_day_sums
      where id in (select id from ledger_day_sums where journal_kind = 'rebate' order by id limit 1)`);
    await ctx.db.execute(sql`update cashback_credit_days set amount = amount + 1
      where id in (select id from cashback_credit_days order by id limit 1)`);
    expect(await keptProblems()).toEqual([
      'ledger_day_sums',
      'cashback_credit_days',
      'rebate_uid_totals',
      'rebate_uid_days',
      'invite_bonus_totals',
      'invite_bonus_binding_totals',
      'event_reward_counts',
    ]);

    const repaired = await run(keptRebuild, []);
    expect(repaired.code).toBe(0);
    expect(repaired.out).toMatch(/rebate_uid_totals: \d+ rows; 1 taken out, 1 put in/);
    expect(repaired.out).toMatch(/rebate_uid_days: \d+ rows; 1 taken out, 1 put in/);
    expect(repaired.out).toMatch(/invite_bonus_totals: \d+ rows; 0 taken out, 1 put in/);
    expect(repaired.out).toMatch(/invite_bonus_binding_totals: [1-9]\d* rows; 1 taken out, 1 put in/);
    expect(repaired.out).toMatch(/event_reward_counts: \d+ rows; 1 taken out, 1 put in/);
    // The seed posts a day's rebates in one statement: the deleted row was its day's only one, put back.
    expect(repaired.out).toMatch(/ledger_day_sums: [1-9]\d* rows; 0 taken out, 1 put in/);
    expect(repaired.out).toMatch(/cashback_credit_days: [1-9]\d* rows; 1 taken out, 1 put in/);
    expect(repaired.out).toContain('run ledger:check to confirm');
    expect(await keptProblems()).toEqual([]);

    const [entry] = (await listAudit(ctx.db, { target: 'kept-figures', page: 1, pageSize: 10 })).rows;
    expect(entry).toMatchObject({
      action: 'kept.rebuild',
      actor: testOperatorActor.label,
      after: expect.arrayContaining([
        expect.objectContaining({ table: 'invite_bonus_totals', removed: 0, added: 1 }),
      ]),
    });
    const [days] = (await listAudit(ctx.db, { target: 'ledger-day-sums', page: 1, pageSize: 10 })).rows;
    expect(days).toMatchObject({
      action: 'kept.rebuild',
      actor: testOperatorActor.label,
      after: [
        expect.objectContaining({ table: 'ledger_day_sums', removed: 0, added: 1 }),
        expect.objectContaining({ table: 'cashback_credit_days', removed: 1, added: 1 }),
      ],
    });
  });
});
