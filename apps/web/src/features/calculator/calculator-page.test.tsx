import type { CashbackEstimateResponse, ExchangeDictionary } from '@elex/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/providers';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { createQueryClient, QueryScope } from '../../shared/queries/query-scope';
import { envelope, renderAt } from '../../test/helpers';
import CalculatorPage from './calculator-page';

// recharts needs layout measurements jsdom does not make; the chart has its own e2e check.
vi.mock('./components/comparison-chart', () => ({ default: () => null }));

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const entry = (id: number, name: string, limitPrice: string, marketPrice: string, cashRate: string) => ({
  id,
  name,
  Abbreviation: name.slice(0, 2).toUpperCase(),
  logo: `/logos/${name.slice(0, 2).toLowerCase()}.svg`,
  signupUrl: `https://${name.toLowerCase()}.example/join`,
  referralCode: 'ELEXCB',
  score: 9,
  cashRate,
  speedUpCashRate: cashRate,
  limitPrice,
  marketPrice,
  newUserDiscountPercent: 20,
  newUserDiscountDays: 90,
  mark: [],
  isRecommended: false,
  isRacing: false,
  feesCheckedOn: null,
});

const DICTIONARY: ExchangeDictionary = {
  exchangeList: [
    entry(1, 'Binance', '0.0200', '0.0500', '30.00'),
    entry(3, 'Bybit', '0.0200', '0.0550', '40.00'),
  ],
  score: [
    { id: 1, score: 9 },
    { id: 3, score: 9 },
  ],
};

const ESTIMATE: CashbackEstimateResponse = {
  platId: 3,
  monthly: '630.000000',
  sixMonths: '3780.000000',
  limitPrice: '0.0200',
  marketPrice: '0.0550',
  cashRate: '40.00',
  vipLevel: null,
  commissionShare: null,
  newTrader: {
    monthly: '636.300000',
    sixMonths: '3534.300000',
    speedUpCashRate: '55.00',
    speedUpDays: 21,
    discountPercent: 20,
    discountDays: 90,
  },
  comparisons: [
    { platId: 3, platname: 'Bybit', monthly: '630.000000' },
    { platId: 1, platname: 'Binance', monthly: '441.000000' },
  ],
};

function stubServer(estimate: () => Promise<Response> = async () => envelope(ESTIMATE)) {
  const fetchMock = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
    if (String(url) === '/elex/user/config/res.json') return envelope(DICTIONARY);
    if (String(url) === '/elex/exchange/estimate') return estimate();
    return envelope(null, 1004, 'Not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const next = () => screen.getByRole('button', { name: t('calculator.next') });

beforeEach(() => {
  clearExchangeDictionary();
});

/** Bybit, 20x, 2,000 USDT, 2-5 trades a day: the four steps, then the result region. */
async function answerBybitTwentyTimesTwoThousand() {
  const user = userEvent.setup();
  renderAt(<CalculatorPage />, '/calculator');
  await user.click(await screen.findByRole('radio', { name: 'Bybit' }));
  await user.click(next());
  const leverage = screen.getByRole('spinbutton', { name: t('calculator.leverageLabel') });
  await user.clear(leverage);
  await user.type(leverage, '20');
  await user.click(next());
  await user.type(screen.getByRole('textbox', { name: t('calculator.seedLabel') }), '2,000');
  await user.click(next());
  await user.click(screen.getByRole('radio', { name: t('calculator.frequencies.twoToFive') }));
  await user.click(screen.getByRole('button', { name: t('calculator.calculate') }));
  return screen.findByRole('region', {
    name: t('calculator.resultTitle', { name: 'Bybit' }),
  });
}

describe('the calculator (spec section 2)', () => {
  it('walks the four steps, shows a loading state, then the result with the summary and the formula', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubServer(() => new Promise((resolve) => (answer = resolve)));
    const user = userEvent.setup();
    renderAt(<CalculatorPage />, '/calculator');

    expect(screen.getByText(/55,994/)).toBeInTheDocument();
    await user.click(await screen.findByRole('radio', { name: 'Bybit' }));
    await user.click(next());

    const leverage = screen.getByRole('spinbutton', { name: t('calculator.leverageLabel') });
    await user.clear(leverage);
    await user.type(leverage, '20');
    await user.click(next());

    await user.type(screen.getByRole('textbox', { name: t('calculator.seedLabel') }), '2,000');
    await user.click(next());

    await user.click(screen.getByRole('radio', { name: t('calculator.frequencies.twoToFive') }));
    await user.click(screen.getByRole('button', { name: t('calculator.calculate') }));

    expect(await screen.findByRole('status')).toHaveTextContent(t('calculator.loading'));
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/elex/exchange/estimate') ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      platId: 3,
      leverage: 20,
      seed: '2,000',
      frequency: 'twoToFive',
    });
    answer(envelope(ESTIMATE));

    const result = await screen.findByRole('region', {
      name: t('calculator.resultTitle', { name: 'Bybit' }),
    });
    expect(within(result).getAllByText('630.00 USDT').length).toBeGreaterThan(0);
    expect(within(result).getByText('3,780.00 USDT')).toBeInTheDocument();
    expect(
      within(result).getByText(
        '3.5 trades a day × 30 days × 2,000.00 USDT seed × 20x leverage × 0.0375% average fee × 40% cashback = 630.00 USDT.',
      ),
    ).toBeInTheDocument();
    expect(within(result).getByText(t('calculator.frequencies.twoToFive'))).toBeInTheDocument();
    const newTrader = within(result).getByRole('region', { name: 'If you sign up now with our code' });
    expect(within(newTrader).getByText('First 30 days').nextSibling).toHaveTextContent('636.30 USDT');
    expect(within(newTrader).getByText('First 6 months').nextSibling).toHaveTextContent('3,534.30 USDT');
    expect(
      within(newTrader).getByText(
        'For the first 21 days you get 55% back instead of 40%; for the first 90 days your fees are 20% lower, so there is less fee to pay back.',
      ),
    ).toBeInTheDocument();
    expect(
      within(result).getByRole('link', { name: t('calculator.signupAt', { name: 'Bybit' }) }),
    ).toHaveAttribute('href', '/exchangeDetail?id=3');
    await waitFor(() => expect(screen.getByRole('heading', { name: /Bybit/, level: 2 })).toHaveFocus());
  });

  it('shows the formula with the rates the server computed with, and the VIP level the volume reaches', async () => {
    // The server holds a newer cash rate than this page's dictionary (40 %), and the answers reach VIP 1.
    stubServer(async () =>
      envelope({
        ...ESTIMATE,
        monthly: '548.100000',
        sixMonths: '3288.600000',
        limitPrice: '0.0180',
        marketPrice: '0.0400',
        cashRate: '45.00',
        vipLevel: 'VIP 1',
      }),
    );
    const result = await answerBybitTwentyTimesTwoThousand();
    expect(
      within(result).getByText(
        '3.5 trades a day × 30 days × 2,000.00 USDT seed × 20x leverage × 0.029% average fee × 45% cashback = 548.10 USDT.',
      ),
    ).toBeInTheDocument();
    expect(within(result).getByText(t('calculator.vipLevelNote', { level: 'VIP 1' }))).toBeInTheDocument();
  });

  it('shows a new trader’s first 30 days and 6 months beside the regular figures, and a commission cap', async () => {
    stubServer(async () =>
      envelope({
        ...ESTIMATE,
        monthly: '472.500000',
        sixMonths: '2835.000000',
        cashRate: '30.00',
        commissionShare: '30.00',
        newTrader: {
          ...ESTIMATE.newTrader,
          monthly: '378.000000',
          sixMonths: '2551.500000',
          speedUpCashRate: '30.00',
        },
      }),
    );
    const result = await answerBybitTwentyTimesTwoThousand();
    expect(within(result).getByText('2,835.00 USDT')).toBeInTheDocument();
    expect(
      within(result).getByText(
        "Rates above 30% are lowered to 30%, the share of its traders' fees this exchange paid us in the last 30 days: we never promise more than we receive.",
      ),
    ).toBeInTheDocument();
    const newTrader = within(result).getByRole('region', { name: 'If you sign up now with our code' });
    expect(within(newTrader).getByText('First 30 days').nextSibling).toHaveTextContent('378.00 USDT');
    expect(within(newTrader).getByText('First 6 months').nextSibling).toHaveTextContent('2,551.50 USDT');
    expect(
      within(newTrader).getByText(
        'For the first 90 days your fees are 20% lower, so there is less fee to pay back.',
      ),
    ).toBeInTheDocument();
  });

  it('leaves out a discount the partner does not give, and the box when a new trader gets nothing more', async () => {
    const noDiscount = { ...ESTIMATE.newTrader, discountPercent: 0, discountDays: 0 };
    stubServer(async () => envelope({ ...ESTIMATE, newTrader: noDiscount }));
    const result = await answerBybitTwentyTimesTwoThousand();
    expect(
      within(result).getByText('For the first 21 days you get 55% back instead of 40%.'),
    ).toBeInTheDocument();
    expect(
      within(result).getByText("A regular 30 days: your account's first 21 days are over."),
    ).toBeInTheDocument();
    expect(within(result).queryByText(/0% lower/)).not.toBeInTheDocument();
  });

  it('shows no new-trader box when neither a speed-up nor a discount applies', async () => {
    const nothingMore = {
      ...ESTIMATE.newTrader,
      speedUpCashRate: '40.00',
      discountPercent: 0,
      discountDays: 0,
    };
    stubServer(async () => envelope({ ...ESTIMATE, newTrader: nothingMore }));
    const result = await answerBybitTwentyTimesTwoThousand();
    expect(within(result).getAllByText('630.00 USDT').length).toBeGreaterThan(0);
    expect(within(result).queryByRole('region', { name: 'If you sign up now with our code' })).toBeNull();
  });

  it.each(['020', '20.0'])(
    'shows the leverage typed as %s as the number 20 in the formula and the summary',
    async (typed) => {
      const fetchMock = stubServer();
      const user = userEvent.setup();
      renderAt(<CalculatorPage />, '/calculator');
      await user.click(await screen.findByRole('radio', { name: 'Bybit' }));
      await user.click(next());
      const leverage = screen.getByRole('spinbutton', { name: t('calculator.leverageLabel') });
      await user.clear(leverage);
      await user.type(leverage, typed);
      await user.click(next());
      await user.type(screen.getByRole('textbox', { name: t('calculator.seedLabel') }), '2000');
      await user.click(next());
      await user.click(screen.getByRole('radio', { name: t('calculator.frequencies.twoToFive') }));
      await user.click(screen.getByRole('button', { name: t('calculator.calculate') }));

      const result = await screen.findByRole('region', {
        name: t('calculator.resultTitle', { name: 'Bybit' }),
      });
      expect(
        within(result).getByText(
          '3.5 trades a day × 30 days × 2,000.00 USDT seed × 20x leverage × 0.0375% average fee × 40% cashback = 630.00 USDT.',
        ),
      ).toBeInTheDocument();
      expect(within(result).getByText(t('calculator.leverageValue', { leverage: '20' }))).toBeInTheDocument();
      const [, init] = fetchMock.mock.calls.find(([url]) => String(url) === '/elex/exchange/estimate') ?? [];
      expect(JSON.parse(String(init?.body))).toMatchObject({ leverage: 20 });
    },
  );

  it('will not leave a step whose answer breaks the shared rule, and says why', async () => {
    stubServer();
    const user = userEvent.setup();
    renderAt(<CalculatorPage />, '/calculator');
    await screen.findByRole('radio', { name: 'Binance' });

    await user.click(next());
    expect(screen.getByRole('alert')).toHaveTextContent(t('msg:exchangeRequired'));

    await user.click(screen.getByRole('radio', { name: 'Binance' }));
    await user.click(next());
    const leverage = screen.getByRole('spinbutton', { name: t('calculator.leverageLabel') });
    for (const wrong of ['0', '126', '2.5']) {
      await user.clear(leverage);
      await user.type(leverage, wrong);
      await user.click(next());
      expect(screen.getByRole('alert')).toHaveTextContent(t('msg:leverageRange'));
    }
    await user.clear(leverage);
    await user.type(leverage, '125');
    await user.click(next());

    const seed = screen.getByRole('textbox', { name: t('calculator.seedLabel') });
    await user.type(seed, '0.5');
    await user.click(next());
    expect(screen.getByRole('alert')).toHaveTextContent(t('msg:seedInvalid'));

    await user.clear(seed);
    await user.type(seed, '100');
    await user.click(next());
    await user.click(screen.getByRole('button', { name: t('calculator.calculate') }));
    expect(screen.getByRole('alert')).toHaveTextContent(t('msg:frequencyRequired'));
  });

  it('goes back a step keeping the answers', async () => {
    stubServer();
    const user = userEvent.setup();
    renderAt(<CalculatorPage />, '/calculator');
    await user.click(await screen.findByRole('radio', { name: 'Bybit' }));
    await user.click(next());
    await user.click(screen.getByRole('button', { name: t('calculator.back') }));
    expect(screen.getByRole('radio', { name: 'Bybit' })).toBeChecked();
  });

  describe('when the exchange list cannot be loaded', () => {
    const failDictionary = () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
    };

    it('says so on the first step and loads it again on request', async () => {
      failDictionary();
      const user = userEvent.setup();
      renderAt(<CalculatorPage />, '/calculator');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(t('homePublic.loadFailed'));
      expect(screen.queryByRole('radio')).not.toBeInTheDocument();

      stubServer();
      await user.click(within(alert).getByRole('button', { name: t('common.retry') }));

      expect(await screen.findByRole('radio', { name: 'Bybit' })).toBeInTheDocument();
      expect(screen.queryByText(t('homePublic.loadFailed'))).not.toBeInTheDocument();
    });

    it('loads it again the next time the page is opened in the same session', async () => {
      failDictionary();
      const client = createQueryClient();
      const open = () =>
        render(
          <Providers client={client}>
            <QueryScope>
              <RouterProvider
                router={createMemoryRouter([{ path: '*', element: <CalculatorPage /> }], {
                  initialEntries: ['/calculator'],
                })}
              />
            </QueryScope>
          </Providers>,
        );
      const first = open();
      expect(await screen.findByText(t('homePublic.loadFailed'))).toBeInTheDocument();
      first.unmount();

      stubServer();
      open();
      expect(await screen.findByRole('radio', { name: 'Bybit' })).toBeInTheDocument();
    });
  });
});
