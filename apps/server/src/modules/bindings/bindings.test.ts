import { State } from '@elex/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import type { ExchangeAdapter, ReferralEntry } from '../../integrations/exchanges/types.js';
import { users } from '../auth/auth.tables.js';
import { call, nextEmail, nextIp, signUp } from '../auth/test-support.js';
import { referrals } from '../cashback/cashback.tables.js';
import { ingestRebates, ingestReferrals } from '../cashback/ingest.service.js';
import {
  BINANCE,
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  figures,
  nextUid,
} from '../cashback/test-support.js';
import { findXmeHolder } from './bindings.repository.js';
import { unbindUid, xmeUidOf } from './bindings.service.js';
import { exchangeBindings } from './bindings.tables.js';

let ctx: CashbackTestContext;
let alice: string;
let bob: string;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  alice = await signUp(ctx, nextEmail('alice'));
  bob = await signUp(ctx, nextEmail('bob'));
});
afterAll(() => ctx.close());
afterEach(() => {
  ctx.deps.exchangeAdapters = undefined;
});

// EIP-55's test vector, as a wallet shows it and all lower-case as an exchange often shows it.
const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const LOWERCASE = CHECKSUMMED.toLowerCase();
const api = { kind: 'api', label: 'test' } as const;

async function referred(platId = BITGET) {
  const uid = nextUid('B');
  await ingestReferrals(
    ctx.deps,
    platId,
    [{ uid, registeredAt: new Date(ctx.clock.now().getTime() - 86_400_000) }],
    api,
  );
  return uid;
}

const verify = (body: object, options: { token?: string; ip?: string } = {}) =>
  call(ctx, '/elex/user/verifyExchangeUid', body, options).then((res) => res.json());
const bind = (token: string, body: object, lang?: string) =>
  call(ctx, '/elex/user/bindExchangeUid', body, { token, ...(lang ? { lang } : {}) }).then((res) =>
    res.json(),
  );

describe('verifyExchangeUid (public)', () => {
  it('tells a visitor whether a UID can be bound', async () => {
    const uid = await referred();
    expect(await verify({ platId: BITGET, uid })).toEqual({
      state: 0,
      message: 'OK',
      content: { platId: BITGET, uid, eligibility: 'eligible' },
    });
    // No live check configured: the roster (fed by CSV or sync) may not list a new account yet.
    expect((await verify({ platId: BITGET, uid: 'NOTOURS1' })).content.eligibility).toBe('notYetListed');
    // In the Bitget roster, not Binance's.
    expect((await verify({ platId: String(BINANCE), uid })).content.eligibility).toBe('notYetListed');
  });

  it('says boundToYou to the member who holds it, boundToOther to anyone else', async () => {
    const uid = await referred();
    expect((await bind(alice, { platId: BITGET, uid, address: CHECKSUMMED })).state).toBe(0);
    expect((await verify({ platId: BITGET, uid }, { token: alice })).content.eligibility).toBe('boundToYou');
    expect((await verify({ platId: BITGET, uid }, { token: bob })).content.eligibility).toBe('boundToOther');
    expect((await verify({ platId: BITGET, uid })).content.eligibility).toBe('boundToOther');
    // A stale token on a public call is a visitor, not a logout.
    expect(await verify({ platId: BITGET, uid }, { token: 'expired' })).toMatchObject({
      state: 0,
      content: { eligibility: 'boundToOther' },
    });
  });

  it('answers an unknown exchange with 1004 and a missing UID with the required-information message', async () => {
    expect(await verify({ platId: 999, uid: 'ABCD1234' })).toMatchObject({
      state: State.NotFound,
      message: 'This exchange is not one of our partners',
    });
    expect(await verify({ platId: BITGET, uid: '  ' })).toMatchObject({
      state: State.ValidationFailed,
      message: 'uid: Please enter the required information',
    });
  });

  it('is rate-limited per IP like verifyEmail (20 a minute)', async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i += 1) {
      expect(
        (await call(ctx, '/elex/user/verifyExchangeUid', { platId: BITGET, uid: 'RATE0001' }, { ip }))
          .statusCode,
      ).toBe(200);
    }
    const limited = await call(
      ctx,
      '/elex/user/verifyExchangeUid',
      { platId: BITGET, uid: 'RATE0001' },
      { ip },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ state: State.TooManyRequests });
    expect(
      (await call(ctx, '/elex/user/verifyExchangeUid', { platId: BITGET, uid: 'RATE0001' })).statusCode,
    ).toBe(200);
  });
});

describe('bindExchangeUid', () => {
  it('binds a referred UID with the address checksummed, in the spec words', async () => {
    const uid = await referred();
    const body = await bind(alice, { platId: BITGET, uid, address: LOWERCASE }, 'zh');
    expect(body).toMatchObject({
      state: 0,
      message: '绑定成功',
      content: { platId: BITGET, uid, balance: '0.000000', address: CHECKSUMMED },
    });
    const [row] = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.platId, BITGET), eq(exchangeBindings.uid, uid)));
    expect(row?.address).toBe(CHECKSUMMED);
  });

  it('tells a member whose UID the roster does not list yet that it can take 48 hours, not that it was not referred', async () => {
    expect(await bind(alice, { platId: BITGET, uid: 'NOTOURS2', address: CHECKSUMMED })).toEqual({
      state: State.Refused,
      message:
        "This UID is not in the exchange's list of our referrals yet. An account opened with our link can take up to 48 hours to appear; we will e-mail you when it does.",
      content: { messageKey: 'uidNotYetListed' },
    });
  });

  it('refuses missing fields and a wrong checksum', async () => {
    expect(await bind(alice, { platId: BITGET, address: CHECKSUMMED })).toMatchObject({
      state: State.ValidationFailed,
      message: 'uid: Please enter the required information',
    });
    expect(await bind(alice, { platId: BITGET, uid: 'ABCD1234', address: '' })).toMatchObject({
      message: 'address: Please enter the required information',
    });
    const wrongCase = CHECKSUMMED.replace('aAeb', 'AaEB');
    expect(await bind(alice, { platId: BITGET, uid: 'ABCD1234', address: wrongCase })).toMatchObject({
      state: State.ValidationFailed,
      message: 'address: Invalid wallet address format',
    });
    expect(await bind(alice, { platId: BITGET, uid: 'ABCD1234', address: '0x1234' })).toMatchObject({
      message: 'address: Invalid wallet address format',
    });
  });

  it('gives a UID to one member only, whoever asks again', async () => {
    const uid = await referred();
    expect((await bind(alice, { platId: BITGET, uid, address: CHECKSUMMED })).state).toBe(0);
    for (const token of [alice, bob]) {
      expect(await bind(token, { platId: BITGET, uid, address: CHECKSUMMED })).toEqual({
        state: State.Refused,
        message: 'This account is already bound!',
        content: { messageKey: 'uidAlreadyBound' },
      });
    }
  });

  it('lets exactly one of several members racing for one UID win', async () => {
    const uid = await referred();
    const racers = [alice, bob, await signUp(ctx, nextEmail('carol')), await signUp(ctx, nextEmail('dave'))];
    const answers = await Promise.all(
      racers.map((token) => bind(token, { platId: BITGET, uid, address: CHECKSUMMED })),
    );
    expect(answers.filter((answer) => answer.state === 0)).toHaveLength(1);
    expect(answers.filter((answer) => answer.message === 'This account is already bound!')).toHaveLength(3);
    const rows = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.platId, BITGET), eq(exchangeBindings.uid, uid)));
    expect(rows).toHaveLength(1);
  });

  it('lets a member bind several UIDs, on one exchange or several', async () => {
    const token = await signUp(ctx, nextEmail('many'));
    for (const platId of [BITGET, BITGET, BINANCE]) {
      const uid = await referred(platId);
      expect((await bind(token, { platId, uid, address: CHECKSUMMED })).state).toBe(0);
    }
    expect((await call(ctx, '/elex/user/myInfo', {}, { token })).json().content.exchangeBinds).toHaveLength(
      3,
    );
  });

  it('keeps a UID’s cashback through an unbinding, for the member who binds it next', async () => {
    ctx.clock.set(new Date('2026-02-01T00:00:00Z'));
    const uid = await referred();
    const first = await signUp(ctx, nextEmail('first'));
    expect((await bind(first, { platId: BITGET, uid, address: CHECKSUMMED })).state).toBe(0);
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(uid, new Date('2026-01-20T00:00:00Z'), { fee: '10', commission: '10' })],
      api,
    );
    const unbound = await ctx.db.transaction((tx) =>
      unbindUid(tx, { platId: BITGET, uid, reason: 'kycTransfer', operatorId: null, at: ctx.clock.now() }),
    );
    expect(unbound).toMatchObject({ uid, unbindReason: 'kycTransfer' });
    expect((await call(ctx, '/elex/user/myInfo', {}, { token: first })).json().content.exchangeBinds).toEqual(
      [],
    );
    const next = await signUp(ctx, nextEmail('next'));
    // 10 x Bitget's speed-up 60 %: the UID registered within 3 weeks of the period.
    expect(await bind(next, { platId: BITGET, uid, address: CHECKSUMMED })).toMatchObject({
      state: 0,
      content: { balance: '6.000000' },
    });
  });
});

describe('the live referral check', () => {
  function adapter(check: (uid: string) => Promise<ReferralEntry | null>): Map<string, ExchangeAdapter> {
    return new Map([
      [
        'bitget',
        {
          exchange: 'bitget',
          checkReferral: check,
          listReferrals: async function* () {},
          listCommissions: async function* () {},
        },
      ],
    ]);
  }

  it('asks the exchange about a UID the roster does not know and adds a confirmed one (source api)', async () => {
    const registeredAt = new Date(ctx.clock.now().getTime() - 3_600_000);
    const asked: string[] = [];
    ctx.deps.exchangeAdapters = adapter(async (uid) => {
      asked.push(uid);
      return uid.startsWith('LIVE') ? { uid, registeredAt } : null;
    });
    const uid = nextUid('LIVE');
    expect((await verify({ platId: BITGET, uid })).content.eligibility).toBe('eligible');
    expect((await verify({ platId: BITGET, uid: 'NOPE0001' })).content.eligibility).toBe('notReferred');
    const [row] = await ctx.db.select().from(referrals).where(eq(referrals.uid, uid));
    expect(row).toMatchObject({ platId: BITGET, source: 'api', registeredAt });
    // Known now: binding does not ask again.
    expect((await bind(alice, { platId: BITGET, uid, address: CHECKSUMMED })).state).toBe(0);
    expect(asked).toEqual([uid, 'NOPE0001']);
    // The live check's "no" is an answer: binding refuses it as not referred.
    expect(await bind(alice, { platId: BITGET, uid: 'NOPE0001', address: CHECKSUMMED })).toEqual({
      state: State.Refused,
      message: "Only accounts created with the product's referral code can be bound",
      content: { messageKey: 'uidNotReferred' },
    });
    // Binance has no adapter: a UID its roster does not list may be new.
    expect((await verify({ platId: BINANCE, uid: nextUid('LIVE') })).content.eligibility).toBe(
      'notYetListed',
    );
  });

  it('says the exchange did not answer rather than "not referred" when its API fails', async () => {
    ctx.deps.exchangeAdapters = adapter(async () => {
      throw new Error('socket hang up');
    });
    expect(await bind(alice, { platId: BITGET, uid: 'DOWN0001', address: CHECKSUMMED })).toMatchObject({
      state: State.Refused,
      message: 'The exchange did not answer. Please try again in a few minutes.',
      content: { messageKey: 'exchangeUnavailable' },
    });
  });
});

describe('bindXmeUid', () => {
  it('links the member’s XME account, one member per XME account', async () => {
    const token = await signUp(ctx, nextEmail('xme'));
    const xme = (body: object, as = token) =>
      call(ctx, '/elex/user/bindXmeUid', body, { token: as }).then((res) => res.json());
    const xmeUid = nextUid('XME');
    expect(await xme({ xmeUid })).toEqual({ state: 0, message: 'Binding successful', content: { xmeUid } });
    expect(await xme({ xmeUid })).toMatchObject({ state: 0 });
    expect(await xme({ xmeUid }, bob)).toMatchObject({
      state: State.Refused,
      message: 'This account is already bound!',
    });
    expect(await xme({ xmeUid: '' })).toMatchObject({
      state: State.ValidationFailed,
      message: 'xmeUid: Please enter the required information',
    });
    expect(await xme({ xmeUid: 'a b' })).toMatchObject({ state: State.ValidationFailed });
    const replacement = nextUid('XME');
    expect((await xme({ xmeUid: replacement })).state).toBe(0);
    // The freed XME account may go to another member now.
    expect((await xme({ xmeUid }, bob)).state).toBe(0);
  });

  it('finds an XME account’s holder in any letter case through an index, not by reading every binding', async () => {
    const token = await signUp(ctx, nextEmail('xme-case'));
    const xmeUid = nextUid('XmE');
    expect((await call(ctx, '/elex/user/bindXmeUid', { xmeUid }, { token })).json().state).toBe(0);
    const holder = await findXmeHolder(ctx.db, xmeUid.toUpperCase());
    expect(holder).toBeGreaterThan(0);
    expect(await findXmeHolder(ctx.db, xmeUid.toLowerCase())).toBe(holder);
    // Binding asks for the holder by lower(xme_uid), and the task payouts' notify trigger joins on it
    // (migration 0058): with a hundred thousand members, without an index on it each reads them all.
    const plans = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explain = async (statement: ReturnType<typeof sql>) =>
        JSON.stringify(
          rowsOf<{ 'QUERY PLAN': unknown }>(await tx.execute(sql`explain (format json) ${statement}`))[0]?.[
            'QUERY PLAN'
          ],
        );
      return [
        await explain(sql`select user_id from xme_bindings where lower(xme_uid) = lower(${xmeUid})`),
        await explain(sql`select x.user_id from (values ('xme:probe')) as n(account)
          join xme_bindings x on n.account like 'xme:%' and lower(x.xme_uid) = substr(n.account, 5)`),
      ];
    });
    for (const plan of plans) expect(plan).toContain('"Index Name":"xme_bindings_xme_uid_lower_idx"');
  });

  it('answers which XME account a member linked (the points issue reads it)', async () => {
    const email = nextEmail('xme2');
    const token = await signUp(ctx, email);
    const xmeUid = nextUid('XME');
    await call(ctx, '/elex/user/bindXmeUid', { xmeUid }, { token });
    const [user] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email.toLowerCase()));
    expect(await xmeUidOf(ctx.db, user?.id ?? 0)).toBe(xmeUid);
  });
});

describe('member calls without a session', () => {
  it.each([
    '/elex/user/bindExchangeUid',
    '/elex/user/bindXmeUid',
    '/elex/user/myInfo',
    '/elex/user/seeRebateByExchangeId',
    '/elex/user/seeRebateData',
    '/elex/exchange/expireRebate',
    '/elex/user/seeRewardData',
  ])('%s answers -5000', async (url) => {
    for (const options of [{}, { token: 'not-a-token' }]) {
      expect((await call(ctx, url, {}, options)).json()).toEqual({
        state: State.SessionExpired,
        message: 'Session expired, please log in again',
        content: null,
      });
    }
  });
});
