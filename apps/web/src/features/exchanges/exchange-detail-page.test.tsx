import { CASHBACK, type ExchangeDetailResponse } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { envelope, renderRoutes } from '../../test/helpers';
import ExchangeDetailPage from './exchange-detail-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const REGULAR = { level: 'VIP 0', volume30d: null, asset: null, limitPrice: '0.0200', marketPrice: '0.0600' };

function detail(overrides: Partial<ExchangeDetailResponse> = {}): ExchangeDetailResponse {
  return {
    platId: 9,
    platname: 'KuCoin',
    abbreviation: 'KC',
    logo: '/logos/kc.svg',
    score: 8.5,
    mark: [],
    signupUrl: 'https://www.kucoin.com/r/af/REAL42',
    referralCode: 'REAL42',
    limitPrice: '0.0200',
    marketPrice: '0.0600',
    cashRate: '45.00',
    speedUpCashRate: '55.00',
    speedUpWeeks: 3,
    newUserDiscountPercent: CASHBACK.newUserDiscountPercent,
    newUserDiscountDays: CASHBACK.newUserDiscountDays,
    vipRule: 'either',
    vipTiers: [
      REGULAR,
      {
        level: 'VIP 1',
        volume30d: '5000000',
        asset: { amount: '1000', symbol: 'KCS' },
        limitPrice: '0.0180',
        marketPrice: '0.0600',
      },
    ],
    personAvg: '120.500000',
    rankingDays: 30,
    ranking: [{ rank: 1, uid: '12****89', amount: '950.000000' }],
    activities: [],
    feesCheckedOn: '2026-11-22',
    ...overrides,
  };
}

function openDetail(answer: ExchangeDetailResponse) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope(answer)),
  );
  renderRoutes(
    [{ path: '/exchangeDetail', element: <ExchangeDetailPage /> }],
    `/exchangeDetail?id=${answer.platId}`,
  );
}

describe('exchange detail page', () => {
  it('shows the VIP table with its rule, requirements and fees', async () => {
    openDetail(detail());
    const vip1 = await screen.findByRole('row', { name: /VIP 1/ });
    expect(screen.getByText(t('exchanges.detail.vipRule.either'))).toBeVisible();
    expect(within(vip1).getByText(t('exchanges.detail.atLeast', { amount: '5,000,000 USDT' }))).toBeVisible();
    expect(within(vip1).getByText(t('exchanges.detail.atLeast', { amount: '1,000 KCS' }))).toBeVisible();
    expect(within(vip1).getByText('0.018%')).toBeVisible();
  });

  it('dates the fee check in the reader’s language, not as 2026-11-22', async () => {
    await i18next.changeLanguage('zh');
    openDetail(detail());
    expect(
      await screen.findByText(t('exchanges.detail.feesChecked', { date: '2026年11月22日' })),
    ).toBeVisible();
    expect(screen.queryByText(/2026-11-22/)).toBeNull();
  });

  it('says a retired partner takes no new bindings and offers neither sign-up nor binding', async () => {
    openDetail(detail({ retired: true, signupUrl: null, referralCode: null }));
    expect(await screen.findByText(t('msg:exchangeRetired'))).toBeVisible();
    expect(screen.queryByRole('button', { name: t('exchanges.signupCta', { name: 'KuCoin' }) })).toBeNull();
    expect(screen.queryByRole('link', { name: t('exchanges.signup.bind') })).toBeNull();
  });

  it('says why only the regular level is listed when no VIP level is confirmed', async () => {
    openDetail(detail({ vipTiers: [REGULAR] }));
    expect(await screen.findByText(t('exchanges.detail.vipRegularOnly', { name: 'KuCoin' }))).toBeVisible();
    expect(screen.queryByText(t('exchanges.detail.vipRule.either'))).toBeNull();
  });

  it('shows the measured average and ranking, or says that nothing was paid yet', async () => {
    openDetail(detail());
    expect(await screen.findByText('120.50 USDT')).toBeVisible();
    expect(screen.getByText('12****89')).toBeVisible();
  });

  it('says "no cashback yet" instead of an average of 0 and an empty ranking', async () => {
    openDetail(detail({ personAvg: '0.000000', ranking: [] }));
    const empty = await screen.findByText(t('exchanges.noCashbackYet'));
    expect(empty).toBeVisible();
    // A plain sentence, not the average's big figure (issue 15: it read like an error).
    expect(empty).not.toHaveClass('detail-average');
    expect(screen.getByText(t('exchanges.detail.rankingEmpty'))).toBeVisible();
    expect(screen.queryByText('0.00 USDT')).toBeNull();
  });

  it('leads to the sign-up link with our code, the new-user discount and the UID binding', async () => {
    const user = userEvent.setup();
    openDetail(detail());
    await user.click(
      await screen.findByRole('button', { name: t('exchanges.signupCta', { name: 'KuCoin' }) }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: t('exchanges.signup.title', { name: 'KuCoin' }),
    });
    const signup = within(dialog).getByRole('link', {
      name: new RegExp(t('exchanges.signup.open', { name: 'KuCoin' })),
    });
    expect(signup).toHaveAttribute('href', 'https://www.kucoin.com/r/af/REAL42');
    expect(signup).toHaveAttribute('target', '_blank');
    expect(signup.getAttribute('rel')).toContain('noopener');
    expect(within(dialog).getByText('REAL42')).toBeVisible();
    expect(
      within(dialog).getByText(
        t('exchanges.signup.discount', {
          percent: CASHBACK.newUserDiscountPercent,
          days: CASHBACK.newUserDiscountDays,
        }),
      ),
    ).toBeVisible();
    expect(within(dialog).getByText(/20%/)).toBeVisible();
    expect(within(dialog).getByRole('link', { name: t('exchanges.signup.bind') })).toHaveAttribute(
      'href',
      '/uidlinking?platId=9',
    );
  });
});
