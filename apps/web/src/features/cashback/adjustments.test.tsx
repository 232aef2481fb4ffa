import type { AdjustmentRecord } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/helpers';
import RecordsPage from './records-page';
import RewardHistoryPage from './reward-history-page';
import { adjustmentRecord, pagesOf, rebateRecord, stubCashbackServer } from './testing/stub-cashback-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const adjustment = (overrides: Partial<AdjustmentRecord> = {}) => adjustmentRecord({ id: '1', ...overrides });

const itemsOf = (section: HTMLElement) =>
  within(section)
    .getAllByRole('listitem')
    .map((item) => Array.from(item.querySelectorAll('p')).map((line) => line.textContent));

describe('adjustments our team made', () => {
  it('shows a UID’s corrections under the cashback records: “Adjustment”, the reason as written, the signed amount', async () => {
    const server = stubCashbackServer({
      rebates: pagesOf([rebateRecord()]),
      adjustments: pagesOf([
        adjustment(),
        adjustment({ id: '2', amount: '-3.500000', reason: 'Duplicate credit' }),
      ]),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    const section = await screen.findByRole('region', { name: t('cashback.adjustments.title') });
    expect(itemsOf(section)).toEqual([
      [
        'Adjustment+12.345678 USDT',
        'Missed rebate for 3 March',
        expect.stringMatching(/^Bitget · 770001 · Mar 5, 2026/),
      ],
      ['Adjustment-3.50 USDT', 'Duplicate credit', expect.stringMatching(/^Bitget · 770001 · Mar 5, 2026/)],
    ]);
    expect(server.requests('/elex/user/seeAdjustments')[0]).toMatchObject({ account: 'cashback' });
  });

  it('shows rewards corrections in the reward history, labelled in the member’s language', async () => {
    await i18next.changeLanguage('zh');
    try {
      stubCashbackServer({
        myInfo: { exchangeBinds: [], totalReward: '150.000000', totalRebate: '0.000000' },
        rewards: pagesOf([]),
        adjustments: pagesOf([
          adjustment({ account: 'rewards', platId: null, uid: null, amount: '150.000000' }),
        ]),
      });
      renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
      const section = await screen.findByRole('region', { name: '调整' });
      expect(itemsOf(section)[0]).toEqual([
        '调整+150.00 USDT',
        'Missed rebate for 3 March',
        expect.stringMatching(/^奖励 · /),
      ]);
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('is absent for a member without corrections', async () => {
    stubCashbackServer({ rebates: pagesOf([rebateRecord()]) });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findAllByText('Bitget');
    expect(screen.queryByRole('region', { name: t('cashback.adjustments.title') })).toBeNull();
  });
});
