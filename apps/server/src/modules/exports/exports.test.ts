import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditAsHappened } from '../admin/audit.service.js';
import { revokeOperator } from '../admin/operators.service.js';
import { adminCall, type Caller, newMember, newOperator } from '../admin/test-support.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { runHousekeeping } from '../housekeeping/housekeeping.service.js';
import { applyDeposit, fundedMember, ownCode, type TestMember } from '../withdrawals/test-support.js';
import { neutraliseCell } from './csv-writer.js';
import { csvRecords, downloadExport, exportLink, fetchExport } from './test-support.js';

/**
 * The console's CSV exports (docs/operator-console.md, "Exports"): a one-time link made by an
 * operator call, then a streamed download with the file's name, UTF-8 and safe cells.
 */
let ctx: CashbackTestContext;
let operator: Caller;
let early: Caller;
let funded: TestMember;
let withdrawalId: string;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-03-01T10:00:00Z'));
  early = await newMember(ctx, 'early');
  ctx.clock.set(new Date('2026-03-05T10:00:00Z'));
  operator = await newOperator(ctx);
  funded = await fundedMember(ctx, { cashback: '200' });
  const answer = await applyDeposit(ctx, funded, { amount: '60', authCode: await ownCode(ctx, funded) });
  expect(answer.state).toBe(0);
  withdrawalId = answer.content?.id ?? '';
  ctx.clock.set(new Date('2026-03-07T10:00:00Z'));
  await newMember(ctx, 'late');
}, 120_000);
afterAll(() => ctx?.close());

describe('exports/create', () => {
  it('answers a one-minute link and a file name, and the audit log names the operator, kind and range', async () => {
    const answer = await adminCall(ctx, operator, 'exports/create', {
      kind: 'members',
      from: '2026-03-01',
      to: '2026-03-07',
    });
    expect(answer.state).toBe(0);
    expect(answer.content.url).toMatch(/^\/elex\/admin\/exports\/download\/[A-Za-z0-9_-]{43}$/);
    expect(answer.content.fileName).toBe('elex-members-2026-03-01-2026-03-07.csv');
    expect(answer.content.expiresAt).toBe('2026-03-07T10:01:00.000Z');
    const [entry] = rowsOf<{ actor_id: string | number; actor: string; target: string; after: unknown }>(
      await ctx.db.execute(
        sql`select actor_id, actor, target, after from audit_log where action = 'export.create' order by id desc limit 1`,
      ),
    );
    expect(String(entry?.actor_id)).toBe(String(operator.userId));
    expect(entry).toMatchObject({
      actor: operator.email,
      target: 'export:members',
      after: { kind: 'members', from: '2026-03-01', to: '2026-03-07' },
    });
  });

  it('refuses a reversed or malformed range and an unknown kind, in the caller language', async () => {
    const reversed = await adminCall(
      ctx,
      operator,
      'exports/create',
      { kind: 'ledger', from: '2026-03-07', to: '2026-03-01' },
      'zh',
    );
    expect(reversed).toMatchObject({
      state: State.ValidationFailed,
      message: 'to：起始日期晚于结束日期，请对调',
    });
    const malformed = await adminCall(
      ctx,
      operator,
      'exports/create',
      { kind: 'ledger', from: '2026-02-30', to: '2026-03-01' },
      'ko',
    );
    expect(malformed.message).toBe('from: 날짜를 YYYY-MM-DD 형식으로 입력하세요');
    const missing = await adminCall(ctx, operator, 'exports/create', { kind: 'ledger', to: '2026-03-01' });
    expect(missing.message).toBe('from: Enter the first day of the range');
    const kind = await adminCall(ctx, operator, 'exports/create', {
      kind: 'users',
      from: '2026-03-01',
      to: '2026-03-01',
    });
    expect(kind.message).toBe(
      'kind: Choose what to export: withdrawals, members, ledger lines, rebate records or the audit log',
    );
  });

  it('refuses a member and a visitor', async () => {
    const body = { kind: 'members', from: '2026-03-01', to: '2026-03-07' };
    expect((await adminCall(ctx, early, 'exports/create', body)).state).toBe(State.Forbidden);
    expect((await adminCall(ctx, null, 'exports/create', body)).state).toBe(State.SessionExpired);
  });
});

describe('the download', () => {
  it('streams text/csv as an attachment named after the kind and range, once', async () => {
    const url = await exportLink(ctx, operator, 'members', '2026-03-01', '2026-03-01');
    // A link checker's HEAD does not use the link up.
    expect((await ctx.app.inject({ method: 'HEAD', url })).statusCode).not.toBe(200);
    const first = await fetchExport(ctx, url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(first.headers['content-disposition']).toBe(
      'attachment; filename="elex-members-2026-03-01-2026-03-01.csv"',
    );
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['content-length']).toBeUndefined();
    expect(csvRecords(first.body)[0]).toEqual([
      'id',
      'registered_at',
      'email',
      'user_code',
      'invite_code',
      'inviter_id',
      'language',
      'marketing_consent',
      'withdrawals_locked_until',
      'deleted_at',
    ]);
    expect(first.body).toContain('\r\n');

    const again = await fetchExport(ctx, url, 'ko');
    expect(again.statusCode).toBe(410);
    expect(again.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(again.body).toBe(
      '이 다운로드 링크는 만료되었거나 이미 사용되었습니다. 내보내기를 다시 시작하세요',
    );
  });

  it('refuses a link after its minute, an unknown link, and a link whose operator lost the role', async () => {
    const url = await exportLink(ctx, operator, 'members', '2026-03-01', '2026-03-01');
    ctx.clock.advance(61_000);
    const expired = await fetchExport(ctx, url);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toBe('This download link has expired or was already used: start the export again');
    expect((await fetchExport(ctx, `/elex/admin/exports/download/${'x'.repeat(43)}`, 'zh')).body).toBe(
      '此下载链接已过期或已使用，请重新导出',
    );

    const other = await newOperator(ctx);
    const before = await exportLink(ctx, other, 'members', '2026-03-01', '2026-03-01');
    expect(await revokeOperator(ctx.deps, other.email, { userId: null, label: 'cli:test' })).toBe(true);
    expect((await fetchExport(ctx, before)).statusCode).toBe(410);
    ctx.clock.set(new Date('2026-03-07T10:00:00Z'));
  });

  it('exports the members registered in the range, days in UTC and both ends included', async () => {
    const one = await downloadExport(ctx, operator, 'members', '2026-03-01', '2026-03-01');
    expect(one.map((row) => row.email)).toEqual([early.email]);
    expect(one[0]).toMatchObject({
      id: String(early.userId),
      registered_at: '2026-03-01T10:00:00.000Z',
      language: 'en',
    });
    const all = await downloadExport(ctx, operator, 'members', '2026-03-01', '2026-03-07');
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.map((row) => row.registered_at)).toEqual([...all.map((row) => row.registered_at)].sort());
    expect(await downloadExport(ctx, operator, 'members', '2026-03-08', '2026-03-31')).toEqual([]);
  });

  it('exports withdrawals with amounts as 6-decimal strings and the member', async () => {
    const rows = await downloadExport(ctx, operator, 'withdrawals', '2026-03-05', '2026-03-05');
    expect(rows).toEqual([
      expect.objectContaining({
        id: withdrawalId,
        requested_at: expect.stringMatching(/^2026-03-05T10:\d\d:\d\d\.000Z$/),
        member_id: String(funded.userId),
        member_email: funded.email,
        exchange: 'Bitget',
        uid: funded.uid,
        amount_usdt: '60.000000',
        from_cashback_usdt: '60.000000',
        from_rewards_usdt: '0.000000',
        status: 'pending',
        decided_at: '',
      }),
    ]);
    expect(await downloadExport(ctx, operator, 'withdrawals', '2026-03-06', '2026-03-07')).toEqual([]);
  });

  it('exports ledger lines: every journal balances, negative amounts stay numbers', async () => {
    const rows = await downloadExport(ctx, operator, 'ledger', '2026-03-05', '2026-03-05');
    const holdJournal = rows.find((row) => row.account === `hold:${withdrawalId}`)?.journal_id;
    const hold = rows.filter((row) => row.journal_id === holdJournal);
    expect(hold.map((row) => [row.account, row.amount_usdt]).sort()).toEqual([
      [`cashback:${funded.platId}:${funded.uid}`, '-60.000000'],
      [`hold:${withdrawalId}`, '60.000000'],
    ]);
    const sums = new Map<string, bigint>();
    for (const row of rows) {
      const micro = BigInt(row.amount_usdt?.replace('.', '') ?? '0');
      sums.set(row.journal_id ?? '', (sums.get(row.journal_id ?? '') ?? 0n) + micro);
    }
    expect([...sums.values()].every((sum) => sum === 0n)).toBe(true);
    expect(rows.every((row) => row.posted_at?.startsWith('2026-03-05T'))).toBe(true);
  });

  it('exports rebate records by their trading day', async () => {
    const rows = await downloadExport(ctx, operator, 'rebates', '2025-01-01', '2025-12-31');
    const mine = rows.filter((row) => row.uid === funded.uid);
    expect(mine).toEqual([
      expect.objectContaining({
        exchange: 'Bitget',
        commission_usdt: '200.000000',
        cashback_usdt: '200.000000',
        status: 'completed',
        source: 'api',
      }),
    ]);
    const tradingDay = mine[0]?.period_start?.slice(0, 10) as string;
    expect(mine[0]?.period_start).toMatch(/^2025-\d\d-\d\dT\d\d:00:00\.000Z$/);
    // The day the record traded, and only that day, lists it.
    const onTheDay = await downloadExport(ctx, operator, 'rebates', tradingDay, tradingDay);
    expect(onTheDay.filter((row) => row.uid === funded.uid)).toHaveLength(1);
    const dayBefore = new Date(Date.parse(tradingDay) - 86_400_000).toISOString().slice(0, 10);
    const before = await downloadExport(ctx, operator, 'rebates', dayBefore, dayBefore);
    expect(before.filter((row) => row.uid === funded.uid)).toEqual([]);
    expect(await downloadExport(ctx, operator, 'rebates', '2026-01-01', '2026-12-31')).toEqual([]);
  });

  it('exports the audit log, quoting per RFC 4180 and neutralising spreadsheet formulas', async () => {
    ctx.clock.set(new Date('2026-03-09T08:00:00Z'));
    const at = ctx.clock.now();
    const nasty = [
      '=HYPERLINK("http://evil.example","x")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tx',
      'a, "b"\r\nc',
      // Full-width, as East-Asian input types them: some spreadsheets read them as = + - @.
      '＝HYPERLINK("http://evil.example","x")',
    ];
    for (const target of nasty) {
      await recordAuditAsHappened(ctx.db, {
        actor: { userId: null, label: 'cli:test' },
        action: 'sync.run',
        target,
        at,
      });
    }
    const rows = await downloadExport(ctx, operator, 'audit', '2026-03-09', '2026-03-09');
    expect(rows.filter((row) => row.action === 'sync.run').map((row) => row.target)).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\tx",
      'a, "b"\r\nc',
      `'＝HYPERLINK("http://evil.example","x")`,
    ]);
    expect(rows[0]).toMatchObject({ at: '2026-03-09T08:00:00.000Z', actor: 'cli:test', action: 'sync.run' });
    // The export itself is in the log it exports: made the same day, after those entries.
    expect(rows.at(-1)).toMatchObject({
      action: 'export.create',
      target: 'export:audit',
      actor: operator.email,
    });
    ctx.clock.set(new Date('2026-03-07T10:00:00Z'));
  });
});

describe('housekeeping', () => {
  it('deletes export links a day after they expired, used or not', async () => {
    const [links] = rowsOf<{ n: string }>(await ctx.db.execute(sql`select count(*) as n from export_links`));
    expect(Number(links?.n)).toBeGreaterThan(5);
    ctx.clock.set(new Date('2026-03-11T00:00:00Z'));
    const result = await runHousekeeping(ctx.deps);
    expect(result.tables.find((table) => table.table === 'export_links')?.deleted).toBe(Number(links?.n));
    ctx.clock.set(new Date('2026-03-07T10:00:00Z'));
  });
});

describe('neutraliseCell', () => {
  it('leaves numbers and ordinary text alone and marks what a spreadsheet would evaluate', () => {
    expect(['-60.000000', '12', 'Bitget', '', 'a=b'].map(neutraliseCell)).toEqual([
      '-60.000000',
      '12',
      'Bitget',
      '',
      'a=b',
    ]);
    expect(['=1', '+1', '-1+1', '@x', '\t1', '\r1', '-'].map(neutraliseCell)).toEqual([
      "'=1",
      "'+1",
      "'-1+1",
      "'@x",
      "'\t1",
      "'\r1",
      "'-",
    ]);
  });

  it('marks the full-width = + - @ (U+FF1D, U+FF0B, U+FF0D, U+FF20) too', () => {
    expect(['＝1+1', '＋1', '－1+1', '＠SUM(A1)', '－12', 'Ａ＝1'].map(neutraliseCell)).toEqual([
      "'＝1+1",
      "'＋1",
      "'－1+1",
      "'＠SUM(A1)",
      "'－12",
      'Ａ＝1',
    ]);
  });

  it('marks a formula sign after leading spaces, and U+2212 MINUS SIGN, as the web download does', () => {
    expect(
      [' =1+1', '  @SUM(A1)', '\u3000＝1', '\u00a0+1', '−1+1', ' −12', ' a=b', '- '].map(neutraliseCell),
    ).toEqual(["' =1+1", "'  @SUM(A1)", "'\u3000＝1", "'\u00a0+1", "'−1+1", "' −12", ' a=b', "'- "]);
  });
});
