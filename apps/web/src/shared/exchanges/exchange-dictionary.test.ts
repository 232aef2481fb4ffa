import type { ExchangeDictionary, ExchangeDictionaryEntry } from '@elex/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../../test/helpers';
import { createQueryClient } from '../queries/query-scope';
import {
  clearExchangeDictionary,
  findExchanges,
  getExchangeById,
  getExchangeList,
  getExchangesByIds,
  getScoreList,
  loadExchangeDictionary,
  refreshExchangeDictionary,
} from './exchange-dictionary';
import { exchangeListQuery } from './exchange-list-query';

function entry(
  id: number,
  name: string,
  overrides: Partial<ExchangeDictionaryEntry> = {},
): ExchangeDictionaryEntry {
  return {
    id,
    name,
    Abbreviation: name.slice(0, 2).toUpperCase(),
    logo: `/logos/${name.slice(0, 2).toLowerCase()}.svg`,
    signupUrl: `https://example.com/${name}`,
    referralCode: 'ELEXCB',
    score: 9,
    cashRate: '40.00',
    speedUpCashRate: '50.00',
    limitPrice: '0.0200',
    marketPrice: '0.0500',
    newUserDiscountPercent: 20,
    newUserDiscountDays: 90,
    mark: [],
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: '2026-10-16',
    ...overrides,
  };
}

const dictionary = (...entries: ExchangeDictionaryEntry[]): ExchangeDictionary => ({
  exchangeList: entries,
  score: entries.map((e) => ({ id: e.id, score: e.score })),
});

/** A fetch that answers when the test says so, counting calls. */
function deferredFetch() {
  const resolvers: Array<(response: Response) => void> = [];
  const fetchMock = vi.fn(
    (_url: RequestInfo | URL, _init?: RequestInit) =>
      new Promise<Response>((resolve) => {
        resolvers.push(resolve);
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, answer: (index: number, response: Response) => resolvers[index]?.(response) };
}

beforeEach(() => {
  clearExchangeDictionary();
});

describe('the exchange dictionary cache (spec section 4)', () => {
  it('shares one pending load between concurrent requests', async () => {
    const { fetchMock, answer } = deferredFetch();
    const first = getExchangeList();
    const second = getExchangeById(2);
    const third = loadExchangeDictionary();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith(
      '/elex/user/config/res.json',
      expect.objectContaining({ method: 'GET' }),
    );

    answer(0, envelope(dictionary(entry(1, 'Binance'), entry(2, 'OKX'))));
    expect((await first).map((e) => e.name)).toEqual(['Binance', 'OKX']);
    expect((await second)?.name).toBe('OKX');
    expect((await third).exchangeList).toHaveLength(2);
  });

  it('loads once: later reads are answered from memory', async () => {
    const fetchMock = vi.fn(async () => envelope(dictionary(entry(1, 'Binance'))));
    vi.stubGlobal('fetch', fetchMock);
    await getExchangeList();
    await getExchangeList();
    await getScoreList();
    await getExchangesByIds([1]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refresh clears the cache and reloads', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(envelope(dictionary(entry(1, 'Binance'))))
      .mockResolvedValueOnce(envelope(dictionary(entry(1, 'Binance'), entry(3, 'Bybit'))));
    vi.stubGlobal('fetch', fetchMock);
    expect(await getExchangeList()).toHaveLength(1);
    const refreshed = await refreshExchangeDictionary();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(refreshed.exchangeList).toHaveLength(2);
    expect((await getExchangeList()).map((e) => e.name)).toEqual(['Binance', 'Bybit']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('lets an older load that ends after a refresh not overwrite the newer answer', async () => {
    const { answer } = deferredFetch();
    const old = loadExchangeDictionary();
    const fresh = refreshExchangeDictionary();
    answer(1, envelope(dictionary(entry(1, 'New'))));
    await fresh;
    answer(0, envelope(dictionary(entry(1, 'Old'))));
    await old;
    expect((await getExchangeById(1))?.name).toBe('New');
  });

  describe('when the load fails (spec section 8)', () => {
    beforeEach(() => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
    });

    it('logs the failure and the list getters answer empty lists, with no toast', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      expect(await getExchangeList()).toEqual([]);
      expect(await getScoreList()).toEqual([]);
      expect(await findExchanges('isRacing', true)).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(3);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/exchange dictionary/i);
      expect(document.body.textContent).not.toContain('Network anomaly');
    });

    it('does not catch in the by-id and by-ids lookups', async () => {
      await expect(getExchangeById(1)).rejects.toThrow('Network anomaly');
      await expect(getExchangesByIds([1, 2])).rejects.toThrow('Network anomaly');
    });

    it('tries again on the next read instead of keeping the failure', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      expect(await getExchangeList()).toEqual([]);
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => envelope(dictionary(entry(4, 'Bitget')))),
      );
      expect((await getExchangeList()).map((e) => e.name)).toEqual(['Bitget']);
    });

    it('does not keep the failure in the query cache: the next use of the list loads again', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const client = createQueryClient();
      expect(await client.fetchQuery(exchangeListQuery)).toEqual([]);
      const fetchMock = vi.fn(async () => envelope(dictionary(entry(4, 'Bitget'))));
      vi.stubGlobal('fetch', fetchMock);

      expect((await client.fetchQuery(exchangeListQuery)).map((e) => e.name)).toEqual(['Bitget']);
      // A loaded list is kept for the session: no further call.
      await client.fetchQuery(exchangeListQuery);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });
  });

  it('filters by a key and a value, and answers by ids in the order asked', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        envelope(
          dictionary(
            entry(1, 'Binance'),
            entry(2, 'OKX', { isRacing: true }),
            entry(3, 'Bybit', { isRacing: true }),
          ),
        ),
      ),
    );
    expect((await findExchanges('isRacing', true)).map((e) => e.id)).toEqual([2, 3]);
    expect((await getExchangesByIds([3, 99, 1])).map((e) => e.id)).toEqual([3, 1]);
    expect(await getExchangeById(99)).toBeUndefined();
  });
});
