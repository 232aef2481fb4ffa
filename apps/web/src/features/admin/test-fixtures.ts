import type { CatalogExchange, WithdrawalQueueItem } from '@elex/contract';
import { vi } from 'vitest';
import { envelope } from '../../test/helpers';

/** A partner as the console's catalog call answers it, for the console's page tests. */
export function catalogExchange(overrides: Partial<CatalogExchange>): CatalogExchange {
  return {
    platId: 1,
    status: 'live',
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

export const TEST_OPERATOR = { userId: 7, email: 'ops@example.com', userCode: 'EXOPS234' };

type Handler = (body: Record<string, unknown>) => Response | Promise<Response>;

/**
 * Stubs fetch to answer the console's calls by path: the operator is logged in, the catalog empty
 * unless a handler says otherwise, anything else an empty success. Answers the calls made.
 */
export function serveConsole(handlers: Record<string, Handler>) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  const all: Record<string, Handler> = {
    '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
    '/elex/admin/catalog': () => envelope({ exchanges: [] }),
    ...handlers,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      calls.push({ path, body });
      const handler = all[path];
      return handler ? handler(body) : envelope(null);
    }),
  );
  return calls;
}

/** A pending withdrawal of 60 USDT as the queue answers it, with its balance history. */
export function pendingItem(overrides: Partial<WithdrawalQueueItem> = {}): WithdrawalQueueItem {
  const zero = { count: 0, amount: '0.000000' };
  return {
    id: '31',
    status: 'pending',
    platId: 4,
    uid: '40512345',
    amount: '60.000000',
    cashbackPart: '60.000000',
    rewardsPart: '0.000000',
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    createdAt: '2026-06-01T10:00:00.000Z',
    decidedAt: null,
    txHash: null,
    failureReason: null,
    payout: null,
    fastLane: null,
    member: {
      userId: 12,
      email: 'member@example.com',
      userCode: 'EXMEM234',
      memberSince: null,
      suspendedAt: null,
    },
    isBindingLive: true,
    isOverdue: false,
    balanceHistory: [
      {
        at: '2026-06-01T10:00:00.000Z',
        account: 'cashback',
        kind: 'withdrawalHold',
        amount: '-60.000000',
        balanceAfter: '40.000000',
      },
      {
        at: '2026-05-30T06:00:00.000Z',
        account: 'cashback',
        kind: 'rebate',
        amount: '100.000000',
        balanceAfter: '100.000000',
      },
    ],
    summary: {
      cashbackEarned: '100.000000',
      cashbackBalance: '40.000000',
      rewardsEarned: '0.000000',
      rewardsBalance: '0.000000',
      withdrawals: {
        pending: { count: 1, amount: '60.000000' },
        completed: zero,
        failed: zero,
        cancelled: zero,
      },
    },
    ...overrides,
  };
}
