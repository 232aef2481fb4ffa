import type { ExchangeDictionary } from '@elex/contract';

type DictionaryEntry = ExchangeDictionary['exchangeList'][number];

/** A dictionary entry as GET /elex/user/config/res.json answers it (Bybit's seed figures). */
export function dictionaryEntry(overrides: Partial<DictionaryEntry> = {}): DictionaryEntry {
  return {
    id: 3,
    name: 'Bybit',
    Abbreviation: 'BYB',
    logo: '/logos/byb.svg',
    signupUrl: 'https://www.bybit.com/invite?ref=ELEXCB',
    referralCode: 'ELEXCB',
    score: 9.3,
    cashRate: '40.00',
    speedUpCashRate: '55.00',
    limitPrice: '0.0200',
    marketPrice: '0.0550',
    newUserDiscountPercent: 20,
    newUserDiscountDays: 90,
    mark: [],
    isRecommended: true,
    isRacing: true,
    feesCheckedOn: '2026-10-16',
    ...overrides,
  };
}

/** The whole dictionary answer for these entries, scores included. */
export function dictionaryOf(entries: readonly DictionaryEntry[]): ExchangeDictionary {
  return {
    exchangeList: [...entries],
    score: entries.map((entry) => ({ id: entry.id, score: entry.score })),
  };
}
