import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadCsv } from '../../shared/download-csv';
import { renderAt, resizeTo } from '../../test/helpers';
import RewardHistoryPage from './reward-history-page';
import { adjustmentRecord, pagesOf, rewardRecord, stubCashbackServer } from './testing/stub-cashback-server';

vi.mock('../../shared/download-csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/download-csv')>()),
  downloadCsv: vi.fn(),
}));

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const myInfo = (totalReward: string) => ({ exchangeBinds: [], totalReward, totalRebate: '0.000000' });

beforeEach(() => vi.mocked(downloadCsv).mockClear());

describe('/mypage/rewardHistory', () => {
  it('shows the total and each reward: time, kind, the friend it came from and the amount', async () => {
    stubCashbackServer({
      myInfo: myInfo('12.345678'),
      rewards: pagesOf([
        rewardRecord({ createdAt: '2026-01-15T06:10:00.000Z' }),
        // A bonus under a cent shows in full, not as 0.00; a deleted friend shows a dash.
        rewardRecord({ amount: '0.004000', source: null, createdAt: '2026-01-14T06:10:00.000Z' }),
      ]),
    });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    expect(await screen.findByRole('term')).toHaveTextContent(t('cashback.totalReward'));
    await waitFor(() => expect(screen.getByRole('definition')).toHaveTextContent('12.34 USDT'));

    const table = await screen.findByRole('table', { name: t('pages.rewardHistory.title') });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      [expect.stringMatching(/^Jan 15, 2026/), 'Invite bonus', 'fa***@example.com', '0.52'],
      [expect.stringMatching(/^Jan 14, 2026/), 'Invite bonus', '—', '0.004'],
    ]);
  });

  it('on a 390 px phone lists each reward with its amount in view', async () => {
    // issue 15: the amount was the table's last column, off-screen at 390 px.
    resizeTo(390);
    stubCashbackServer({
      myInfo: myInfo('0.524000'),
      rewards: pagesOf([rewardRecord({ createdAt: '2026-01-15T06:10:00.000Z' })]),
    });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    const list = await screen.findByRole('list', { name: t('pages.rewardHistory.title') });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [entry] = within(list).getAllByRole('listitem') as [HTMLElement];
    expect(entry).toHaveTextContent('Invite bonus');
    expect(entry).toHaveTextContent('fa***@example.com');
    expect(within(entry).getByText('0.52')).toBeInTheDocument();
  });

  it('says so when there is no reward yet, and offers no export', async () => {
    stubCashbackServer({ myInfo: myInfo('0.000000'), rewards: pagesOf([]) });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    expect(await screen.findByText(t('cashback.noRewards'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('cashback.exportCsv') })).toBeDisabled();
  });

  it('exports every reward, page after page up to the total', async () => {
    const all = Array.from({ length: 230 }, (_, index) =>
      rewardRecord({ amount: `${index}.000000`, source: `f${index}***@example.com` }),
    );
    const server = stubCashbackServer({ myInfo: myInfo('1.000000'), rewards: pagesOf(all) });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    await screen.findByRole('table', { name: t('pages.rewardHistory.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));

    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    const [name, csv] = vi.mocked(downloadCsv).mock.calls[0] ?? [];
    expect(name).toBe('rewards.csv');
    const lines = String(csv).split('\r\n');
    expect(lines).toHaveLength(1 + 230);
    expect(lines[0]).toBe('Time (UTC),Type,Amount (USDT),Details');
    expect(lines[1]).toBe('2026-01-15T06:10:00.000Z,Invite bonus,0.000000,f0***@example.com');
    expect(lines[230]).toBe('2026-01-15T06:10:00.000Z,Invite bonus,229.000000,f229***@example.com');
    expect(
      server
        .requests('/elex/user/seeRewardData')
        .filter((body) => body.pageSize === 100)
        .map((body) => body.page),
    ).toEqual([1, 2, 3]);
  });

  it('exports our team’s corrections beside the rewards, newest first, so the file adds up to the total', async () => {
    stubCashbackServer({
      myInfo: myInfo('4.000000'),
      rewards: pagesOf([rewardRecord({ amount: '2.500000', createdAt: '2026-01-15T06:10:00.000Z' })]),
      adjustments: pagesOf([
        adjustmentRecord({
          account: 'rewards',
          platId: null,
          uid: null,
          amount: '2.000000',
          reason: 'Missed bonus, ticket 12',
          postedAt: '2026-01-20T09:00:00.000Z',
        }),
        adjustmentRecord({
          account: 'rewards',
          platId: null,
          uid: null,
          amount: '-0.500000',
          reason: 'Double credit',
          postedAt: '2026-01-10T09:00:00.000Z',
        }),
      ]),
    });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    await screen.findByRole('table', { name: t('pages.rewardHistory.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    const lines = String(vi.mocked(downloadCsv).mock.calls[0]?.[1]).split('\r\n');
    expect(lines).toEqual([
      'Time (UTC),Type,Amount (USDT),Details',
      '2026-01-20T09:00:00.000Z,Adjustment,2.000000,"Missed bonus, ticket 12"',
      '2026-01-15T06:10:00.000Z,Invite bonus,2.500000,fa***@example.com',
      '2026-01-10T09:00:00.000Z,Adjustment,-0.500000,Double credit',
    ]);
    // 2 + 2.5 - 0.5: the total the page shows.
    expect(screen.getByText('4.00')).toBeInTheDocument();
  });

  it('says the file is partial when the server stops short of its total', async () => {
    stubCashbackServer({
      myInfo: myInfo('1.000000'),
      rewards: (body) => ({
        records: body.page === 1 ? Array.from({ length: 30 }, () => rewardRecord()) : [],
        total: 45,
      }),
    });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    await screen.findByRole('table', { name: t('pages.rewardHistory.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
    expect(
      await screen.findByText(t('cashback.exportPartial', { count: 30, total: 45 })),
    ).toBeInTheDocument();
  });
  it.each([
    ['zh', '时间（UTC）,类型,金额（USDT）,详情', '邀请奖金', '调整'],
    ['ko', '시간 (UTC),유형,금액 (USDT),상세', '초대 보너스', '조정'],
    ['en', 'Time (UTC),Type,Amount (USDT),Details', 'Invite bonus', 'Adjustment'],
  ])(
    'writes the file in the member’s language (%s): headers and kinds; amounts exact',
    async (locale, header, bonus, adjustment) => {
      await i18next.changeLanguage(locale);
      stubCashbackServer({
        myInfo: myInfo('1234.567891'),
        rewards: pagesOf([rewardRecord({ amount: '1234.567891', createdAt: '2026-01-15T06:10:00.000Z' })]),
        adjustments: pagesOf([
          adjustmentRecord({
            account: 'rewards',
            platId: null,
            uid: null,
            amount: '-0.000001',
            reason: 'Double credit',
          }),
        ]),
      });
      renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
      await screen.findByRole('table', { name: t('pages.rewardHistory.title') });
      await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
      await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
      expect(String(vi.mocked(downloadCsv).mock.calls[0]?.[1]).split('\r\n')).toEqual([
        header,
        `2026-03-05T09:00:00.000Z,${adjustment},-0.000001,Double credit`,
        `2026-01-15T06:10:00.000Z,${bonus},1234.567891,fa***@example.com`,
      ]);
    },
  );

  it('exports a correction when it is the only entry: the total counts it', async () => {
    stubCashbackServer({
      myInfo: myInfo('3.000000'),
      rewards: pagesOf([]),
      adjustments: pagesOf([
        adjustmentRecord({
          account: 'rewards',
          platId: null,
          uid: null,
          amount: '3.000000',
          reason: 'Campaign prize',
        }),
      ]),
    });
    renderAt(<RewardHistoryPage />, '/mypage/rewardHistory');
    expect(await screen.findByText('Campaign prize')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalledTimes(1));
    expect(String(vi.mocked(downloadCsv).mock.calls[0]?.[1]).split('\r\n').slice(1)).toEqual([
      '2026-03-05T09:00:00.000Z,Adjustment,3.000000,Campaign prize',
    ]);
  });
});
