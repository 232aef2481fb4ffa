import { State } from '@elex/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeAdapter } from '../../integrations/exchanges/types.js';
import { runCommandAs } from '../../test/ops-command.js';
import { call, mailsTo, nextEmail, signUp } from '../auth/test-support.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { rebatesSettle } from './cashback.commands.js';
import { rebates } from './cashback.tables.js';
import { ingestRebates, ingestReferrals, settleRebates } from './ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from './test-support.js';

/**
 * Issue 11, "late data never loses money": figures that arrive before their roster line, or a roster
 * line that arrives after the 7-day grace, still pay; a UID an exchange fed by CSV or sync does not
 * list yet is told so (with a mail when it appears), never "not referred".
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());
afterEach(() => {
  ctx.deps.exchangeAdapters = undefined;
});

const api = { kind: 'api', label: 'test' } as const;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const END = Date.parse('2026-08-01T00:00:00Z');

const cashback = (uid: string) => balanceOf(ctx.db, accountCode.cashback(BITGET, uid));
const recordsOf = (uid: string) => ctx.db.select().from(rebates).where(eq(rebates.uid, uid));

/** Figures of a UID the roster does not know, left until the grace ran out: failed, 'uidNotReferred'. */
async function refusedAsNotReferred(fee = '8', commission = '9') {
  ctx.clock.set(new Date(END + 2 * DAY_MS));
  const uid = nextUid('LATE');
  await ingestRebates(ctx.deps, BITGET, [figures(uid, new Date(END - DAY_MS), { fee, commission })], api);
  ctx.clock.set(new Date(END + 8 * DAY_MS));
  await settleRebates(ctx.deps, { platId: BITGET });
  expect((await recordsOf(uid))[0]).toMatchObject({ status: 'failed', failureReason: 'uidNotReferred' });
  return uid;
}

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommandAs(rebatesSettle, ctx.deps, args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('records refused as not referred', () => {
  it('settle when the roster line arrives late by import, and the member then sees the cashback', async () => {
    const uid = await refusedAsNotReferred();
    const joined = await ingestReferrals(
      ctx.deps,
      BITGET,
      [{ uid, registeredAt: new Date(END - 400 * DAY_MS) }],
      api,
    );
    // Bitget's basic rate is 50 %: 4 USDT of the 8 USDT fee.
    expect(joined.settlement).toMatchObject({
      completed: 1,
      failed: 0,
      recovered: 1,
      creditedMicro: 4_000_000n,
    });
    expect((await recordsOf(uid))[0]).toMatchObject({ status: 'completed', failureReason: null });
    expect(await cashback(uid)).toBe(4_000_000n);

    const token = await signUp(ctx, nextEmail('late'));
    const bound = await call(
      ctx,
      '/elex/user/bindExchangeUid',
      { platId: BITGET, uid, address: ADDRESS },
      { token },
    );
    expect(await bound.json()).toMatchObject({ state: 0, content: { balance: '4.000000' } });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('settle at once when a live check adds the UID to the roster, so binding shows the money', async () => {
    const uid = await refusedAsNotReferred('10', '10');
    const adapter: ExchangeAdapter = {
      exchange: 'bitget',
      checkReferral: async (asked) =>
        asked === uid ? { uid, registeredAt: new Date(END - 400 * DAY_MS) } : null,
      listReferrals: async function* () {},
      listCommissions: async function* () {},
    };
    ctx.deps.exchangeAdapters = new Map([['bitget', adapter]]);
    const token = await signUp(ctx, nextEmail('live'));
    const bound = await call(
      ctx,
      '/elex/user/bindExchangeUid',
      { platId: BITGET, uid, address: ADDRESS },
      { token },
    );
    expect(await bound.json()).toMatchObject({ state: 0, content: { balance: '5.000000' } });
    expect((await recordsOf(uid))[0]?.status).toBe('completed');
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('never pay twice: a second roster import or settlement after recovery credits nothing', async () => {
    const uid = await refusedAsNotReferred('2', '2');
    await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(END - 400 * DAY_MS) }], api);
    expect(await cashback(uid)).toBe(1_000_000n);
    const again = await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(END) }], api);
    expect(again).toMatchObject({ inserted: 0, settlement: { completed: 0, recovered: 0 } });
    expect((await settleRebates(ctx.deps, { platId: BITGET })).completed).toBe(0);
    expect(await cashback(uid)).toBe(1_000_000n);
  });

  it('are re-settled by an operator for one UID with rebates:settle --uid, and the command says so', async () => {
    const uid = await refusedAsNotReferred('6', '6');
    const other = await refusedAsNotReferred('6', '6');
    // Roster lines written without settling (as a live check does when an import holds the lock).
    for (const each of [uid, other]) {
      await ingestReferrals(
        ctx.deps,
        BITGET,
        [{ uid: each, registeredAt: new Date(END - 400 * DAY_MS) }],
        api,
        {
          settle: false,
        },
      );
    }
    const result = await run(['bitget', '--uid', uid]);
    expect(result).toMatchObject({ code: 0 });
    expect(result.out).toContain('1 of them once refused as not referred, now in the roster');
    expect(await cashback(uid)).toBe(3_000_000n);
    expect(await cashback(other)).toBe(0n);
    // The whole exchange then picks up the other one.
    expect((await run(['bitget'])).out).toContain('Bitget: settled 1: 1 completed (3.000000 USDT cashback');
    expect(await cashback(other)).toBe(3_000_000n);
  });

  it('refuses a --uid without its exchange, a malformed UID and an unknown option, changing nothing', async () => {
    expect(await run(['--uid', 'ABCD1234'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('needs the exchange'),
    });
    expect(await run(['bitget', '--uid', 'a b'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('is not a UID'),
    });
    expect(await run(['bitget', '--everything'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('Usage'),
    });
  });
});

describe('a UID an exchange fed by CSV or sync does not list yet', () => {
  it('hears it can take 48 hours (in its language) and gets one mail when the UID appears', async () => {
    const email = nextEmail('waits');
    const token = await signUp(ctx, email);
    const uid = nextUid('NEW');
    const refused = await call(
      ctx,
      '/elex/user/bindExchangeUid',
      { platId: BITGET, uid, address: ADDRESS },
      { token, lang: 'zh' },
    );
    expect(await refused.json()).toEqual({
      state: State.Refused,
      message:
        '该 UID 尚未出现在交易所的推荐名单中。通过我们的链接注册的账户最多需要 48 小时才会出现，出现后我们会发邮件通知您。',
      content: { messageKey: 'uidNotYetListed' },
    });
    // Asking twice waits once.
    await call(ctx, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }, { token });
    expect((await mailsTo(ctx, email)).filter((mail) => mail.template === 'uidListed')).toEqual([]);

    await ingestReferrals(
      ctx.deps,
      BITGET,
      [{ uid, registeredAt: new Date(ctx.clock.now().getTime() - 1000) }],
      {
        kind: 'csv',
        label: 'roster.csv',
      },
    );
    const listed = (await mailsTo(ctx, email)).filter((mail) => mail.template === 'uidListed');
    expect(listed).toHaveLength(1);
    expect(listed[0]?.text).toContain(`UID ${uid}`);
    expect(listed[0]?.text).toContain(`/uidlinking?platId=${BITGET}&uid=${uid}`);

    // Another import of the same roster does not mail again; the UID binds now.
    await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(END) }], api);
    expect((await mailsTo(ctx, email)).filter((mail) => mail.template === 'uidListed')).toHaveLength(1);
    const bound = await call(
      ctx,
      '/elex/user/bindExchangeUid',
      { platId: BITGET, uid, address: ADDRESS },
      { token },
    );
    expect((await bound.json()).state).toBe(0);
  });
});
