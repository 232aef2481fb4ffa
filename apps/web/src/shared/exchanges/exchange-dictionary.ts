import type { ExchangeDictionary, ExchangeDictionaryEntry } from '@elex/contract';
import { API } from '@elex/contract';
import { useCallback, useEffect, useState } from 'react';
import { whenFirstPainted } from '../after-first-paint';
import { apiCall } from '../api/api-client';

/**
 * The exchange dictionary (`GET /elex/user/config/res.json`), kept once per page load as spec
 * section 4 says: loaded once, concurrent requests share one pending load, a refresh clears the cache
 * and reloads. Spec section 8: a failure is only logged and the list getters answer an empty list;
 * the by-id and by-ids lookups do not catch, so their callers see the failure.
 */
let cached: ExchangeDictionary | undefined;
let pending: Promise<ExchangeDictionary> | undefined;
/** Counts loads and clears: an older load that ends late must not fill a cache cleared since. */
let generation = 0;

/**
 * Checked by hand rather than with the contract's zod schema: the home page reads the dictionary, and
 * keeping zod out of it keeps zod out of the first download (docs/decisions.md).
 */
function toDictionary(content: unknown): ExchangeDictionary {
  const value = content as Partial<ExchangeDictionary> | null;
  if (!value || !Array.isArray(value.exchangeList) || !Array.isArray(value.score)) {
    throw new Error('the exchange dictionary has no exchangeList or score');
  }
  return value as ExchangeDictionary;
}

export function loadExchangeDictionary(): Promise<ExchangeDictionary> {
  if (cached) return Promise.resolve(cached);
  if (pending) return pending;
  generation += 1;
  const mine = generation;
  // spec: the failure is logged, never shown (silent).
  const load = apiCall(API.userConfigResJson, undefined, { method: 'GET', silent: true })
    .then(toDictionary)
    .then((dictionary) => {
      if (mine === generation) cached = dictionary;
      return dictionary;
    })
    .finally(() => {
      if (mine === generation) pending = undefined;
    });
  pending = load;
  return load;
}

/** Forgets the dictionary, so the next read loads it again. */
export function clearExchangeDictionary() {
  generation += 1;
  cached = undefined;
  pending = undefined;
}

/** spec: a refresh clears the cache and reloads. */
export function refreshExchangeDictionary(): Promise<ExchangeDictionary> {
  clearExchangeDictionary();
  return loadExchangeDictionary();
}

async function orEmpty<T>(read: (dictionary: ExchangeDictionary) => T[]): Promise<T[]> {
  try {
    return read(await loadExchangeDictionary());
  } catch (error) {
    console.warn('The exchange dictionary could not be loaded', error);
    return [];
  }
}

/** Every partner, in catalog order; an empty list when the dictionary cannot be loaded. */
export function getExchangeList(): Promise<ExchangeDictionaryEntry[]> {
  return orEmpty((dictionary) => dictionary.exchangeList);
}

/** Each exchange's score; an empty list when the dictionary cannot be loaded. */
export function getScoreList(): Promise<ExchangeDictionary['score']> {
  return orEmpty((dictionary) => dictionary.score);
}

/** spec: the list filtered by a key and value; an empty list when the dictionary cannot be loaded. */
export function findExchanges<K extends keyof ExchangeDictionaryEntry>(
  key: K,
  value: ExchangeDictionaryEntry[K],
): Promise<ExchangeDictionaryEntry[]> {
  return orEmpty((dictionary) => dictionary.exchangeList.filter((entry) => entry[key] === value));
}

/** One exchange by id (undefined when unknown). Does not catch: a load failure rejects. */
export async function getExchangeById(id: number): Promise<ExchangeDictionaryEntry | undefined> {
  return (await loadExchangeDictionary()).exchangeList.find((entry) => entry.id === id);
}

/** Several exchanges by id, in the order asked, unknown ids left out. Does not catch. */
export async function getExchangesByIds(ids: readonly number[]): Promise<ExchangeDictionaryEntry[]> {
  const { exchangeList } = await loadExchangeDictionary();
  return ids.flatMap((id) => exchangeList.filter((entry) => entry.id === id));
}

/** The partners a visitor can still choose (issue 12); retired ones keep their name for members' records. */
export const openExchanges = (list: readonly ExchangeDictionaryEntry[]) =>
  list.filter((entry) => !entry.retired);

/**
 * Whether the list came back empty, which happens only when the dictionary could not be loaded: the
 * page shows `ExchangeListLoadError` with a retry instead of an empty picker.
 */
export function isExchangeListUnavailable(list: { isSuccess: boolean; data?: readonly unknown[] }) {
  return list.isSuccess && (list.data?.length ?? 0) === 0;
}

interface FirstPaintList {
  data?: ExchangeDictionaryEntry[];
  isSuccess: boolean;
  isFetching: boolean;
  refetch(): Promise<unknown>;
}

/**
 * The open partners for the home's search form, as `useOpenExchangeList` answers them but without
 * TanStack Query, which loads after the first paint (issue 14). The module's cache is shared: a list
 * the home loaded is the pages' too, and a failure is kept by neither.
 */
export function useOpenExchangesOnFirstPaint(): FirstPaintList {
  const [data, setData] = useState(() => (cached ? openExchanges(cached.exchangeList) : undefined));
  const [isFetching, setFetching] = useState(false);
  const load = useCallback(async () => {
    setFetching(true);
    // getExchangeList answers an empty list on a failure, never a rejection.
    setData(openExchanges(await getExchangeList()));
    setFetching(false);
  }, []);
  useEffect(() => {
    if (!cached) void whenFirstPainted().then(load);
  }, [load]);
  return { data, isSuccess: data !== undefined, isFetching, refetch: load };
}
