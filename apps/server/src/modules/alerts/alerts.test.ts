import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { mailsTo } from '../auth/test-support.js';
import { ledgerCheck } from '../cashback/cashback.commands.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { accountCode, postJournal } from '../ledger/ledger.service.js';
import { drainOutbox } from '../mail/outbox.js';
import { applyDeposit, fundedMember, ownCode, type TestMember } from '../withdrawals/test-support.js';
import { alertAfterSyncRun, runDailyAlerts } from './alerts.service.js';

/**
 * Operators' alerts (docs/operations.md, "Alerts"): mail per operator with the alert on, in their
 * language, through the outbox; and the same alert as JSON to ALERT_WEBHOOK_URL (a local server here).
 */
let ctx: CashbackTestContext;
let webhook: http.Server;
const received: Array<Record<string, unknown>> = [];
let english: Caller;
let chinese: Caller;
let funded: TestMember;

async function outboxCount(template: string): Promise<number> {
  const [row] = rowsOf<{ n: string }>(
    await ctx.db.execute(sql`select count(*) as n from mail_outbox where template = ${template}`),
  );
  return Number(row?.n);
}

/** Sends the outbox (webhook rows included) and answers what the webhook received meanwhile. */
async function webhookCalls(alert: string) {
  await drainOutbox(ctx.app.deps);
  return received.filter((body) => body.alert === alert);
}

let runs = 0;
async function syncRun(status: 'failed' | 'succeeded' | 'skipped') {
  runs += 1;
  const at = new Date(Date.UTC(2026, 4, 1, 0, runs));
  await ctx.db.execute(sql`
    insert into sync_runs (plat_id, exchange, trigger, status, window_start, window_end, error, instance,
                           started_at, finished_at)
    values (${BITGET}, 'bitget', 'job', ${status}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz,
            ${status === 'failed' ? `HTTP 503 (run ${runs})` : null}, 'test', ${at.toISOString()}::timestamptz,
            ${at.toISOString()}::timestamptz)`);
  return alertAfterSyncRun(ctx.deps, { platId: BITGET, exchange: 'Bitget', status });
}

beforeAll(async () => {
  webhook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ ...JSON.parse(body), contentType: req.headers['content-type'] });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  const port = (webhook.address() as AddressInfo).port;
  ctx = await createCashbackTestApp({
    alerts: { webhookUrl: `http://127.0.0.1:${port}/hook`, syncFailures: 3, clockSkewMs: 2_000 },
  });
  ctx.clock.set(new Date('2026-05-01T09:00:00Z'));
  english = await newOperator(ctx);
  chinese = await newOperator(ctx);
  await ctx.db.execute(sql`update users set locale = 'zh' where id = ${chinese.userId}`);
  funded = await fundedMember(ctx, { cashback: '200' });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await new Promise((resolve) => webhook.close(resolve));
});

describe('alert preferences', () => {
  it('are all on for a new operator, and an operator turns their own off, audited', async () => {
    expect((await adminCall(ctx, chinese, 'alertPreferences')).content).toEqual({
      withdrawalRequested: true,
      syncFailing: true,
      ledgerBroken: true,
      clockSkew: true,
      dailySummary: true,
      payoutWalletShort: true,
      payoutStuck: true,
    });
    const saved = await adminCall(ctx, chinese, 'saveAlertPreferences', { withdrawalRequested: false }, 'zh');
    expect(saved).toMatchObject({
      state: 0,
      message: '保存成功',
      content: {
        withdrawalRequested: false,
        syncFailing: true,
        ledgerBroken: true,
        clockSkew: true,
        dailySummary: true,
        payoutWalletShort: true,
        payoutStuck: true,
      },
    });
    expect((await adminCall(ctx, chinese, 'alertPreferences')).content.withdrawalRequested).toBe(false);
    expect((await adminCall(ctx, english, 'alertPreferences')).content.withdrawalRequested).toBe(true);
    const [entry] = rowsOf<{ actor: string; target: string; after: { withdrawalRequested: boolean } }>(
      await ctx.db.execute(sql`select actor, target, after from audit_log where action = 'alerts.update'`),
    );
    expect(entry).toMatchObject({
      actor: chinese.email,
      target: `user:${chinese.userId}`,
      after: { withdrawalRequested: false },
    });
    const wrong = await adminCall(ctx, chinese, 'saveAlertPreferences', { dailySummary: 'yes' });
    expect(wrong).toMatchObject({ state: 1001, message: 'dailySummary: invalid value' });
  });
});

describe('a new withdrawal request', () => {
  it('mails each operator who has the alert on, not one who turned it off, and posts the webhook', async () => {
    const answer = await applyDeposit(ctx, funded, { amount: '60', authCode: await ownCode(ctx, funded) });
    expect(answer.state).toBe(0);
    const alerts = (await mailsTo(ctx, english.email)).filter(
      (mail) => mail.template === 'alertWithdrawalRequested',
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.subject).toBe('New withdrawal request: 60.00 USDT (Bitget)');
    expect(alerts[0]?.text).toContain(`From: Bitget UID ${funded.uid}`);
    expect(alerts[0]?.text).toContain('/admin/withdrawals');
    expect(
      (await mailsTo(ctx, chinese.email)).filter((mail) => mail.template === 'alertWithdrawalRequested'),
    ).toEqual([]);
    expect(await outboxCount('alertWithdrawalRequested')).toBe(1);
    const [posted] = await webhookCalls('withdrawalRequested');
    expect(posted).toMatchObject({
      alert: 'withdrawalRequested',
      contentType: 'application/json',
      text: 'New withdrawal request: 60.00 USDT (Bitget)',
      details: {
        withdrawalId: Number(answer.content?.id),
        memberId: funded.userId,
        amount: '60.00',
        uid: funded.uid,
      },
    });
  });
});

describe('a failing sync', () => {
  it('alerts once when it has failed N times in a row, and again only after it recovered', async () => {
    expect(await syncRun('failed')).toBe(false);
    expect(await syncRun('skipped')).toBe(false);
    expect(await syncRun('failed')).toBe(false);
    expect(await outboxCount('alertSyncFailing')).toBe(0);
    expect(await syncRun('failed')).toBe(true);
    // Both operators have it on: one mail each, the Chinese one in Chinese.
    expect(await outboxCount('alertSyncFailing')).toBe(2);
    const [zh] = (await mailsTo(ctx, chinese.email)).filter((mail) => mail.template === 'alertSyncFailing');
    expect(zh?.subject).toBe('Bitget 同步已连续失败 3 次');
    expect(zh?.text).toContain('最近的错误：HTTP 503 (run 4)');
    expect(await syncRun('failed')).toBe(false);
    expect(await syncRun('failed')).toBe(false);
    expect(await outboxCount('alertSyncFailing')).toBe(2);
    expect(await webhookCalls('syncFailing')).toHaveLength(1);

    expect(await syncRun('succeeded')).toBe(false);
    expect(await syncRun('failed')).toBe(false);
    expect(await syncRun('failed')).toBe(false);
    expect(await syncRun('failed')).toBe(true);
    expect(await outboxCount('alertSyncFailing')).toBe(4);
    expect(await webhookCalls('syncFailing')).toHaveLength(2);
  });
});

describe('the daily summary', () => {
  it('sums up yesterday for every operator, once however often the daily run comes', async () => {
    ctx.clock.set(new Date('2026-05-02T00:30:00Z'));
    const result = await runDailyAlerts(ctx.deps);
    expect(result).toEqual({ ledgerProblems: 0, summaryDay: '2026-05-01' });
    const [summary] = (await mailsTo(ctx, english.email)).filter(
      (mail) => mail.template === 'alertDailySummary',
    );
    expect(summary?.subject).toBe('Elex Cashback daily summary for 2026-05-01');
    // The two operators, the funded member and the one who confirmed their UID registered that day; the
    // cashback's rebate arrived too.
    expect(summary?.text).toContain(
      [
        'New members: 4',
        'Withdrawals requested: 1 (60.000000 USDT)',
        'Withdrawals paid: 0 (0.000000 USDT)',
        'Commission imported: 200.000000 USDT',
        'Waiting for a decision now: 1 (60.000000 USDT)',
      ].join('\n'),
    );
    expect(summary?.text).toContain('Bitget: last run failed, last success');
    const [zh] = (await mailsTo(ctx, chinese.email)).filter((mail) => mail.template === 'alertDailySummary');
    expect(zh?.text).toContain('新会员：4');
    expect(await runDailyAlerts(ctx.deps)).toEqual({ ledgerProblems: 0, summaryDay: null });
    expect(await outboxCount('alertDailySummary')).toBe(2);
    const [posted] = await webhookCalls('dailySummary');
    expect(posted).toMatchObject({
      details: { day: '2026-05-01', newMembers: 4, commissionImported: '200.000000' },
    });
  });
});

describe('a broken ledger', () => {
  it('alerts from the daily check once a day, and from ledger:check at the command line', async () => {
    await ctx.db.transaction((tx) =>
      postJournal(tx, {
        kind: 'rebate',
        key: 'rebate:999999',
        at: ctx.clock.now(),
        lines: [
          { account: accountCode.commission(BITGET), amount: -5_000_000n },
          { account: accountCode.cashback(BITGET, funded.uid), amount: 5_000_000n },
        ],
      }),
    );
    const result = await runDailyAlerts(ctx.deps);
    expect(result.ledgerProblems).toBeGreaterThan(0);
    expect(await outboxCount('alertLedgerBroken')).toBe(2);
    const [mail] = (await mailsTo(ctx, english.email)).filter(
      (item) => item.template === 'alertLedgerBroken',
    );
    expect(mail?.subject).toMatch(/^Ledger check failed: \d+ invariant\(s\) broken$/);
    expect(mail?.text).toContain('The daily ledger check found broken invariants');
    expect(mail?.text).toContain('rebate:999999');
    // The same day again: the operators already know.
    await runDailyAlerts(ctx.deps);
    expect(await outboxCount('alertLedgerBroken')).toBe(2);

    const err: string[] = [];
    const code = await ledgerCheck.run(ctx.deps, [], { out: () => {}, err: (line) => err.push(line) });
    expect(code).toBe(1);
    expect(err.at(-1)).toBe('The operators with the ledger alert on have been alerted.');
    expect(await outboxCount('alertLedgerBroken')).toBe(4);
    const posted = await webhookCalls('ledgerBroken');
    expect(posted.map((body) => (body.details as { source: string }).source)).toEqual(['daily', 'cli']);
  });
});
