import { CASHBACK, LOCALES } from '@elex/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { dictionaryEntry, dictionaryOf } from '../../test/exchange-fixtures';
import { envelope, renderRoutes } from '../../test/helpers';
import ExchangeListPage from './exchange-list-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const PARTNERS = [
  dictionaryEntry(),
  dictionaryEntry({
    id: 7,
    name: 'MEXC',
    Abbreviation: 'MX',
    logo: '/logos/mx.svg',
    signupUrl: 'https://www.mexc.com/register?inviteCode=ELEXCB',
    score: 8.7,
    cashRate: '50.00',
    speedUpCashRate: '60.00',
    limitPrice: '0.0000',
    marketPrice: '0.0400',
  }),
];

/** Each partner's figures as the card must show them, whatever the language (Intl keeps these digits). */
const FIGURES: Record<string, { cashRate: string; speedUp: string; limit: string; market: string }> = {
  Bybit: { cashRate: '40%', speedUp: '55%', limit: '0.02%', market: '0.055%' },
  MEXC: { cashRate: '50%', speedUp: '60%', limit: '0%', market: '0.04%' },
};

function openList() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL) =>
      String(url) === '/elex/user/config/res.json' ? envelope(dictionaryOf(PARTNERS)) : envelope(null),
    ),
  );
  return renderRoutes([{ path: '/exchange', element: <ExchangeListPage /> }], '/exchange');
}

/** A card's figures: each term with its definition. */
function figuresOf(card: HTMLElement): Record<string, string | undefined> {
  const terms = within(card).getAllByRole('term');
  const definitions = within(card).getAllByRole('definition');
  return Object.fromEntries(terms.map((term, i) => [term.textContent, definitions[i]?.textContent?.trim()]));
}

beforeEach(() => {
  clearExchangeDictionary();
  window.innerWidth = 1280;
});

describe.each(LOCALES)('/exchange in %s', (locale) => {
  beforeEach(async () => {
    await i18next.changeLanguage(locale);
  });

  it('lists every partner with its figures, the new-user discount and a sign-up call to action', async () => {
    openList();
    expect(await screen.findByRole('heading', { level: 1, name: t('pages.exchange.title') })).toBeVisible();
    expect(screen.getByText(t('pages.exchange.intro'))).toBeVisible();
    const cards = await screen.findAllByRole('listitem');
    expect(cards).toHaveLength(PARTNERS.length);
    for (const [index, partner] of PARTNERS.entries()) {
      const card = cards[index] as HTMLElement;
      const figures = FIGURES[partner.name];
      expect(within(card).getByRole('heading', { level: 2, name: partner.name })).toBeVisible();
      expect(figuresOf(card)).toEqual({
        [t('exchanges.columns.cashRate')]: figures?.cashRate,
        [t('exchanges.speedUpShort', { weeks: CASHBACK.speedUpWeeks })]: figures?.speedUp,
        [t('exchanges.columns.limitPrice')]: figures?.limit,
        [t('exchanges.columns.marketPrice')]: figures?.market,
      });
      const discount = t('exchanges.signup.discount', {
        percent: CASHBACK.newUserDiscountPercent,
        days: CASHBACK.newUserDiscountDays,
      });
      expect(within(card).getByText(discount)).toBeVisible();
      expect(discount).toContain(`${CASHBACK.newUserDiscountPercent}%`);
      expect(
        within(card).getByRole('button', { name: t('exchanges.signupCta', { name: partner.name }) }),
      ).toBeVisible();
      expect(
        within(card).getByRole('link', { name: `${t('exchanges.detailsCta')} ${partner.name}` }),
      ).toHaveAttribute('href', `/exchangeDetail?id=${partner.id}`);
    }
    expect(document.body.textContent).not.toContain('{{');
  });

  it("opens the partner's sign-up dialog from its card", async () => {
    const user = userEvent.setup();
    openList();
    await user.click(await screen.findByRole('button', { name: t('exchanges.signupCta', { name: 'MEXC' }) }));
    const dialog = await screen.findByRole('dialog', { name: t('exchanges.signup.title', { name: 'MEXC' }) });
    expect(
      within(dialog).getByRole('link', { name: new RegExp(t('exchanges.signup.open', { name: 'MEXC' })) }),
    ).toHaveAttribute('href', 'https://www.mexc.com/register?inviteCode=ELEXCB');
  });
});
