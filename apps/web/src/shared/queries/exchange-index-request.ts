import type { ExchangeIndexResponse } from '@elex/contract';
import { API } from '@elex/contract';
import { apiCall } from '../api/api-client';

/**
 * Checked by hand rather than with the contract's zod schema: the home page is the first download,
 * and zod stays out of it (docs/decisions.md).
 */
function toExchangeIndex(content: unknown): ExchangeIndexResponse {
  const value = content as Partial<ExchangeIndexResponse> | null;
  const lists = [value?.allExchange, value?.fames, value?.generalActivity, value?.hotActivity];
  if (!lists.every(Array.isArray)) throw new Error('the exchange index is missing a list');
  return value as ExchangeIndexResponse;
}

const requestExchangeIndex = async () => toExchangeIndex(await apiCall(API.exchangeIndex, {}));

/** As long as the query would keep the answer fresh (query-scope.tsx): an older early answer is asked again. */
const EARLY_ANSWER_KEPT_MS = 30_000;
let early: { answer: Promise<ExchangeIndexResponse>; at: number } | undefined;

/**
 * `POST /elex/exchange/index` as soon as the home's first render has painted, before TanStack Query and
 * the sections that show the answer have loaded (issue 14): the request does not wait for them.
 */
export function requestExchangeIndexEarly() {
  if (early) return;
  const answer = requestExchangeIndex();
  // Its failure is the query's to show, when it takes the answer.
  answer.catch(() => undefined);
  early = { answer, at: Date.now() };
}

/** The query's fetch: the early request's answer, once, or a new request. */
export function fetchExchangeIndex(): Promise<ExchangeIndexResponse> {
  const taken = early;
  early = undefined;
  return taken && Date.now() - taken.at < EARLY_ANSWER_KEPT_MS ? taken.answer : requestExchangeIndex();
}
