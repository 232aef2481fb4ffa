import type { CatalogExchange } from '@elex/contract';

/** A partner as the console's catalog call answers it, for the console's page tests. */
export function catalogExchange(overrides: Partial<CatalogExchange>): CatalogExchange {
  return {
    platId: 1,
    name: 'Binance',
    abbreviation: 'BN',
    logo: '/logos/bn.svg',
    position: 1,
    score: '9.6',
    cashRate: '30.00',
    speedUpCashRate: '40.00',
    limitPrice: '0.0200',
    marketPrice: '0.0500',
    vipRule: 'both',
    marks: [],
    signupUrlTemplate: 'https://accounts.binance.com/register?ref={code}',
    referralCode: 'REAL42',
    newUserDiscountPercent: 20,
    newUserDiscountDays: 90,
    isRecommended: true,
    isRacing: false,
    feesCheckedOn: new Date().toISOString().slice(0, 10),
    updatedAt: '2026-11-01T00:00:00.000Z',
    vipTiers: [],
    activities: [],
    ...overrides,
  };
}
