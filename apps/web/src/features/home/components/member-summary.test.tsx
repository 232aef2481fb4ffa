import { screen } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../../shared/exchanges/exchange-dictionary';
import { envelope, renderAt } from '../../../test/helpers';
import { MemberSummary } from './member-summary';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

function serve(myInfo: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL) => {
      if (String(url) === '/elex/user/myInfo') return envelope(myInfo);
      if (String(url) === '/elex/user/config/res.json') {
        return envelope({ exchangeList: [{ id: 4, name: 'Bitget', logo: '/logos/bg.svg' }], score: [] });
      }
      return envelope(null, 1004, 'Not found', 404);
    }),
  );
}

beforeEach(() => clearExchangeDictionary());

describe('home for members', () => {
  it('prompts to bind a UID when nothing is bound', async () => {
    serve({ exchangeBinds: [], totalReward: '0.000000', totalRebate: '0.000000' });
    renderAt(<MemberSummary />);
    expect(await screen.findByRole('heading', { name: t('homeMember.bindPromptTitle') })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('homeMember.bindPromptCta') })).toHaveAttribute(
      'href',
      '/uidlinking',
    );
  });

  it('shows totals, the withdraw button and each bound UID linking to its detail', async () => {
    serve({
      exchangeBinds: [
        { platId: 4, uid: '880011', balance: '61.250000', address: '0xabc', boundAt: '2026-01-01T00:00:00Z' },
      ],
      totalReward: '3.500000',
      totalRebate: '120.990000',
    });
    renderAt(<MemberSummary />);
    expect(await screen.findByText('120.99')).toBeInTheDocument();
    expect(screen.getByText('3.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('homeMember.withdraw') })).toHaveAttribute(
      'href',
      '/withdrawal',
    );
    expect(screen.getByRole('link', { name: t('homeMember.rewards') })).toHaveAttribute(
      'href',
      '/mypage/rewardHistory',
    );
    const row = await screen.findByRole('link', { name: /Bitget.*880011.*61\.25/ });
    expect(row).toHaveAttribute('href', '/exchangeLinkDetail?platId=4&UID=880011');
    expect(screen.getByRole('link', { name: t('homeMember.addExchange') })).toHaveAttribute(
      'href',
      '/uidlinking',
    );
  });
});
