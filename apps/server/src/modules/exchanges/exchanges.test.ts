import {
  type CashbackEstimateResponse,
  CashbackEstimateResponseSchema,
  compareDecimals,
  type ExchangeDetailResponse,
  ExchangeDetailResponseSchema,
  ExchangeDictionarySchema,
  type ExchangeIndexResponse,
  ExchangeIndexResponseSchema,
  estimateCashback,
  HOME_TABS,
  rankExchanges,
  State,
} from '@elex/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exchangeActivities, exchanges, exchangeVipTiers } from '../../db/schema.js';
import { PARTNER_CATALOG } from '../../db/seed/partner-catalog.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import { createTestApp, post } from '../../test/test-app.js';
import { selectCatalog } from './exchanges.repository.js';
import {
  addActivities,
  CATALOG_CACHE_TTL_MS,
  removeActivity,
  replaceVipTiers,
  updateExchange,
} from './exchanges.service.js';

// The catalog read, wrapped so the cache tests can count how often the catalog is really loaded.
vi.mock('./exchanges.repository.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./exchanges.repository.js')>();
  return { ...actual, selectCatalog: vi.fn(actual.selectCatalog) };
});

type Ctx = Awaited<ReturnType<typeof createTestApp>>;

async function index(ctx: Ctx, lang = 'en'): Promise<ExchangeIndexResponse> {
  const res = await post(ctx.app, '/elex/exchange/index', {}, { lang });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body).toMatchObject({ state: State.Success });
  return ExchangeIndexResponseSchema.parse(body.content);
}

async function detail(ctx: Ctx, platId: unknown, lang = 'en') {
  return post(ctx.app, '/elex/exchange/detail', { platId }, { lang });
}

describe('the partner catalog', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await createTestApp();
    expect(await seedPartnerCatalog(ctx.db)).toBe(10);
  });
  afterAll(() => ctx.close());

  describe('seed', () => {
    it('holds the 10 partners with their VIP tables and activities', async () => {
      expect(await ctx.db.select().from(exchanges)).toHaveLength(10);
      const tiers = await ctx.db.select().from(exchangeVipTiers);
      expect(tiers).toHaveLength(PARTNER_CATALOG.reduce((sum, e) => sum + e.vipTiers.length, 0));
      const activities = await ctx.db.select().from(exchangeActivities);
      expect(activities).toHaveLength(PARTNER_CATALOG.reduce((sum, e) => sum + e.activities.length, 0));
    });

    it('stores rates as integers: fees in parts per million, cash rates in basis points', async () => {
      const [binance] = await ctx.db.select().from(exchanges).where(eq(exchanges.id, 1));
      expect(binance).toMatchObject({
        makerFeePpm: 200,
        takerFeePpm: 500,
        cashRateBps: 3000,
        scoreTenths: 96,
        newUserDiscountPercent: 20,
        newUserDiscountDays: 90,
        logo: '/logos/bn.svg',
      });
    });

    it('is idempotent: a second start inserts nothing and keeps operator edits', async () => {
      await updateExchange(ctx.app.deps, 5, { name: 'Gate (edited)' });
      const before = {
        exchanges: (await ctx.db.select().from(exchanges)).length,
        tiers: (await ctx.db.select().from(exchangeVipTiers)).length,
        activities: (await ctx.db.select().from(exchangeActivities)).length,
      };
      expect(await seedPartnerCatalog(ctx.db)).toBe(0);
      expect(await seedPartnerCatalog(ctx.db)).toBe(0);
      expect((await ctx.db.select().from(exchanges)).length).toBe(before.exchanges);
      expect((await ctx.db.select().from(exchangeVipTiers)).length).toBe(before.tiers);
      expect((await ctx.db.select().from(exchangeActivities)).length).toBe(before.activities);
      const [gate] = await ctx.db.select().from(exchanges).where(eq(exchanges.id, 5));
      expect(gate?.name).toBe('Gate (edited)');
      await updateExchange(ctx.app.deps, 5, { name: 'Gate' });
    });

    it('refuses a float-like or out-of-range rate at the database', async () => {
      await expect(
        ctx.db.update(exchanges).set({ cashRateBps: 10_001 }).where(eq(exchanges.id, 1)),
      ).rejects.toThrow();
    });
  });

  describe('POST /elex/exchange/index', () => {
    it('answers allExchange in catalog order with decimal strings, fames and both activity lists', async () => {
      const content = await index(ctx);
      expect(content.allExchange.map((row) => row.platname)).toEqual(PARTNER_CATALOG.map((e) => e.name));
      expect(content.allExchange[0]).toEqual({
        platId: 1,
        platname: 'Binance',
        abbreviation: 'BN',
        logo: '/logos/bn.svg',
        score: 9.6,
        cashRate: '30.00',
        limitPrice: '0.0200',
        marketPrice: '0.0500',
        // Nothing credited yet: measured figures only, never invented ones.
        personAvg: '0.000000',
        mark: [
          { tag: 'popular', iconUrl: '/logos/tags/popular.svg' },
          { tag: 'highLiquidity', iconUrl: '/logos/tags/liquidity.svg' },
        ],
        isRecommended: true,
        isRacing: false,
      });
      expect(content.fames).toEqual([]);
      expect(content.hotActivity.length).toBeGreaterThan(0);
      expect(content.generalActivity.length).toBeGreaterThan(0);
      for (const activity of [...content.hotActivity, ...content.generalActivity]) {
        expect(activity.activityUrl).toMatch(/^https:\/\//);
        expect(content.allExchange.some((row) => row.platId === activity.platId)).toBe(true);
      }
    });

    it('gives activity titles in the lang header’s language, English when unknown', async () => {
      const [en, zh, ko, fr] = await Promise.all(['en', 'zh', 'ko', 'fr'].map((lang) => index(ctx, lang)));
      const okx = (content: ExchangeIndexResponse) =>
        content.hotActivity.find((activity) => activity.platId === 2)?.title;
      expect(okx(en as ExchangeIndexResponse)).toBe('OKX trading competitions: climb the leaderboard');
      expect(okx(zh as ExchangeIndexResponse)).toBe('OKX 交易大赛：冲击排行榜');
      expect(okx(ko as ExchangeIndexResponse)).toMatch(/OKX 트레이딩 대회/);
      expect(okx(fr as ExchangeIndexResponse)).toBe(okx(en as ExchangeIndexResponse));
      const res = await post(ctx.app, '/elex/exchange/index', {}, { lang: 'zh' });
      expect(res.json().message).toBe('成功');
    });

    it('accepts a form-encoded or empty body (spec: empty payload)', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/elex/exchange/index',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(res.json()).toMatchObject({ state: State.Success });
    });

    describe.each(HOME_TABS)('the %s tab over the seeded catalog', (tab) => {
      it('orders and filters as spec section 4 says', async () => {
        const { allExchange } = await index(ctx);
        const shown = rankExchanges(allExchange, tab);
        const pairs = shown.slice(1).map((row, i) => [shown[i], row] as const);
        switch (tab) {
          case 'overall':
          case 'recommend':
            for (const [a, b] of pairs) expect(a?.score).toBeGreaterThanOrEqual(b.score);
            break;
          case 'mostCashback':
            for (const [a, b] of pairs)
              expect(compareDecimals(a?.cashRate ?? '0', b.cashRate)).toBeGreaterThanOrEqual(0);
            break;
          case 'limitPrice':
            for (const [a, b] of pairs)
              expect(compareDecimals(a?.limitPrice ?? '0', b.limitPrice)).toBeGreaterThanOrEqual(0);
            break;
          case 'marketPrice':
            for (const [a, b] of pairs)
              expect(compareDecimals(a?.marketPrice ?? '0', b.marketPrice)).toBeGreaterThanOrEqual(0);
            break;
          case 'racing':
            // No sort: the flagged exchanges in catalog order.
            expect(shown.map((row) => row.platId)).toEqual(
              allExchange.filter((row) => row.isRacing).map((row) => row.platId),
            );
            break;
        }
        if (tab === 'recommend') expect(shown.every((row) => row.isRecommended)).toBe(true);
        if (tab === 'recommend' || tab === 'racing') expect(shown.length).toBeGreaterThan(1);
        else expect(shown).toHaveLength(10);
      });
    });
  });

  describe('GET /elex/user/config/res.json', () => {
    it('answers the exchange dictionary: exchangeList with id, logo, Abbreviation, sign-up link, and score', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/elex/user/config/res.json' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ state: State.Success, message: 'OK' });
      const dictionary = ExchangeDictionarySchema.parse(body.content);
      expect(dictionary.exchangeList).toHaveLength(10);
      expect(dictionary.exchangeList[1]).toMatchObject({
        id: 2,
        name: 'OKX',
        Abbreviation: 'OKX',
        logo: '/logos/okx.svg',
        signupUrl: 'https://www.okx.com/join/ELEXCB',
        referralCode: 'ELEXCB',
        newUserDiscountPercent: 20,
        newUserDiscountDays: 90,
        feesCheckedOn: '2026-10-16',
      });
      // Fees nobody has checked against a published source yet say so (null), never a made-up date.
      expect(dictionary.exchangeList.find((entry) => entry.id === 5)?.feesCheckedOn).toBeNull();
      expect(dictionary.score).toEqual(
        dictionary.exchangeList.map((entry) => ({ id: entry.id, score: entry.score })),
      );
    });
  });

  describe('POST /elex/exchange/detail', () => {
    it('answers everything the detail page shows', async () => {
      const res = await detail(ctx, 1);
      expect(res.json()).toMatchObject({ state: State.Success });
      const content: ExchangeDetailResponse = ExchangeDetailResponseSchema.parse(res.json().content);
      expect(content).toMatchObject({
        platId: 1,
        platname: 'Binance',
        limitPrice: '0.0200',
        marketPrice: '0.0500',
        cashRate: '30.00',
        speedUpCashRate: '40.00',
        speedUpWeeks: 3,
        newUserDiscountPercent: 20,
        newUserDiscountDays: 90,
        vipRule: 'both',
        personAvg: '0.000000',
        rankingDays: 30,
      });
      expect(content.vipTiers[0]).toEqual({
        level: 'VIP 0',
        volume30d: null,
        asset: null,
        limitPrice: '0.0200',
        marketPrice: '0.0500',
      });
      expect(content.activities.map((a) => a.platId)).toEqual(content.activities.map(() => 1));
    });

    it('answers a VIP table with its volume and asset requirements, in level order', async () => {
      const content = ExchangeDetailResponseSchema.parse((await detail(ctx, 9)).json().content);
      expect(content).toMatchObject({ platname: 'KuCoin', vipRule: 'either' });
      expect(content.vipTiers.map((tier) => tier.level)).toEqual([
        'VIP 0',
        'VIP 1',
        'VIP 2',
        'VIP 3',
        'VIP 4',
        'VIP 5',
        'VIP 6',
      ]);
      expect(content.vipTiers[1]).toEqual({
        level: 'VIP 1',
        volume30d: '5000000',
        asset: { amount: '1000', symbol: 'KCS' },
        limitPrice: '0.0180',
        marketPrice: '0.0600',
      });
    });

    it('has an empty 30-day ranking while no cashback was credited in the window', async () => {
      const content = ExchangeDetailResponseSchema.parse((await detail(ctx, 3)).json().content);
      expect(content.ranking).toEqual([]);
    });

    it('accepts platId as numeric text', async () => {
      expect((await detail(ctx, '4')).json()).toMatchObject({ state: State.Success, content: { platId: 4 } });
    });

    it.each([
      ['en', 'This exchange is not one of our partners'],
      ['zh', '该交易所不是我们的合作伙伴'],
      ['ko', '저희 파트너 거래소가 아닙니다'],
    ])('answers an unknown platId with the not-found state (%s)', async (lang, message) => {
      const res = await detail(ctx, 999, lang);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ state: State.NotFound, message, content: null });
    });

    it.each([0, -3, 1.5, 'abc', '', true, [1], { id: 1 }])(
      'refuses the malformed platId %j with the validation state, naming the field',
      async (platId) => {
        const res = await detail(ctx, platId);
        expect(res.json()).toEqual({
          state: State.ValidationFailed,
          message: 'platId: invalid value',
          content: null,
        });
      },
    );

    it('says platId is required when it is missing', async () => {
      const res = await post(ctx.app, '/elex/exchange/detail', {});
      expect(res.json()).toMatchObject({
        state: State.ValidationFailed,
        message: 'platId: this field is required',
      });
    });
  });

  describe('POST /elex/exchange/estimate', () => {
    const answers = { platId: 3, leverage: 20, seed: '2,000', frequency: 'twoToFive' };

    it('estimates 30 days and 6 months with the contract formula and the exchange’s real rates', async () => {
      const res = await post(ctx.app, '/elex/exchange/estimate', answers);
      expect(res.json()).toMatchObject({ state: State.Success });
      const content: CashbackEstimateResponse = CashbackEstimateResponseSchema.parse(res.json().content);
      // Bybit: maker 0.02 %, taker 0.055 %, 40 % back. 3.5 trades × 30 days × 40,000 USDT × 0.0375 % × 40 %.
      const expected = estimateCashback({
        frequency: 'twoToFive',
        seed: '2000',
        leverage: 20,
        limitPrice: '0.0200',
        marketPrice: '0.0550',
        cashRate: '40.00',
      });
      expect(content.monthly).toBe('630.000000');
      expect(content).toMatchObject({ platId: 3, monthly: expected.monthly, sixMonths: expected.sixMonths });
      expect(content.sixMonths).toBe('3780.000000');
    });

    it('uses the VIP level the estimated 30-day volume reaches, never the higher regular fees', async () => {
      // Bitget: 3.5 trades × 30 days × 10,000 USDT × 20 = 21,000,000 USDT in 30 days, past VIP 3's
      // 20M (maker 0.014 %, taker 0.0375 %). At those fees the cashback paid is 21M × 0.02575 % × 50 %.
      const res = await post(ctx.app, '/elex/exchange/estimate', { ...answers, platId: 4, seed: '10000' });
      const content = CashbackEstimateResponseSchema.parse(res.json().content);
      expect(content).toMatchObject({
        platId: 4,
        monthly: '2703.750000',
        sixMonths: '16222.500000',
        vipLevel: 'VIP 3',
        limitPrice: '0.0140',
        marketPrice: '0.0375',
        cashRate: '50.00',
      });
      expect(content.comparisons.find((row) => row.platId === 4)?.monthly).toBe('2703.750000');
      // Below VIP 1's 5M the regular fees apply, and the answer says so.
      const small = (await post(ctx.app, '/elex/exchange/estimate', { ...answers, platId: 4 })).json()
        .content;
      expect(small).toMatchObject({ vipLevel: null, limitPrice: '0.0200', marketPrice: '0.0600' });
    });

    it('compares the same answers at all 10 partners, most cashback first', async () => {
      const content = CashbackEstimateResponseSchema.parse(
        (await post(ctx.app, '/elex/exchange/estimate', answers)).json().content,
      );
      expect(content.comparisons).toHaveLength(10);
      const monthly = content.comparisons.map((row) => row.monthly);
      expect([...monthly].sort((a, b) => compareDecimals(b, a))).toEqual(monthly);
      expect(content.comparisons.find((row) => row.platId === 3)?.monthly).toBe(content.monthly);
    });

    it.each([
      [{ leverage: 0 }, 'leverage: Leverage must be between 1 and 125'],
      [{ leverage: 126 }, 'leverage: Leverage must be between 1 and 125'],
      [{ seed: '0' }, 'seed: Please enter an amount between 1 and 100,000,000 USDT (up to 6 decimals)'],
      [{ frequency: 'hourly' }, 'frequency: Please choose how often you trade'],
    ])('refuses %j with the shared message', async (change, message) => {
      const res = await post(ctx.app, '/elex/exchange/estimate', { ...answers, ...change });
      expect(res.json()).toEqual({ state: State.ValidationFailed, message, content: null });
    });

    it('answers an unknown exchange with the not-found state', async () => {
      const res = await post(ctx.app, '/elex/exchange/estimate', { ...answers, platId: 77 });
      expect(res.json()).toMatchObject({ state: State.NotFound });
    });
  });

  describe('the catalog cache', () => {
    const cashRateOf = async (platId: number) =>
      (await index(ctx)).allExchange.find((row) => row.platId === platId)?.cashRate;

    it('shows an operator’s edit on the very next request (the write invalidates the cache)', async () => {
      expect(await cashRateOf(6)).toBe('50.00');
      await updateExchange(ctx.app.deps, 6, { cashRateBps: 6250 });
      expect(await cashRateOf(6)).toBe('62.50');
      const res = await ctx.app.inject({ method: 'GET', url: '/elex/user/config/res.json' });
      expect(res.json().content.exchangeList[5].cashRate).toBe('62.50');
      await updateExchange(ctx.app.deps, 6, { cashRateBps: 5000 });
      expect(await cashRateOf(6)).toBe('50.00');
    });

    it('shows new and removed activities and a new VIP table at once', async () => {
      const [added] = await addActivities(ctx.app.deps, [
        {
          exchangeId: 7,
          kind: 'hot',
          titles: { en: 'MEXC test event', zh: 'MEXC 测试活动', ko: 'MEXC 테스트 이벤트' },
          activityUrl: 'https://www.mexc.com/events/test',
          position: 99,
        },
      ]);
      expect((await index(ctx, 'zh')).hotActivity.map((a) => a.title)).toContain('MEXC 测试活动');
      expect(await removeActivity(ctx.app.deps, added?.id ?? -1)).toBe(true);
      expect((await index(ctx, 'zh')).hotActivity.map((a) => a.title)).not.toContain('MEXC 测试活动');

      await replaceVipTiers(ctx.app.deps, 7, [
        {
          level: 'VIP 0',
          minVolume30dUsdt: null,
          minAssetAmount: null,
          minAssetSymbol: null,
          makerFeePpm: 0,
          takerFeePpm: 400,
        },
        {
          level: 'VIP 1',
          minVolume30dUsdt: 1_000_000n,
          minAssetAmount: null,
          minAssetSymbol: null,
          makerFeePpm: 0,
          takerFeePpm: 350,
        },
      ]);
      const content = ExchangeDetailResponseSchema.parse((await detail(ctx, 7)).json().content);
      expect(content.vipTiers.map((tier) => [tier.level, tier.volume30d, tier.marketPrice])).toEqual([
        ['VIP 0', null, '0.0400'],
        ['VIP 1', '1000000', '0.0350'],
      ]);
    });

    it('answers a write to an unknown exchange with not found, and still invalidates', async () => {
      expect(await cashRateOf(10)).toBe('60.00');
      // Another instance edits the shared database: this process still serves its snapshot...
      await ctx.db.update(exchanges).set({ cashRateBps: 5500 }).where(eq(exchanges.id, 10));
      expect(await cashRateOf(10)).toBe('60.00');
      // ...until this process makes a write, even a refused one, which drops the snapshot.
      await expect(updateExchange(ctx.app.deps, 404, { name: 'x' })).rejects.toMatchObject({
        state: State.NotFound,
      });
      expect(await cashRateOf(10)).toBe('55.00');
      await updateExchange(ctx.app.deps, 10, { cashRateBps: 6000 });
    });

    it('serves from memory between writes, and picks up another instance’s write within the TTL', async () => {
      expect(await cashRateOf(8)).toBe('60.00');
      // Another instance writes to the shared database: this process is not told.
      await ctx.db.update(exchanges).set({ cashRateBps: 6500 }).where(eq(exchanges.id, 8));
      expect(await cashRateOf(8)).toBe('60.00');
      ctx.clock.advance(CATALOG_CACHE_TTL_MS - 1);
      expect(await cashRateOf(8)).toBe('60.00');
      ctx.clock.advance(1);
      expect(await cashRateOf(8)).toBe('65.00');
      await updateExchange(ctx.app.deps, 8, { cashRateBps: 6000 });
    });

    it('shares one load between concurrent requests after an invalidation', async () => {
      await updateExchange(ctx.app.deps, 9, { scoreTenths: 84 });
      const loads = vi.mocked(selectCatalog);
      loads.mockClear();
      const answers = await Promise.all(Array.from({ length: 20 }, () => index(ctx)));
      expect(loads).toHaveBeenCalledTimes(1);
      expect(answers.map((answer) => answer.allExchange.find((row) => row.platId === 9)?.score)).toEqual(
        answers.map(() => 8.4),
      );
      // Served from memory afterwards: no further load.
      await index(ctx);
      expect(loads).toHaveBeenCalledTimes(1);
      await updateExchange(ctx.app.deps, 9, { scoreTenths: 85 });
    });
  });
});

describe('an empty catalog (before the first seed)', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('answers empty lists rather than failing', async () => {
    expect(await index(ctx)).toEqual({ allExchange: [], fames: [], generalActivity: [], hotActivity: [] });
  });

  it('shows the seed as soon as it is written (the seed invalidates the cache)', async () => {
    await index(ctx);
    await seedPartnerCatalog(ctx.db);
    expect((await index(ctx)).allExchange).toHaveLength(10);
  });
});
