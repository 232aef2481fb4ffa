import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../admin/test-support.js';
import { adminCall, newOperator } from '../admin/test-support.js';
import { mailsTo } from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';

/**
 * An instance whose clock is off the database's (docs/operations.md, "Clock skew"): seen in /healthz,
 * logged as an error and alerted to the operators above ALERT_CLOCK_SKEW_MS (2 s), not below. The
 * test app's clock is set by hand, so "5 s ahead" is the database's time now plus 5 s.
 */
let ctx: CashbackTestContext;
let operator: Caller;
/** Has the ledger check's alert off and the clock's on; and one with the clock's off. */
let ledgerOff: Caller;
let clockOff: Caller;

/** Sets the instance's clock `offsetMs` off the real time (the database's) and takes one reading. */
async function measureAt(offsetMs: number) {
  ctx.clock.set(new Date(Date.now() + offsetMs));
  return ctx.app.clockSkew.measure();
}

async function healthClock() {
  const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.status).toBe('ok');
  return body.clock;
}

const skewMails = async (to: Caller = operator) =>
  (await mailsTo(ctx, to.email)).filter((mail) => mail.template === 'alertClockSkew');

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  operator = await newOperator(ctx);
  ledgerOff = await newOperator(ctx);
  clockOff = await newOperator(ctx);
  // The clock's alert has its own switch, apart from the ledger check's (saved before the tests set
  // the clock to the real time, past the sessions' life).
  const saved = await adminCall(ctx, ledgerOff, 'saveAlertPreferences', {
    ledgerBroken: false,
    clockSkew: true,
  });
  expect(saved).toMatchObject({ state: 0, content: { ledgerBroken: false, clockSkew: true } });
  expect(await adminCall(ctx, clockOff, 'saveAlertPreferences', { clockSkew: false })).toMatchObject({
    state: 0,
    content: { ledgerBroken: true, clockSkew: false },
  });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('clock skew between an instance and the database', () => {
  it('0.5 s off: reported in /healthz, within bounds, no error and no alert', async () => {
    const errors = vi.spyOn(ctx.app.log, 'error');
    await measureAt(500);
    const clock = await healthClock();
    expect(clock.skewed).toBe(false);
    expect(clock.thresholdMs).toBe(2_000);
    // The reading is exact to half a round trip (a local database: a few ms).
    expect(clock.skewMs).toBeGreaterThan(300);
    expect(clock.skewMs).toBeLessThanOrEqual(500);
    expect(errors).not.toHaveBeenCalled();
    expect(await skewMails()).toEqual([]);
    errors.mockRestore();
  });

  it('5 s ahead: /healthz flags it (still 200), an error is logged, the operators are alerted once a day', async () => {
    const errors = vi.spyOn(ctx.app.log, 'error');
    await measureAt(5_000);
    const clock = await healthClock();
    expect(clock.skewed).toBe(true);
    expect(clock.skewMs).toBeGreaterThan(4_800);
    expect(clock.skewMs).toBeLessThanOrEqual(5_000);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[1])).toMatch(/ms ahead of the database's/);
    const mails = await skewMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/is 5\.0 s ahead of the database$|is 4\.\d s ahead of the database$/);
    expect(await skewMails(ledgerOff)).toHaveLength(1);
    expect(await skewMails(clockOff)).toEqual([]);

    // Still off a minute later: logged again, not mailed again the same day.
    await measureAt(5_000);
    expect(errors).toHaveBeenCalledTimes(2);
    expect(await skewMails()).toHaveLength(1);
    errors.mockRestore();
  });

  it('behind counts too, and a clock put right is reported so', async () => {
    expect((await measureAt(-5_000)).skewMs).toBeLessThan(-4_900);
    expect((await healthClock()).skewed).toBe(true);
    await measureAt(0);
    const clock = await healthClock();
    expect(clock.skewed).toBe(false);
    expect(Math.abs(clock.skewMs)).toBeLessThan(200);
  });

  it('started, it measures at once and then on its interval; stopped, no more', async () => {
    ctx.app.clockSkew.latest = null;
    ctx.clock.set(new Date(Date.now() + 5_000));
    const measure = vi.spyOn(ctx.app.clockSkew, 'measure');
    ctx.app.clockSkew.start(20);
    await vi.waitFor(() => expect(measure.mock.calls.length).toBeGreaterThanOrEqual(2));
    await ctx.app.clockSkew.stop();
    const calls = measure.mock.calls.length;
    expect((await healthClock()).skewed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(measure.mock.calls.length).toBe(calls);
    measure.mockRestore();
  });
});
