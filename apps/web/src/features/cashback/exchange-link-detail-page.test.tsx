import type { BindingDetail } from '@elex/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { renderAt, resizeTo } from '../../test/helpers';
import ExchangeLinkDetailPage from './exchange-link-detail-page';
import { adjustmentRecord, pagesOf, rebateRecord, stubCashbackServer } from './testing/stub-cashback-server';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const URL_OF_PAGE = '/exchangeLinkDetail?platId=4&UID=770001';

function detail(overrides: Partial<BindingDetail> = {}): BindingDetail {
  return {
    platId: 4,
    uid: '770001',
    address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    boundAt: '2026-01-01T00:00:00.000Z',
    balance: '17.250000',
    totalRebate: '17.259999',
    pendingRebate: '0.000004',
    daily: [
      { day: '2026-01-11', amount: '5.250000' },
      { day: '2026-01-12', amount: '12.009999' },
    ],
    lastDataAt: '2026-01-15T06:10:00.000Z',
    heldUntil: null,
    frozen: false,
    ...overrides,
  };
}

/** The figures of the page's stat cards, by their label (terms and definitions pair in order). */
async function stats(): Promise<Record<string, string | undefined>> {
  const terms = await screen.findAllByRole('term');
  const values = screen.getAllByRole('definition');
  return Object.fromEntries(terms.map((term, index) => [term.textContent, values[index]?.textContent]));
}

beforeEach(() => clearExchangeDictionary());

describe('/exchangeLinkDetail', () => {
  it('shows the UID’s balance, cumulative and pending cashback exactly, truncated, never as 0.00', async () => {
    stubCashbackServer({ detail: detail(), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    expect(await stats()).toEqual({
      [t('cashback.balance')]: '17.25 USDT',
      [t('cashback.totalRebate')]: '17.25 USDT',
      [t('cashback.pending')]: '0.000004 USDT',
    });
    expect(
      await screen.findByText(t('cashback.bindingIntro', { exchange: 'Bitget', uid: '770001' })),
    ).toBeVisible();
  });

  it('leads its Withdraw button to /withdrawal with this UID chosen, not the member’s first one', async () => {
    // issue 15: the button opened /withdrawal with another UID selected; the withdrawal page chooses
    // the UID its address names (withdrawal-page.test.tsx).
    stubCashbackServer({ detail: detail(), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    const withdraw = await screen.findByRole('link', { name: t('cashback.withdraw') });
    const target = new URL(withdraw.getAttribute('href') ?? '', 'http://localhost');
    expect(target.pathname).toBe('/withdrawal');
    expect(Object.fromEntries(target.searchParams)).toEqual({ platId: '4', uid: '770001' });
  });

  it('explains the data delay with the real segment and wait, and when data last arrived', async () => {
    stubCashbackServer({ detail: detail(), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    const notice = await screen.findByText(/6-hour segments/);
    expect(notice).toHaveTextContent('48 hours after it ends');
    expect(notice).toHaveTextContent('one to three days');
    expect(notice).toHaveTextContent(/Last data received Jan 15, 2026/);
  });

  it('says no data has arrived yet for a UID without figures', async () => {
    stubCashbackServer({ detail: detail({ daily: [], lastDataAt: null }), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    expect(await screen.findByText(new RegExp(t('cashback.noDataYet')))).toBeInTheDocument();
    const chart = screen.getByRole('region', { name: t('cashback.dailyTitle') });
    expect(within(chart).getByText(t('cashback.noRecords'))).toBeInTheDocument();
  });

  it('charts cashback by trading day, with the figures as a table', async () => {
    stubCashbackServer({ detail: detail(), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    const chart = await screen.findByRole('region', { name: 'Cashback by trading day (UTC)' });
    const table = within(chart).getByRole('table', { name: 'Cashback by trading day (UTC)' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        ),
    ).toEqual([
      ['2026-01-11', '5.25'],
      ['2026-01-12', '12.00'],
    ]);
  });

  it('lists the UID’s records, asking only for this exchange and UID', async () => {
    const server = stubCashbackServer({
      detail: detail(),
      rebates: pagesOf([
        rebateRecord(),
        rebateRecord({ periodStart: '2026-01-12T00:00:00.000Z', periodEnd: '2026-01-13T00:00:00.000Z' }),
      ]),
    });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    const table = await screen.findByRole('table', { name: t('pages.records.title') });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getAllByText('Completed')).toHaveLength(2);
    expect(within(table).getAllByText('5.25')).toHaveLength(2);
    await waitFor(() =>
      expect(server.requests('/elex/user/seeRebateData')[0]).toEqual({
        platId: 4,
        uid: '770001',
        page: 1,
        pageSize: 10,
      }),
    );
  });

  it('pages the UID’s records on from the previous page’s `next`, back by the remembered one', async () => {
    // issue 14: a page after a cursor costs one page at any depth; by number, every earlier record.
    const all = Array.from({ length: 35 }, () => rebateRecord());
    const server = stubCashbackServer({ detail: detail(), rebates: pagesOf(all) });
    const requests = () => server.requests('/elex/user/seeRebateData');
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const on = (page: number) =>
      within(pager()).findByText(t('cashback.pageOf', { page, pages: 4 }), undefined, { timeout: 2_000 });
    const { router } = renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    await screen.findByRole('table', { name: t('pages.records.title') });
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await on(2);
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await on(3);
    await waitFor(() => expect(requests()).toHaveLength(3));
    expect(requests()).toEqual([
      { platId: 4, uid: '770001', page: 1, pageSize: 10 },
      { platId: 4, uid: '770001', page: 2, pageSize: 10, after: all[9]?.id },
      { platId: 4, uid: '770001', page: 3, pageSize: 10, after: all[19]?.id },
    ]);
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.previous') }));
    await on(2);
    expect(
      requests()
        .slice(3)
        .every((body) => body.page === 2 && body.after === all[9]?.id),
    ).toBe(true);

    // Another UID's page starts from its first page, with no cursor of this one's.
    await act(() => router.navigate('/exchangeLinkDetail?platId=4&UID=770002'));
    await waitFor(() =>
      expect(requests().at(-1)).toEqual({ platId: 4, uid: '770002', page: 1, pageSize: 10 }),
    );
    await on(1);
  });

  it('offers to report a problem about this UID', async () => {
    stubCashbackServer({ detail: detail(), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    expect(await screen.findByRole('link', { name: t('cashback.reportProblem') })).toHaveAttribute(
      'href',
      '/mypage/support/new?kind=missingCashback&platId=4&uid=770001',
    );
    expect(screen.queryByText(/ownership check/)).toBeNull();
  });

  it('says when a new binding’s withdrawals open and how to open them sooner', async () => {
    stubCashbackServer({ detail: detail({ heldUntil: '2026-01-15T00:00:00.000Z' }), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    const date = new Date('2026-01-15T00:00:00.000Z').toLocaleDateString('en', { dateStyle: 'long' });
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(t('cashback.heldUntil', { date }));
    expect(within(notice).getByRole('link', { name: t('cashback.sendScreenshot') })).toHaveAttribute(
      'href',
      '/mypage/support/new?kind=ownership&platId=4&uid=770001',
    );
  });

  it('says a UID under dispute cannot be withdrawn', async () => {
    stubCashbackServer({ detail: detail({ frozen: true }), rebates: pagesOf([]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    expect(await screen.findByRole('status')).toHaveTextContent(i18next.t('msg:withdrawalFrozen'));
  });

  it('lists this UID’s corrections (signed amount, reason, time), asking only for this exchange and UID', async () => {
    // The balance and cumulative cashback include our team's corrections; the records and the chart
    // do not, so a UID with a correction showed figures that did not add up and no word why.
    resizeTo(390);
    const mine = adjustmentRecord({ amount: '-3.500000', reason: 'Duplicate credit' });
    const otherUid = adjustmentRecord({ uid: '770002', reason: 'Another UID' });
    const otherExchange = adjustmentRecord({ platId: 3, reason: 'Another exchange' });
    const server = stubCashbackServer({
      detail: detail(),
      rebates: pagesOf([rebateRecord()]),
      adjustments: (body) =>
        pagesOf(
          [mine, otherUid, otherExchange].filter(
            (record) =>
              (body.platId === undefined || record.platId === body.platId) &&
              (body.uid === undefined || record.uid === body.uid),
          ),
        )(body),
    });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    const section = await screen.findByRole('region', { name: t('cashback.adjustments.title') });
    expect(within(section).getByText(t('cashback.adjustments.uidIntro'))).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('Adjustment-3.50 USDT');
    expect(items[0]).toHaveTextContent('Duplicate credit');
    expect(items[0]).toHaveTextContent(/Mar 5, 2026/);
    expect(screen.queryByText('Another UID')).toBeNull();
    expect(screen.queryByText('Another exchange')).toBeNull();
    expect(server.requests('/elex/user/seeAdjustments')).toContainEqual({
      account: 'cashback',
      platId: 4,
      uid: '770001',
      page: 1,
      pageSize: 10,
    });
  });

  it('shows no adjustments section for a UID without corrections', async () => {
    stubCashbackServer({ detail: detail(), rebates: pagesOf([rebateRecord()]) });
    renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
    await screen.findByRole('table', { name: t('pages.records.title') });
    expect(screen.queryByRole('region', { name: t('cashback.adjustments.title') })).toBeNull();
  });

  it.each([
    ['en', /last 90 days.*corrections.*not included/i],
    ['zh', /90 天.*不含.*调整/],
    ['ko', /90일.*조정.*포함되지 않/],
  ])(
    'says the chart shows paid records of the last 90 days, corrections not included (%s)',
    async (locale, hint) => {
      await i18next.changeLanguage(locale);
      try {
        stubCashbackServer({ detail: detail(), rebates: pagesOf([]) });
        renderAt(<ExchangeLinkDetailPage />, URL_OF_PAGE);
        const chart = await screen.findByRole('region', { name: t('cashback.dailyTitle') });
        expect(within(chart).getByText(hint)).toBeInTheDocument();
      } finally {
        await i18next.changeLanguage('en');
      }
    },
  );
});
