import type { AdjustmentRecord, BindingDetail, MyInfo, RebateRecord, RewardRecord } from '@elex/contract';
import { vi } from 'vitest';
import { dictionaryEntry, dictionaryOf } from '../../../test/exchange-fixtures';
import { envelope } from '../../../test/helpers';

/** Bitget (4) and Bybit (3), as the dictionary names them. */
const DICTIONARY = dictionaryOf([
  dictionaryEntry({ id: 4, name: 'Bitget', Abbreviation: 'BG', logo: '/logos/bg.svg' }),
  dictionaryEntry(),
]);

let ids = 0;

/** A settled daily Bitget record (50 % of a 10.5 USDT fee). */
export function rebateRecord(overrides: Partial<RebateRecord> = {}): RebateRecord {
  ids += 1;
  return {
    id: String(ids),
    platId: 4,
    uid: '770001',
    periodStart: '2026-01-13T00:00:00.000Z',
    periodEnd: '2026-01-14T00:00:00.000Z',
    tradingVolume: '25000.500000',
    fee: '10.500000',
    amount: '5.250000',
    status: 'completed',
    failureReason: null,
    createdAt: '2026-01-15T06:10:00.000Z',
    ...overrides,
  };
}

export function rewardRecord(overrides: Partial<RewardRecord> = {}): RewardRecord {
  ids += 1;
  return {
    id: String(ids),
    kind: 'inviteBonus',
    amount: '0.525000',
    source: 'fa***@example.com',
    createdAt: '2026-01-15T06:10:00.000Z',
    ...overrides,
  };
}

/** A correction our team posted (on a UID's cashback unless told otherwise). */
export function adjustmentRecord(overrides: Partial<AdjustmentRecord> = {}): AdjustmentRecord {
  ids += 1;
  return {
    id: String(ids),
    account: 'cashback',
    platId: 4,
    uid: '770001',
    amount: '12.345678',
    reason: 'Missed rebate for 3 March',
    postedAt: '2026-03-05T09:00:00.000Z',
    ...overrides,
  };
}

type Page<T> = { records: T[]; total: number };
/** A page of records as seeRebateData answers it: `next` names its last record when one follows. */
type RebateAnswer = Page<RebateRecord> & { next: string | null };
/** An answer refusing the call: its state and message, and the content some refusals carry. */
type Refusal = { refused: { state: number; msg: string; content?: unknown } };
type Body = Record<string, unknown> & { page?: number; pageSize?: number; after?: string };

/**
 * Serves a list the way the server pages it: `page` and `pageSize` from the request, or the records
 * after the one `after` names; total of all; `next` the page's last record exactly when a record
 * follows it (the server reads one more than the page holds), so a full last page has none.
 */
export function pagesOf<T extends { id: string }>(all: readonly T[]) {
  return (body: Body): Page<T> & { next: string | null } => {
    const pageSize = body.pageSize ?? 20;
    const start =
      body.after === undefined
        ? ((body.page ?? 1) - 1) * pageSize
        : all.findIndex((record) => record.id === body.after) + 1;
    const records = all.slice(start, start + pageSize);
    return { records, total: all.length, next: nextOf(records, start + pageSize < all.length) };
  };
}

/** The server's `next`: the page's last record when a record follows it, else null. */
export function nextOf(records: readonly { id: string }[], more: boolean): string | null {
  return more ? (records.at(-1)?.id ?? null) : null;
}

/**
 * The member calls of the cashback pages over a stubbed fetch. Each answer may be a function of the
 * request's body; every request body is kept, per path, for assertions.
 */
export function stubCashbackServer(answers: {
  rebates?: (body: Body) => RebateAnswer | Refusal;
  rewards?: (body: Body) => Page<RewardRecord>;
  /** Our team's corrections; none unless given. */
  adjustments?: (body: Body) => Page<AdjustmentRecord>;
  myInfo?: MyInfo;
  detail?: BindingDetail;
}) {
  const requests = new Map<string, Body[]>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = String(url);
      const body = (init?.body ? JSON.parse(String(init.body)) : {}) as Body;
      requests.set(path, [...(requests.get(path) ?? []), body]);
      if (path === '/elex/user/config/res.json') return envelope(DICTIONARY);
      if (path === '/elex/user/seeRebateData' && answers.rebates) {
        const answer = answers.rebates(body);
        if ('refused' in answer) {
          return envelope(answer.refused.content ?? null, answer.refused.state, answer.refused.msg);
        }
        const { records, total, next } = answer;
        return envelope({ records, total, page: body.page ?? 1, pageSize: body.pageSize ?? 20, next });
      }
      if (path === '/elex/user/seeRewardData' && answers.rewards) {
        const { records, total } = answers.rewards(body);
        return envelope({ records, total, page: body.page ?? 1, pageSize: body.pageSize ?? 20 });
      }
      if (path === '/elex/user/seeAdjustments') {
        const { records, total } = answers.adjustments?.(body) ?? { records: [], total: 0 };
        return envelope({ records, total, page: body.page ?? 1, pageSize: body.pageSize ?? 20 });
      }
      if (path === '/elex/user/myInfo' && answers.myInfo) return envelope(answers.myInfo);
      if (path === '/elex/user/seeRebateByExchangeId' && answers.detail) return envelope(answers.detail);
      return envelope(null, 1004, 'Not found', 404);
    }),
  );
  return { requests: (path: string) => requests.get(path) ?? [] };
}
