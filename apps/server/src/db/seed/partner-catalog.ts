import { type Locale, PLACEHOLDER_REFERRAL_CODE, type VipRule } from '@elex/contract';

/**
 * The 10 partner exchanges seeded on first start. Sources and dates of every fee figure are in
 * docs/exchanges.md; operators must re-check them on each exchange's fee page before launch and after
 * any change there. Fees: percent of the order value (USDT-margined perpetuals). Cash rates: percent
 * of the fee paid back, our own commercial terms (placeholders until the affiliate agreements fix them).
 */
interface SeedVipTier {
  level: string;
  /** Whole USDT of 30-day futures volume; null when the level has no volume requirement. */
  volume30d: number | null;
  /** Previous-day assets in whole units of the symbol; null when none. */
  asset: { amount: number; symbol: string } | null;
  maker: string;
  taker: string;
}

interface SeedActivity {
  kind: 'general' | 'hot';
  titles: Record<Locale, string>;
  url: string;
}

export interface SeedExchange {
  id: number;
  name: string;
  /** Also names our own lettering mark: apps/web/public/logos/<abbreviation in lower case>.svg. */
  abbreviation: string;
  /** Editorial rating out of 10. */
  score: string;
  cashRate: string;
  speedUpCashRate: string;
  maker: string;
  taker: string;
  vipRule: VipRule;
  vipTiers: SeedVipTier[];
  tags: string[];
  /** The sign-up page with `{code}` where the referral code goes (contract signup-links.ts). */
  signupUrlTemplate: string;
  referralCode: string;
  isRecommended: boolean;
  isRacing: boolean;
  /** The day the base fees were last checked against a published source; null when unchecked. */
  feesCheckedOn: string | null;
  activities: SeedActivity[];
}

/** Operators replace it with each exchange's real affiliate code (the console lists who still has it). */
const REFERRAL_CODE = PLACEHOLDER_REFERRAL_CODE;

/**
 * When the base futures fees were last checked against a published source (docs/exchanges.md): by a
 * public fee index (`binance`, `indexed`) or by us against the exchange's own pages (`ours`). An
 * exchange whose figures are not all confirmed carries null.
 */
const CHECKED_ON = { binance: '2026-10-12', indexed: '2026-10-16', ours: '2026-11-22' } as const;

export const PARTNER_CATALOG: readonly SeedExchange[] = [
  {
    id: 1,
    name: 'Binance',
    abbreviation: 'BN',
    score: '9.6',
    cashRate: '30.00',
    speedUpCashRate: '40.00',
    maker: '0.0200',
    taker: '0.0500',
    // Binance: a level needs the 30-day futures volume AND the BNB balance. Only the regular level:
    // the current thresholds of the higher levels were not found in a source (docs/exchanges.md).
    vipRule: 'both',
    vipTiers: [{ level: 'VIP 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0500' }],
    tags: ['popular', 'highLiquidity'],
    signupUrlTemplate: 'https://accounts.binance.com/register?ref={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: true,
    isRacing: false,
    feesCheckedOn: CHECKED_ON.binance,
    activities: [
      {
        kind: 'general',
        titles: {
          en: 'Binance Futures: current promotions and campaigns',
          zh: '币安合约：当前活动与推广',
          ko: '바이낸스 선물: 진행 중인 프로모션과 캠페인',
        },
        url: 'https://www.binance.com/en/activity',
      },
    ],
  },
  {
    id: 2,
    name: 'OKX',
    abbreviation: 'OKX',
    score: '9.4',
    cashRate: '40.00',
    speedUpCashRate: '50.00',
    maker: '0.0200',
    taker: '0.0500',
    vipRule: 'either',
    vipTiers: [{ level: 'Lv1', volume30d: null, asset: null, maker: '0.0200', taker: '0.0500' }],
    tags: ['popular', 'highCashback'],
    signupUrlTemplate: 'https://www.okx.com/join/{code}',
    referralCode: REFERRAL_CODE,
    isRecommended: true,
    isRacing: true,
    feesCheckedOn: CHECKED_ON.indexed,
    activities: [
      {
        kind: 'hot',
        titles: {
          en: 'OKX trading competitions: climb the leaderboard',
          zh: 'OKX 交易大赛：冲击排行榜',
          ko: 'OKX 트레이딩 대회: 리더보드에 도전하세요',
        },
        url: 'https://www.okx.com/events',
      },
      {
        kind: 'general',
        titles: {
          en: 'OKX new-user rewards for futures traders',
          zh: 'OKX 合约新用户奖励',
          ko: 'OKX 선물 신규 사용자 보상',
        },
        url: 'https://www.okx.com/rewards',
      },
    ],
  },
  {
    id: 3,
    name: 'Bybit',
    abbreviation: 'BYB',
    score: '9.3',
    cashRate: '40.00',
    speedUpCashRate: '55.00',
    maker: '0.0200',
    taker: '0.0550',
    vipRule: 'either',
    vipTiers: [{ level: 'VIP 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0550' }],
    tags: ['highCashback', 'newUserBonus'],
    signupUrlTemplate: 'https://www.bybit.com/invite?ref={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: true,
    isRacing: true,
    feesCheckedOn: CHECKED_ON.indexed,
    activities: [
      {
        kind: 'hot',
        titles: {
          en: 'Bybit derivatives competitions and prize pools',
          zh: 'Bybit 衍生品交易赛与奖池',
          ko: 'Bybit 파생상품 대회와 상금 풀',
        },
        url: 'https://www.bybit.com/en/promo/global/',
      },
    ],
  },
  {
    id: 4,
    name: 'Bitget',
    abbreviation: 'BG',
    score: '9.2',
    cashRate: '50.00',
    speedUpCashRate: '60.00',
    maker: '0.0200',
    taker: '0.0600',
    // Bitget: a level needs the 30-day futures volume OR the asset balance (announcement of 2024-06-06).
    vipRule: 'either',
    vipTiers: [
      { level: 'VIP 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0600' },
      {
        level: 'VIP 1',
        volume30d: 5_000_000,
        asset: { amount: 30_000, symbol: 'USDT' },
        maker: '0.0190',
        taker: '0.0600',
      },
      {
        level: 'VIP 2',
        volume30d: 10_000_000,
        asset: { amount: 50_000, symbol: 'USDT' },
        maker: '0.0160',
        taker: '0.0400',
      },
      {
        level: 'VIP 3',
        volume30d: 20_000_000,
        asset: { amount: 250_000, symbol: 'USDT' },
        maker: '0.0140',
        taker: '0.0375',
      },
      {
        level: 'VIP 4',
        volume30d: 50_000_000,
        asset: { amount: 750_000, symbol: 'USDT' },
        maker: '0.0120',
        taker: '0.0350',
      },
    ],
    tags: ['highCashback', 'popular'],
    signupUrlTemplate: 'https://www.bitget.com/referral/register?clacCode={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: true,
    isRacing: true,
    feesCheckedOn: CHECKED_ON.ours,
    activities: [
      {
        kind: 'hot',
        titles: {
          en: 'Bitget futures events for new and active traders',
          zh: 'Bitget 合约活动：新用户与活跃交易者',
          ko: 'Bitget 선물 이벤트: 신규 및 활성 트레이더',
        },
        url: 'https://www.bitget.com/events',
      },
    ],
  },
  {
    id: 5,
    name: 'Gate',
    abbreviation: 'GT',
    score: '8.8',
    cashRate: '55.00',
    speedUpCashRate: '65.00',
    maker: '0.0200',
    taker: '0.0500',
    vipRule: 'either',
    vipTiers: [{ level: 'VIP 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0500' }],
    tags: ['highCashback'],
    signupUrlTemplate: 'https://www.gate.com/signup?ref={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: null,
    activities: [
      {
        kind: 'general',
        titles: {
          en: 'Gate campaigns for futures traders',
          zh: 'Gate 合约交易者专属活动',
          ko: 'Gate 선물 트레이더 캠페인',
        },
        url: 'https://www.gate.com/campaigns',
      },
    ],
  },
  {
    id: 6,
    name: 'BingX',
    abbreviation: 'BX',
    score: '8.9',
    cashRate: '50.00',
    speedUpCashRate: '60.00',
    maker: '0.0200',
    taker: '0.0500',
    vipRule: 'either',
    vipTiers: [{ level: 'VIP 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0500' }],
    tags: ['newUserBonus'],
    signupUrlTemplate: 'https://bingx.com/invite/{code}',
    referralCode: REFERRAL_CODE,
    isRecommended: false,
    isRacing: true,
    feesCheckedOn: CHECKED_ON.indexed,
    activities: [
      {
        kind: 'hot',
        titles: {
          en: 'BingX trading challenges and copy-trading events',
          zh: 'BingX 交易挑战与跟单活动',
          ko: 'BingX 트레이딩 챌린지와 카피 트레이딩 이벤트',
        },
        url: 'https://bingx.com/en/activity/',
      },
    ],
  },
  {
    id: 7,
    name: 'MEXC',
    abbreviation: 'MX',
    score: '8.7',
    cashRate: '50.00',
    speedUpCashRate: '60.00',
    maker: '0.0000',
    taker: '0.0400',
    vipRule: 'either',
    vipTiers: [{ level: 'VIP 0', volume30d: null, asset: null, maker: '0.0000', taker: '0.0400' }],
    tags: ['zeroMaker', 'lowFees'],
    signupUrlTemplate: 'https://www.mexc.com/register?inviteCode={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: CHECKED_ON.indexed,
    activities: [
      {
        kind: 'general',
        titles: {
          en: 'MEXC futures events and airdrops',
          zh: 'MEXC 合约活动与空投',
          ko: 'MEXC 선물 이벤트와 에어드롭',
        },
        url: 'https://www.mexc.com/events',
      },
    ],
  },
  {
    id: 8,
    name: 'HTX',
    abbreviation: 'HTX',
    score: '8.4',
    cashRate: '60.00',
    speedUpCashRate: '70.00',
    maker: '0.0200',
    taker: '0.0600',
    vipRule: 'either',
    vipTiers: [{ level: 'Prime 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0600' }],
    tags: ['highCashback'],
    signupUrlTemplate: 'https://www.htx.com/invite/en-us/1f?invite_code={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: CHECKED_ON.ours,
    activities: [
      {
        kind: 'general',
        titles: {
          en: 'HTX futures promotions',
          zh: 'HTX 合约推广活动',
          ko: 'HTX 선물 프로모션',
        },
        url: 'https://www.htx.com/en-us/activity/',
      },
    ],
  },
  {
    id: 9,
    name: 'KuCoin',
    abbreviation: 'KC',
    score: '8.5',
    cashRate: '45.00',
    speedUpCashRate: '55.00',
    maker: '0.0200',
    taker: '0.0600',
    // KuCoin: a level needs the 30-day futures volume OR the KCS held (requirements of 2024-11-08).
    vipRule: 'either',
    vipTiers: [
      { level: 'VIP 0', volume30d: null, asset: null, maker: '0.0200', taker: '0.0600' },
      {
        level: 'VIP 1',
        volume30d: 5_000_000,
        asset: { amount: 1_000, symbol: 'KCS' },
        maker: '0.0180',
        taker: '0.0600',
      },
      {
        level: 'VIP 2',
        volume30d: 8_000_000,
        asset: { amount: 10_000, symbol: 'KCS' },
        maker: '0.0150',
        taker: '0.0600',
      },
      {
        level: 'VIP 3',
        volume30d: 16_000_000,
        asset: { amount: 20_000, symbol: 'KCS' },
        maker: '0.0100',
        taker: '0.0600',
      },
      {
        level: 'VIP 4',
        volume30d: 40_000_000,
        asset: { amount: 30_000, symbol: 'KCS' },
        maker: '0.0080',
        taker: '0.0530',
      },
      {
        level: 'VIP 5',
        volume30d: 60_000_000,
        asset: { amount: 40_000, symbol: 'KCS' },
        maker: '0.0060',
        taker: '0.0480',
      },
      {
        level: 'VIP 6',
        volume30d: 120_000_000,
        asset: { amount: 50_000, symbol: 'KCS' },
        maker: '0.0040',
        taker: '0.0430',
      },
    ],
    tags: ['newUserBonus'],
    signupUrlTemplate: 'https://www.kucoin.com/r/rf/{code}',
    referralCode: REFERRAL_CODE,
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: CHECKED_ON.ours,
    activities: [
      {
        kind: 'general',
        titles: {
          en: 'KuCoin futures campaigns',
          zh: 'KuCoin 合约活动',
          ko: 'KuCoin 선물 캠페인',
        },
        url: 'https://www.kucoin.com/events',
      },
    ],
  },
  {
    id: 10,
    name: 'BitMart',
    abbreviation: 'BM',
    score: '8.1',
    cashRate: '60.00',
    speedUpCashRate: '70.00',
    maker: '0.0200',
    taker: '0.0600',
    // BitMart: a VIP level needs the 30-day volume AND at least 5 BTC in the futures account.
    vipRule: 'both',
    vipTiers: [
      { level: 'General', volume30d: null, asset: null, maker: '0.0200', taker: '0.0600' },
      {
        level: 'T1',
        volume30d: 25_000_000,
        asset: { amount: 5, symbol: 'BTC' },
        maker: '0.0000',
        taker: '0.0300',
      },
      {
        level: 'T2',
        volume30d: 50_000_000,
        asset: { amount: 5, symbol: 'BTC' },
        maker: '0.0000',
        taker: '0.0250',
      },
      {
        level: 'T3',
        volume30d: 100_000_000,
        asset: { amount: 5, symbol: 'BTC' },
        maker: '0.0000',
        taker: '0.0200',
      },
    ],
    tags: ['highCashback'],
    signupUrlTemplate: 'https://www.bitmart.com/register-referral/en?r={code}',
    referralCode: REFERRAL_CODE,
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: CHECKED_ON.ours,
    activities: [
      {
        kind: 'general',
        titles: {
          en: 'BitMart futures events',
          zh: 'BitMart 合约活动',
          ko: 'BitMart 선물 이벤트',
        },
        url: 'https://www.bitmart.com/activity/en',
      },
    ],
  },
];

/** The icon of each tag (our own drawings in apps/web/public/logos/tags). */
export const TAG_ICONS: Record<string, string> = {
  popular: '/logos/tags/popular.svg',
  highLiquidity: '/logos/tags/liquidity.svg',
  highCashback: '/logos/tags/cashback.svg',
  newUserBonus: '/logos/tags/gift.svg',
  zeroMaker: '/logos/tags/fees.svg',
  lowFees: '/logos/tags/fees.svg',
};
