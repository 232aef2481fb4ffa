import type { ExchangeDictionary, ExchangeIndexResponse, ExchangeIndexRow } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { envelope, renderRoutes } from '../../test/helpers';
import { groupFames } from './components/hall-of-fame';
import HomePage from './home-page';

const t = (key: string) => i18next.t(key);

function row(
  platId: number,
  platname: string,
  score: number,
  cashRate: string,
  limitPrice: string,
  marketPrice: string,
  flags: Partial<Pick<ExchangeIndexRow, 'isRecommended' | 'isRacing'>> = {},
): ExchangeIndexRow {
  return {
    platId,
    platname,
    abbreviation: platname.slice(0, 2).toUpperCase(),
    logo: `/logos/${platname.slice(0, 2).toLowerCase()}.svg`,
    score,
    cashRate,
    limitPrice,
    marketPrice,
    personAvg: '100.000000',
    mark: [{ tag: 'popular', iconUrl: '/logos/tags/popular.svg' }],
    isRecommended: flags.isRecommended ?? false,
    isRacing: flags.isRacing ?? false,
  };
}

// Catalog order Alpha, Bravo, Charlie, Delta, Echo; every tab orders them differently.
const INDEX: ExchangeIndexResponse = {
  allExchange: [
    row(1, 'Alpha', 8.1, '30.00', '0.0200', '0.0500', { isRacing: true }),
    row(2, 'Bravo', 9.6, '5.50', '0.0000', '0.0400', { isRecommended: true }),
    row(3, 'Charlie', 9.0, '60.00', '0.0180', '0.0600', { isRecommended: true, isRacing: true }),
    row(4, 'Delta', 7.5, '45.00', '0.0250', '0.0550'),
    row(5, 'Echo', 8.8, '50.00', '0.0100', '0.0450', { isRacing: true }),
  ],
  fames: [
    { platId: 3, amount: '18452.370000' },
    { platId: 1, amount: '16210.080000' },
    { platId: 2, amount: '14987.660000' },
    { platId: 5, amount: '9000.000000' },
  ],
  hotActivity: [{ platId: 3, title: 'Charlie trading cup', activityUrl: 'https://charlie.example/cup' }],
  generalActivity: [{ platId: 1, title: 'Alpha new-user week', activityUrl: 'https://alpha.example/week' }],
};

const DICTIONARY: ExchangeDictionary = {
  exchangeList: INDEX.allExchange.map((exchange) => ({
    id: exchange.platId,
    name: exchange.platname,
    Abbreviation: exchange.abbreviation,
    logo: exchange.logo,
    signupUrl: `https://${exchange.platname.toLowerCase()}.example/join`,
    referralCode: 'ELEXCB',
    score: exchange.score,
    cashRate: exchange.cashRate,
    speedUpCashRate: exchange.cashRate,
    limitPrice: exchange.limitPrice,
    marketPrice: exchange.marketPrice,
    newUserDiscountPercent: 20,
    newUserDiscountDays: 90,
    mark: exchange.mark,
    isRecommended: exchange.isRecommended,
    isRacing: exchange.isRacing,
    feesCheckedOn: '2026-10-16',
  })),
  score: INDEX.allExchange.map((exchange) => ({ id: exchange.platId, score: exchange.score })),
};

/** spec section 4: each tab's names in the order it must show them. */
const EXPECTED: Record<string, string[]> = {
  'home.overall': ['Bravo', 'Charlie', 'Echo', 'Alpha', 'Delta'],
  'home.recommend': ['Bravo', 'Charlie'],
  'home.racing': ['Alpha', 'Charlie', 'Echo'],
  'home.mostCashback': ['Charlie', 'Echo', 'Delta', 'Alpha', 'Bravo'],
  'home.limitPrice': ['Delta', 'Alpha', 'Charlie', 'Echo', 'Bravo'],
  'home.marketPrice': ['Charlie', 'Delta', 'Alpha', 'Echo', 'Bravo'],
};
const TABS = ['overall', 'recommend', 'racing', 'mostCashback', 'limitPrice', 'marketPrice'] as const;

function stubServer(index: ExchangeIndexResponse = INDEX) {
  const fetchMock = vi.fn(async (url: RequestInfo | URL) => {
    if (String(url) === '/elex/exchange/index') return envelope(index);
    if (String(url) === '/elex/user/config/res.json') return envelope(DICTIONARY);
    return envelope(null, 1004, 'Not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

function renderHome(url = '/') {
  return renderRoutes(
    [
      { path: '/', element: <HomePage /> },
      { path: '/exchangeDetail', element: <p>detail page</p> },
      { path: '/exchangeNo', element: <p>uid search page</p> },
    ],
    url,
  );
}

/** The exchange names of the visible tab panel, in order (table rows on desktop, cards on mobile). */
function namesInPanel(): string[] {
  const panel = screen.getByRole('tabpanel');
  const table = within(panel).queryByRole('table');
  if (table)
    return within(table)
      .getAllByRole('rowheader')
      .map((cell) => within(cell).getByRole('link').textContent ?? '');
  // Each card is one link named by its exchange; collect the names in document order.
  const names: string[] = [];
  within(panel).getAllByRole('link', {
    name: (name) => {
      names.push(name);
      return true;
    },
  });
  return names;
}

beforeEach(() => {
  clearExchangeDictionary();
  setWidth(1280);
});

describe('home page, visitor view', () => {
  it('shows a skeleton while loading, then the ranking', async () => {
    stubServer();
    renderHome();
    expect(
      screen.getAllByRole('status').some((node) => node.textContent?.includes(t('common.loading'))),
    ).toBe(true);
    expect(await screen.findByRole('heading', { name: t('homePublic.rankingTitle') })).toBeInTheDocument();
  });

  it('offers the six tabs of spec section 4 in order, overall selected', async () => {
    stubServer();
    renderHome();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(TABS.map((key) => t(`homePublic.tabs.${key}`)));
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tablist', { name: t('homePublic.rankingTabs') })).toBeInTheDocument();
  });

  it.each([
    ['desktop table', 1280],
    ['mobile cards', 800],
  ])('sorts and filters each tab as spec section 4 says (%s)', async (_label, width) => {
    setWidth(width);
    stubServer();
    const user = userEvent.setup();
    renderHome();
    await screen.findAllByRole('tab');
    for (const key of TABS) {
      await user.click(screen.getByRole('tab', { name: t(`homePublic.tabs.${key}`) }));
      expect(screen.getByRole('tab', { name: t(`homePublic.tabs.${key}`) })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      expect(namesInPanel()).toEqual(EXPECTED[`home.${key}`]);
    }
  });

  it('shows the 30-day average on the mobile cards too (issue 15)', async () => {
    setWidth(800);
    stubServer();
    renderHome();
    await screen.findAllByRole('tab');
    const card = within(screen.getByRole('tabpanel')).getByRole('link', { name: 'Charlie' });
    expect(card).toHaveTextContent('30-day average: 100.00 USDT');
  });

  it('moves between tabs with the arrow keys', async () => {
    stubServer();
    const user = userEvent.setup();
    renderHome();
    const [overall] = await screen.findAllByRole('tab');
    overall?.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: t('homePublic.tabs.recommend') })).toHaveFocus();
    expect(namesInPanel()).toEqual(EXPECTED['home.recommend']);
  });

  it('leads from a row to /exchangeDetail?id=, by its link or by a click anywhere on the row', async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderHome();
    await screen.findAllByRole('tab');
    const link = within(screen.getByRole('tabpanel')).getByRole('link', { name: 'Charlie' });
    expect(link).toHaveAttribute('href', '/exchangeDetail?id=3');
    const rowOfDelta = screen.getByRole('row', { name: /Delta/ });
    await user.click(within(rowOfDelta).getAllByRole('cell')[2] as HTMLElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/exchangeDetail'));
    expect(router.state.location.search).toBe('?id=4');
  });

  it('opens activities in a new window', async () => {
    stubServer();
    renderHome();
    const hot = await screen.findByRole('link', { name: /Charlie trading cup/ });
    expect(hot).toHaveAttribute('href', 'https://charlie.example/cup');
    expect(hot).toHaveAttribute('target', '_blank');
    expect(hot.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: /Alpha new-user week/ })).toHaveAttribute('target', '_blank');
  });

  it('cites the $365 average monthly rebate and links the calculator', async () => {
    stubServer();
    renderHome();
    expect(screen.getByText(/\$365/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('home.calculatorBannerCta') })).toHaveAttribute(
      'href',
      '/calculator',
    );
    await screen.findAllByRole('tab');
  });

  it('quotes the discount, withdrawal minimum and review time from the contract in the steps', async () => {
    stubServer();
    renderHome();
    await screen.findAllByRole('tab');
    const steps = screen.getByRole('region', { name: t('home.stepsTitle') });
    expect(steps).toHaveTextContent(
      'Open an account at a partner exchange through our link and get a 20% fee discount for 90 days.',
    );
    expect(steps).toHaveTextContent(
      'From 50.00 USDT per UID you can withdraw; payouts are reviewed within 48 hours.',
    );
    expect(steps.textContent).not.toContain('{{');
  });

  it('shows 10 partner logos at most, each leading to its exchange', async () => {
    const extra = ['Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett', 'Kilo', 'Lima'].map((name, i) =>
      row(6 + i, name, 7.0, '40.00', '0.0200', '0.0500'),
    );
    const twelve = [...INDEX.allExchange, ...extra];
    expect(twelve).toHaveLength(12);
    stubServer({ ...INDEX, allExchange: twelve });
    renderHome();
    const partners = await screen.findByRole('region', { name: t('homePublic.partnersTitle') });
    const links = within(partners).getAllByRole('link');
    // spec section 2: 10 logos, the first 10 in catalog order.
    expect(links).toHaveLength(10);
    expect(links.map((link) => link.textContent)).toEqual(
      twelve.slice(0, 10).map((exchange) => exchange.platname),
    );
    expect(links[0]).toHaveAttribute('href', '/exchangeDetail?id=1');
    expect(links[9]).toHaveAttribute('href', '/exchangeDetail?id=10');
  });

  it('searches a UID: the picker and the box lead to /exchangeNo with uid and platId', async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderHome();
    const search = screen.getByRole('search', { name: t('homePublic.searchTitle') });
    const picker = within(search).getByRole('combobox', { name: t('homePublic.searchExchange') });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(5));
    await user.selectOptions(picker, 'Charlie');
    await user.type(within(search).getByRole('textbox', { name: t('homePublic.searchUid') }), '40512345');
    await user.click(within(search).getByRole('button', { name: t('homePublic.searchSubmit') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/exchangeNo'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      uid: '40512345',
      platId: '3',
    });
  });

  it('refuses a malformed UID with the shared message and stays', async () => {
    stubServer();
    const user = userEvent.setup();
    const { router } = renderHome();
    await screen.findAllByRole('tab');
    await user.type(screen.getByRole('textbox', { name: t('homePublic.searchUid') }), 'a b');
    await user.click(screen.getByRole('button', { name: t('homePublic.searchSubmit') }));
    expect(await screen.findByRole('alert')).toHaveTextContent(i18next.t('msg:uidInvalid'));
    expect(router.state.location.pathname).toBe('/');
  });

  it('stores the encr value of the address when none is stored', async () => {
    stubServer();
    renderHome('/?encr=PROMO1');
    await waitFor(() => expect(window.localStorage.getItem('encr')).toBe('PROMO1'));
    await screen.findAllByRole('tab');
  });

  it('keeps an encr value that is already stored', async () => {
    window.localStorage.setItem('encr', 'FIRST');
    stubServer();
    renderHome('/?encr=SECOND');
    await screen.findAllByRole('tab');
    expect(window.localStorage.getItem('encr')).toBe('FIRST');
  });

  it('says the list could not be loaded, with a way to try again, when the call fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope(null, 0, '', 500)),
    );
    renderHome();
    const alert = (await screen.findByText(t('homePublic.loadFailed'))).closest('[role="alert"]');
    expect(alert).not.toBeNull();
    expect(within(alert as HTMLElement).getByRole('button', { name: t('common.retry') })).toBeInTheDocument();
  });

  it('offers to load the exchange list again when the UID search cannot have it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const server = stubServer();
    server.mockImplementation(async (url: RequestInfo | URL) => {
      if (String(url) === '/elex/exchange/index') return envelope(INDEX);
      throw new TypeError('Failed to fetch');
    });
    const user = userEvent.setup();
    renderHome();
    const alert = (await screen.findByText(t('homePublic.searchUnavailable'))).closest('[role="alert"]');
    expect(screen.queryByRole('search')).not.toBeInTheDocument();

    stubServer();
    await user.click(within(alert as HTMLElement).getByRole('button', { name: t('common.retry') }));

    const search = await screen.findByRole('search', { name: t('homePublic.searchTitle') });
    const picker = within(search).getByRole('combobox', { name: t('homePublic.searchExchange') });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(5));
  });
});

describe('hall of fame (spec section 9)', () => {
  const fames = [1, 2, 3, 4, 5, 6, 7];

  it('groups 3 per slide on desktop', () => {
    expect(groupFames(fames, true)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('keeps only the first 3 on mobile', () => {
    expect(groupFames(fames, false)).toEqual([[1, 2, 3]]);
  });

  it('shows the fames as labelled slides with their amounts', async () => {
    stubServer();
    renderHome();
    const region = await screen.findByRole('region', { name: t('homePublic.fameTitle') });
    const slides = within(region).getAllByRole('group');
    expect(slides).toHaveLength(2);
    expect(within(slides[0] as HTMLElement).getAllByRole('listitem')).toHaveLength(3);
    expect(within(region).getByText('18,452.37 USDT')).toBeInTheDocument();
  });

  it('shows the first 3 fames as cards, without a slider, at mobile width', async () => {
    setWidth(390);
    stubServer({
      ...INDEX,
      fames: [...INDEX.fames, { platId: 4, amount: '8000.000000' }, { platId: 2, amount: '7000.000000' }],
    });
    renderHome();
    const region = await screen.findByRole('region', { name: t('homePublic.fameTitle') });
    const cards = within(region).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(cards.map((card) => within(card).getByText(/USDT$/).textContent)).toEqual([
      '18,452.37 USDT',
      '16,210.08 USDT',
      '14,987.66 USDT',
    ]);
    expect(within(region).queryByRole('group')).toBeNull();
    expect(within(region).queryByRole('button', { name: t('homePublic.nextSlide') })).toBeNull();
  });

  it('before any cashback is paid: no hall of fame, and averages say so instead of 0 USDT', async () => {
    stubServer({
      ...INDEX,
      fames: [],
      allExchange: INDEX.allExchange.map((exchange) => ({ ...exchange, personAvg: '0.000000' })),
    });
    renderHome();
    await screen.findByRole('heading', { name: t('homePublic.rankingTitle') });
    const table = within(screen.getByRole('tabpanel')).getByRole('table');
    expect(within(table).getAllByText(t('exchanges.noCashbackYet'))).toHaveLength(INDEX.allExchange.length);
    expect(within(table).queryByText('0.00 USDT')).toBeNull();
    expect(screen.queryByRole('region', { name: t('homePublic.fameTitle') })).toBeNull();
  });
});
