import type { SupportDetail, SupportRequestSummary } from '@elex/contract';
import { vi } from 'vitest';
import { dictionaryEntry, dictionaryOf } from '../../../test/exchange-fixtures';
import { envelope } from '../../../test/helpers';

/** Bitget (4) and Bybit (3), as the dictionary names them. */
const DICTIONARY = dictionaryOf([
  dictionaryEntry({ id: 4, name: 'Bitget', Abbreviation: 'BG', logo: '/logos/bg.svg' }),
  dictionaryEntry(),
]);

export const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export function summary(overrides: Partial<SupportRequestSummary> = {}): SupportRequestSummary {
  return {
    id: '12',
    kind: 'missingCashback',
    platId: 4,
    uid: '770001',
    status: 'open',
    resolution: null,
    createdAt: '2026-01-15T10:00:00.000Z',
    updatedAt: '2026-01-15T10:00:00.000Z',
    ...overrides,
  };
}

/** A 1×1 PNG: the bytes a screenshot would start with, small enough for any check. */
export const PNG_BYTES = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (character) => character.charCodeAt(0),
);
export const PNG_BASE64 = btoa(String.fromCharCode(...PNG_BYTES));

export function detail(overrides: Partial<SupportDetail> = {}): SupportDetail {
  return {
    ...summary(),
    address: null,
    messages: [
      {
        id: '1',
        author: 'member',
        text: 'The cashback of January 12 is missing.\nI traded 25,000 USDT that day.',
        image: `data:image/png;base64,${PNG_BASE64}`,
        imageErased: false,
        createdAt: '2026-01-15T10:00:00.000Z',
      },
      {
        id: '2',
        author: 'operator',
        text: 'We are checking the exchange report of that day.',
        image: null,
        imageErased: false,
        createdAt: '2026-01-15T12:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

type Body = Record<string, unknown>;
type Answer = (body: Body) => Response;

/**
 * The member's support calls over a stubbed fetch; each answer may read the request's body, and every
 * body is kept per path for assertions.
 */
export function stubSupportServer(answers: Partial<Record<'create' | 'list' | 'detail' | 'reply', Answer>>) {
  const requests = new Map<string, Body[]>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = String(url);
      const body = (init?.body ? JSON.parse(String(init.body)) : {}) as Body;
      requests.set(path, [...(requests.get(path) ?? []), body]);
      if (path === '/elex/user/config/res.json') return envelope(DICTIONARY);
      const call = path.startsWith('/elex/support/') ? path.slice('/elex/support/'.length) : '';
      const answer = answers[call as keyof typeof answers];
      if (answer) return answer(body);
      return envelope(null, 1004, 'Not found', 404);
    }),
  );
  return { requests: (path: string) => requests.get(path) ?? [] };
}
