import type { AdjustmentRecord } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../test/helpers';
import RecordsPage from './records-page';
import RewardHistoryPage from './reward-history-page';
import { pagesOf, rebateRecord, stubCashbackServer } from './testing/stub-cashback-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

function adjustment(overrides: Partial<AdjustmentRecord> = {}): AdjustmentRecord {
  return {
    id: '1',
    account: 'cashback',
    platId: 4,
    uid: '770001',
    amount: '12.345678',
    reason: 'Missed rebate for 3 March',
    postedAt: '2026-03-05T09:00:00.000Z',
    ...overrides,
  };
}

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

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
    const table = within(section).getByRole('table');
    expect(cellsOf(table)).toEqual([
      [
        expect.stringMatching(/^Mar 5, 2026/),
        'Bitget · 770001',
        'Adjustment Missed rebate for 3 March',
        '+12.345678',
      ],
      [expect.stringMatching(/^Mar 5, 2026/), 'Bitget · 770001', 'Adjustment Duplicate credit', '-3.50'],
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
      expect(cellsOf(within(section).getByRole('table'))[0]?.slice(1)).toEqual([
        '奖励',
        '调整 Missed rebate for 3 March',
        '+150.00',
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
