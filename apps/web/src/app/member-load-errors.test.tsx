import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ExchangeLinkDetailPage from '../features/cashback/exchange-link-detail-page';
import RecordsPage from '../features/cashback/records-page';
import RewardHistoryPage from '../features/cashback/reward-history-page';
import { rebateRecord, rewardRecord } from '../features/cashback/testing/stub-cashback-server';
import { MemberSummary } from '../features/home/components/member-summary';
import WithdrawalPage from '../features/withdrawal/withdrawal-page';
import { clearExchangeDictionary } from '../shared/exchanges/exchange-dictionary';
import { dictionaryEntry, dictionaryOf } from '../test/exchange-fixtures';
import { envelope, logIn, renderAt } from '../test/helpers';

const t = (key: string) => i18next.t(key);

const BINDING = {
  platId: 4,
  uid: '770001',
  balance: '12.500000',
  address: '0xabc',
  boundAt: '2026-01-01T00:00:00Z',
};

/** What each member call answers once the server is back. */
const ANSWERS: Record<string, unknown> = {
  '/elex/user/myInfo': { exchangeBinds: [BINDING], totalReward: '3.000000', totalRebate: '40.000000' },
  '/elex/user/seeRebateData': { records: [rebateRecord()], total: 1, page: 1, pageSize: 20, next: null },
  '/elex/user/seeRewardData': { records: [rewardRecord()], total: 1, page: 1, pageSize: 20 },
  '/elex/user/seeAdjustments': { records: [], total: 0, page: 1, pageSize: 20 },
  '/elex/user/seeRebateByExchangeId': {
    ...BINDING,
    totalRebate: '40.000000',
    pendingRebate: '0.000000',
    frozen: false,
    heldUntil: null,
    lastDataAt: null,
    daily: [],
  },
  '/elex/user/withdrawable': {
    minimum: '50.000000',
    lockedUntil: null,
    rewards: '3.000000',
    rewardsHeld: null,
    bindings: [
      {
        platId: 4,
        uid: '770001',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        cashback: '12.500000',
        withdrawable: '15.500000',
        shortfall: '34.500000',
        heldUntil: null,
        frozen: false,
      },
    ],
  },
  '/elex/user/profile': {
    email: 'member@example.com',
    userCode: 'EXABC234',
    inviteCode: 'ABCDEFGH',
    points: 0,
    xmeEnergy: 0,
    withdrawalLockedUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  '/elex/exchange/depositRecord': { records: [], total: 0, page: 1, pageSize: 10 },
};

/**
 * Every call but the dictionary fails with a server fault until `recover()`: what a member sees when
 * the server is down for a moment. Queries do not retry by themselves.
 */
function serveFailingUntilRecovered() {
  let down = true;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL) => {
      const path = String(url);
      if (path === '/elex/user/config/res.json') {
        return envelope(dictionaryOf([dictionaryEntry({ id: 4, name: 'Bitget', Abbreviation: 'BG' })]));
      }
      if (down) return envelope(null, 5000, 'Server error', 500);
      return path in ANSWERS ? envelope(ANSWERS[path]) : envelope(null, 1004, 'Not found', 404);
    }),
  );
  return {
    recover: () => {
      down = false;
    },
  };
}

beforeEach(() => {
  clearExchangeDictionary();
  logIn();
});

/**
 * A member page whose data call fails says so and offers to load it again (found in review: the
 * records, rewards, UID detail and withdrawal pages kept a skeleton for ever, the home showed nothing).
 */
describe.each<[string, () => ReactElement, string, string]>([
  ['the records', () => <RecordsPage />, '/mypage/records', '770001'],
  ['the rewards history', () => <RewardHistoryPage />, '/mypage/rewardHistory', 'fa***@example.com'],
  ['a UID’s detail', () => <ExchangeLinkDetailPage />, '/exchangeLinkDetail?platId=4&UID=770001', '40.00'],
  ['the withdrawal page', () => <WithdrawalPage />, '/withdrawal', '770001'],
  ['the home for members', () => <MemberSummary />, '/', '770001'],
])('%s, when its data cannot be loaded', (_name, page, path, shownAfter) => {
  it('says so with a retry, and shows the data once the retry succeeds', async () => {
    const server = serveFailingUntilRecovered();
    renderAt(page(), path);
    const retries = await screen.findAllByRole('button', { name: t('common.retry') });
    expect(
      screen.getAllByRole('alert').some((alert) => alert.textContent?.includes(t('common.loadFailed'))),
    ).toBe(true);
    expect(document.querySelector('.skeleton')).toBeNull();

    server.recover();
    const user = userEvent.setup();
    for (const retry of retries) await user.click(retry);
    await waitFor(() => expect(screen.queryByRole('button', { name: t('common.retry') })).toBeNull());
    expect(document.body.textContent).toContain(shownAfter);
  });
});

describe('the home for members', () => {
  it('shows an amount under a cent in full, as the other pages do, never as 0.00', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: RequestInfo | URL) =>
        String(url) === '/elex/user/myInfo'
          ? envelope({
              exchangeBinds: [{ ...BINDING, balance: '0.005000' }],
              totalReward: '0.004000',
              totalRebate: '0.005000',
            })
          : envelope(dictionaryOf([dictionaryEntry({ id: 4, name: 'Bitget', Abbreviation: 'BG' })])),
      ),
    );
    renderAt(<MemberSummary />, '/');
    await screen.findByText(/770001/);
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/0\.00 USDT/);
    expect(text).toContain('0.004');
    expect(text).toContain('0.005');
  });
});
