import { CASHBACK, State } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadCsv } from '../../shared/download-csv';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { toast } from '../../shared/ui/toast';
import { renderAt, resizeTo } from '../../test/helpers';
import RecordsPage from './records-page';
import {
  adjustmentRecord,
  nextOf,
  pagesOf,
  rebateRecord,
  stubCashbackServer,
} from './testing/stub-cashback-server';

vi.mock('../../shared/download-csv', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../shared/download-csv')>()),
  downloadCsv: vi.fn(),
}));

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

beforeEach(() => {
  clearExchangeDictionary();
  vi.mocked(downloadCsv).mockClear();
});

/** The table's rows as the text of their cells, header row first (Intl's thin spaces as spaces). */
function tableRows(name: string) {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .map((row) =>
      [...within(row).queryAllByRole('columnheader'), ...within(row).queryAllByRole('cell')].map((cell) =>
        cell.textContent?.replace(/\s/g, ' '),
      ),
    );
}

/** The CSV handed to the download, as lines of cells (no quoted commas in these fixtures). */
function downloadedCsv(): { name: string; lines: string[][] } {
  expect(downloadCsv).toHaveBeenCalledTimes(1);
  const [name, csv] = vi.mocked(downloadCsv).mock.calls[0] ?? [];
  return {
    name: String(name),
    lines: String(csv)
      .split('\r\n')
      .map((line) => line.split(',')),
  };
}

describe('/mypage/records', () => {
  it('lists each record: exchange, UID, period in UTC, fee, cashback and status with its reason', async () => {
    stubCashbackServer({
      rebates: pagesOf([
        rebateRecord(),
        // A 6-hour segment, and amounts below a cent that two decimals would show as 0.00.
        rebateRecord({
          periodStart: '2026-01-13T06:00:00.000Z',
          periodEnd: '2026-01-13T12:00:00.000Z',
          fee: '0.000010',
          amount: '0.000005',
          status: 'pending',
        }),
        rebateRecord({
          platId: 3,
          uid: '880002',
          periodStart: '2026-01-01T00:00:00.000Z',
          periodEnd: '2026-02-01T00:00:00.000Z',
          fee: '3.000000',
          amount: '0.000000',
          status: 'failed',
          failureReason: 'noCommission',
        }),
      ]),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    const table = await screen.findByRole('table', { name: t('pages.records.title') });
    // Names come from the exchange dictionary, which may answer after the records.
    await waitFor(() => expect(within(table).getAllByText('Bitget')).toHaveLength(2));
    expect(tableRows(t('pages.records.title'))).toEqual([
      ['Exchange', 'UID', 'Period (UTC)', 'Fee (USDT)', 'Amount (USDT)', 'Status'],
      ['Bitget', '770001', 'Jan 13, 2026', '10.50', '5.25', 'Completed'],
      ['Bitget', '770001', 'Jan 13, 2026, 06:00 – 12:00 UTC', '0.00001', '0.000005', 'Under review'],
      ['Bybit', '880002', 'Jan 1 – 31, 2026', '3.00', '0.00', `Failed${t('msg:noCommission')}`],
    ]);
  });

  it('on a 390 px phone lists each record with its amount and status in view', async () => {
    // issue 15: Amount and Status were the table's last columns, off-screen at 390 px.
    resizeTo(390);
    stubCashbackServer({
      rebates: pagesOf([
        rebateRecord(),
        rebateRecord({
          platId: 3,
          uid: '880002',
          amount: '0.000000',
          status: 'failed',
          failureReason: 'noCommission',
        }),
      ]),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    const list = await screen.findByRole('list', { name: t('pages.records.title') });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [first, second] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    await waitFor(() => expect(within(first).getByText('Bitget')).toBeInTheDocument());
    expect(within(first).getByText('5.25')).toBeInTheDocument();
    expect(within(first).getByText(t('cashback.statuses.completed'))).toBeInTheDocument();
    expect(within(second).getByText('0.00')).toBeInTheDocument();
    expect(within(second).getByText(t('cashback.statuses.failed'))).toBeInTheDocument();
    expect(within(second).getByText(t('msg:noCommission'))).toBeInTheDocument();
  });

  it('asks the server for the chosen exchange and status, from the first page', async () => {
    const server = stubCashbackServer({ rebates: pagesOf([rebateRecord()]) });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('option', { name: 'Bitget' });
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.exchange')), 'Bitget');
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.status')), t('cashback.statuses.failed'));
    await waitFor(() =>
      expect(server.requests('/elex/user/seeRebateData').at(-1)).toEqual({
        platId: 4,
        status: 'failed',
        page: 1,
        pageSize: 20,
      }),
    );
  });

  it('pages on from the previous page’s `next` (a cursor), back by the remembered one, from page 1 after a filter change', async () => {
    // issue 14: page 600 by number made the server skip every earlier record; a page after a cursor
    // costs one page at any depth. 70 records of 20 a page: 4 pages.
    const all = Array.from({ length: 70 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    const server = stubCashbackServer({
      rebates: (body) => pagesOf(all.filter((record) => body.platId !== 3 || record.uid === 'U0'))(body),
    });
    const requests = () => server.requests('/elex/user/seeRebateData');
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const shows = async (uid: string, page: number) => {
      await screen.findByText(uid);
      expect(within(pager()).getByText(t('cashback.pageOf', { page, pages: 4 }))).toBeInTheDocument();
    };
    renderAt(<RecordsPage />, '/mypage/records');
    await shows('U0', 1);
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await shows('U20', 2);
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await shows('U40', 3);
    expect(requests()).toEqual([
      { page: 1, pageSize: 20 },
      { page: 2, pageSize: 20, after: all[19]?.id },
      { page: 3, pageSize: 20, after: all[39]?.id },
    ]);

    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.previous') }));
    await shows('U20', 2);
    // Page 2 as it was asked for: after page 1's last record (from the cache, or asked again the same way).
    expect(
      requests()
        .slice(3)
        .every((body) => body.page === 2 && body.after === all[19]?.id),
    ).toBe(true);
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.previous') }));
    await shows('U0', 1);
    expect(within(pager()).getByRole('button', { name: t('cashback.previous') })).toBeDisabled();
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await shows('U40', 3);

    // A filter starts over from page 1 and forgets the cursors, and so does going back to no filter.
    await userEvent.selectOptions(
      screen.getByLabelText(t('cashback.status')),
      t('cashback.statuses.completed'),
    );
    await waitFor(() => expect(requests().at(-1)).toEqual({ status: 'completed', page: 1, pageSize: 20 }));
    await shows('U0', 1);
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await shows('U20', 2);
    expect(requests().at(-1)).toEqual({ status: 'completed', page: 2, pageSize: 20, after: all[19]?.id });
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.status')), '');
    await shows('U0', 1);
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.exchange')), 'Bybit');
    await waitFor(() => expect(requests().at(-1)).toEqual({ platId: 3, page: 1, pageSize: 20 }));
    await waitFor(() => expect(screen.queryByRole('navigation', { name: t('cashback.paging') })).toBeNull());
  });

  it('asks for the page by number when the server refuses its remembered cursor (a UID unbound meanwhile)', async () => {
    const toastedErrors = vi.spyOn(toast, 'error');
    const all = Array.from({ length: 70 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    let refuse = false;
    const server = stubCashbackServer({
      rebates: (body) =>
        refuse && body.after !== undefined
          ? { refused: { state: State.ValidationFailed, msg: 'after: invalid value' } }
          : pagesOf(all)(body),
    });
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await screen.findByText('U20');
    refuse = true;
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await screen.findByText('U40');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 3, pages: 4 }))).toBeInTheDocument();
    expect(server.requests('/elex/user/seeRebateData').slice(-2)).toEqual([
      { page: 3, pageSize: 20, after: all[39]?.id },
      { page: 3, pageSize: 20 },
    ]);
    expect(screen.queryByText(t('common.retry'))).toBeNull();
    // The pager got over the refusal by itself: no toast with the server's wording either.
    expect(toastedErrors).not.toHaveBeenCalled();
    // Going on from the page read by number: its own `next`.
    refuse = false;
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await screen.findByText('U60');
    expect(server.requests('/elex/user/seeRebateData').at(-1)).toEqual({
      page: 4,
      pageSize: 20,
      after: all[59]?.id,
    });
    toastedErrors.mockRestore();
  });

  it('goes back to page 1 with the same filter, without an error, when the page by number after a refused cursor is too deep', async () => {
    // issue 14: the server refuses a page number wholly between the newest and the oldest
    // CASHBACK.pageReach records; the pager reaches deep pages by cursor, and a refused cursor falls
    // back to the page number, which must not leave the member on that refusal.
    const all = Array.from({ length: 70 }, (_, index) =>
      rebateRecord({ uid: `U${index}`, status: 'completed' }),
    );
    let refuse = false;
    const server = stubCashbackServer({
      rebates: (body) => {
        if (refuse && body.after !== undefined) {
          return { refused: { state: State.ValidationFailed, msg: 'after: invalid value' } };
        }
        if (refuse && (body.page ?? 1) > 1) {
          return {
            refused: {
              state: State.ValidationFailed,
              msg: 'Page 3 is too deep',
              content: { messageKey: 'rebatePageTooDeep' },
            },
          };
        }
        return pagesOf(all)(body);
      },
    });
    const requests = () => server.requests('/elex/user/seeRebateData');
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    await userEvent.selectOptions(
      screen.getByLabelText(t('cashback.status')),
      t('cashback.statuses.completed'),
    );
    await waitFor(() => expect(requests().at(-1)).toEqual({ status: 'completed', page: 1, pageSize: 20 }));
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await screen.findByText('U20');
    refuse = true;
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await screen.findByText('U0');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 1, pages: 4 }))).toBeInTheDocument();
    // The cursor, then the number, then page 1 with the filter (from the cache: it was just read).
    const deep = requests().findIndex((body) => body.page === 3);
    expect(requests().slice(deep)).toEqual([
      { status: 'completed', page: 3, pageSize: 20, after: all[39]?.id },
      { status: 'completed', page: 3, pageSize: 20 },
      ...requests()
        .slice(deep + 2)
        .map(() => ({ status: 'completed', page: 1, pageSize: 20 })),
    ]);
    expect(screen.getByLabelText(t('cashback.status'))).toHaveValue('completed');
    expect(screen.queryByText(t('common.retry'))).toBeNull();
    expect(screen.queryByText('Page 3 is too deep')).toBeNull();
    // The walk starts over from page 1: its `next` carries the next page (asked again or from the cache).
    refuse = false;
    const asked = requests().length;
    await userEvent.click(within(pager()).getByRole('button', { name: t('cashback.next') }));
    await screen.findByText('U20');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 2, pages: 4 }))).toBeInTheDocument();
    for (const body of requests().slice(asked)) {
      expect(body).toEqual({ status: 'completed', page: 2, pageSize: 20, after: all[19]?.id });
    }
    expect(screen.queryByText('Page 3 is too deep')).toBeNull();
  });

  it('waits for the page it shows before going on: a second press on next is not a jump by number', async () => {
    const all = Array.from({ length: 70 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    const server = stubCashbackServer({ rebates: pagesOf(all) });
    // Hold the next answer until released, as a slow network would.
    const answer = globalThis.fetch;
    let held: Promise<void> | undefined;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await held;
      return answer(...args);
    });
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const next = () => within(pager()).getByRole('button', { name: t('cashback.next') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    let release = () => {};
    held = new Promise((resolve) => {
      release = resolve;
    });
    await userEvent.click(next());
    await waitFor(() => expect(next()).toBeDisabled());
    await userEvent.click(next());
    release();
    await screen.findByText('U20');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 2, pages: 4 }))).toBeInTheDocument();
    expect(server.requests('/elex/user/seeRebateData')).toEqual([
      { page: 1, pageSize: 20 },
      { page: 2, pageSize: 20, after: all[19]?.id },
    ]);
    await userEvent.click(next());
    await screen.findByText('U40');
    expect(server.requests('/elex/user/seeRebateData').at(-1)).toEqual({
      page: 3,
      pageSize: 20,
      after: all[39]?.id,
    });
  });

  it('ends the walk where the records end when new ones arrived at the top meanwhile (no page repeated)', async () => {
    const all = Array.from({ length: 70 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    let list = all;
    stubCashbackServer({ rebates: (body) => pagesOf(list)(body) });
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const next = () => within(pager()).getByRole('button', { name: t('cashback.next') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    // 15 records arrive at the top: the walk goes on after U19, the total says 85 (5 pages).
    list = [...Array.from({ length: 15 }, (_, index) => rebateRecord({ uid: `N${index}` })), ...all];
    await userEvent.click(next());
    await screen.findByText('U20');
    await userEvent.click(next());
    await screen.findByText('U40');
    await userEvent.click(next());
    await screen.findByText('U60');
    // The last ten: the walk's end, though 85 records make five pages by the count.
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 4, pages: 4 }))).toBeInTheDocument();
    expect(next()).toBeDisabled();
  });

  it('goes on after the count’s last page while the walk has records left (records settled out of the filter meanwhile)', async () => {
    const all = Array.from({ length: 100 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    let left = 0;
    // The server's walk: the records after the cursor's place in the list, of those still pending.
    stubCashbackServer({
      rebates: (body) => {
        const pending = all.slice(left);
        const from = body.after === undefined ? 0 : all.findIndex((record) => record.id === body.after) + 1;
        const rest = all.slice(Math.max(from, left));
        const records = rest.slice(0, body.pageSize ?? 20);
        return body.after === undefined
          ? pagesOf(pending)(body)
          : { records, total: pending.length, next: nextOf(records, rest.length > records.length) };
      },
    });
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const next = () => within(pager()).getByRole('button', { name: t('cashback.next') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    await userEvent.click(next());
    await screen.findByText('U20');
    // The newest 60 settle: 40 left, two pages by the count, while the walk stands on page 2.
    left = 60;
    await userEvent.click(next());
    await screen.findByText('U60');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 3, pages: 4 }))).toBeInTheDocument();
    await userEvent.click(next());
    await screen.findByText('U80');
    expect(screen.getByText('U99')).toBeInTheDocument();
  });

  it('follows `next` alone: on past the count’s last page while the server names a next, and stops on a full page without one', async () => {
    // 80 records by the count (four pages of 20); the server reads one more than a page and finds an
    // older record imported since it counted: page 4 is full and names a next, page 5 holds that one.
    const all = Array.from({ length: 81 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    stubCashbackServer({ rebates: (body) => ({ ...pagesOf(all)(body), total: 80 }) });
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const next = () => within(pager()).getByRole('button', { name: t('cashback.next') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    for (const uid of ['U20', 'U40', 'U60']) {
      await userEvent.click(next());
      await screen.findByText(uid);
    }
    await waitFor(() => expect(next()).toBeEnabled());
    await userEvent.click(next());
    await screen.findByText('U80');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 5, pages: 5 }))).toBeInTheDocument();
    expect(next()).toBeDisabled();
  });

  it('ends the pager on a full last page whose `next` is null, and the export without asking for an empty page', async () => {
    // Exactly two export pages, and exactly three pages of 20 on screen.
    const warned = vi.spyOn(toast, 'warning');
    const all = Array.from({ length: 2 * CASHBACK.exportPageSize }, (_, index) =>
      rebateRecord({ uid: `U${index}` }),
    );
    const server = stubCashbackServer({
      rebates: (body) => pagesOf(body.pageSize === 20 ? all.slice(0, 60) : all)(body),
    });
    const pager = () => screen.getByRole('navigation', { name: t('cashback.paging') });
    const next = () => within(pager()).getByRole('button', { name: t('cashback.next') });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByText('U0');
    await userEvent.click(next());
    await screen.findByText('U20');
    await userEvent.click(next());
    await screen.findByText('U40');
    expect(within(pager()).getByText(t('cashback.pageOf', { page: 3, pages: 3 }))).toBeInTheDocument();
    expect(next()).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    expect(downloadedCsv().lines).toHaveLength(1 + 2 * CASHBACK.exportPageSize);
    const exportCalls = server
      .requests('/elex/user/seeRebateData')
      .filter((body) => body.pageSize === CASHBACK.exportPageSize)
      .map((body) => body.after);
    expect(exportCalls).toEqual([undefined, all[CASHBACK.exportPageSize - 1]?.id]);
    expect(warned).not.toHaveBeenCalled();
    warned.mockRestore();
  });

  it('exports every record, page after page up to the total, with the failure reason', async () => {
    // More than 50 pages of 100 (the export used to stop there without a word): six pages by cursor.
    const all = Array.from({ length: 5_050 }, (_, index) =>
      index === 7
        ? rebateRecord({
            uid: 'FAILED7',
            status: 'failed',
            amount: '0.000000',
            failureReason: 'noCommission',
          })
        : rebateRecord({ uid: `U${index}` }),
    );
    const server = stubCashbackServer({ rebates: pagesOf(all) });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('table', { name: t('pages.records.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));

    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    const { name, lines } = downloadedCsv();
    expect(name).toBe('cashback-records.csv');
    expect(lines[0]).toEqual([
      'Exchange',
      'UID',
      'Period start (UTC)',
      'Period end (UTC)',
      'Trading volume (USDT)',
      'Fee (USDT)',
      'Cashback (USDT)',
      'Status',
      'Reason',
    ]);
    expect(lines).toHaveLength(1 + 5_050);
    expect(lines[1]).toEqual([
      'Bitget',
      'U0',
      '2026-01-13T00:00:00.000Z',
      '2026-01-14T00:00:00.000Z',
      '25000.500000',
      '10.500000',
      '5.250000',
      'Completed',
      '',
    ]);
    expect(lines[8]?.slice(1)).toEqual([
      'FAILED7',
      '2026-01-13T00:00:00.000Z',
      '2026-01-14T00:00:00.000Z',
      '25000.500000',
      '10.500000',
      '0.000000',
      'Failed',
      t('msg:noCommission'),
    ]);
    expect(lines.at(-1)?.[1]).toBe('U5049');
    // Page after page by cursor: each asks for the records after the last one it got.
    const exportCalls = server
      .requests('/elex/user/seeRebateData')
      .filter((body) => body.pageSize === CASHBACK.exportPageSize)
      .map((body) => body.after);
    expect(exportCalls).toEqual([
      undefined,
      ...Array.from({ length: 5 }, (_, index) => all[(index + 1) * CASHBACK.exportPageSize - 1]?.id),
    ]);
    expect(screen.queryByText(/records: the list changed/)).not.toBeInTheDocument();
  });

  it('starts the export over once when the server refuses its cursor (a UID unbound meanwhile)', async () => {
    const all = Array.from({ length: 1_500 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    // The first walk's second page names a record of a UID unbound since: refused, as the server does.
    let refusals = 0;
    const server = stubCashbackServer({
      rebates: (body) => {
        if (body.after !== undefined && refusals === 0) {
          refusals += 1;
          return { refused: { state: State.ValidationFailed, msg: 'after: invalid value' } };
        }
        return pagesOf(all)(body);
      },
    });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('table', { name: t('pages.records.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));

    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    expect(downloadedCsv().lines).toHaveLength(1 + 1_500);
    const cursors = server
      .requests('/elex/user/seeRebateData')
      .filter((body) => body.pageSize === CASHBACK.exportPageSize)
      .map((body) => body.after);
    const firstPageEnd = all[CASHBACK.exportPageSize - 1]?.id;
    expect(cursors).toEqual([undefined, firstPageEnd, undefined, firstPageEnd]);
    expect(screen.queryByText(t('msg:error'))).not.toBeInTheDocument();
  });

  it('says the records changed and downloads nothing when the cursor is refused again after starting over', async () => {
    const all = Array.from({ length: 1_500 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    stubCashbackServer({
      rebates: (body) =>
        body.after === undefined
          ? pagesOf(all)(body)
          : { refused: { state: State.ValidationFailed, msg: 'after: invalid value' } },
    });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('table', { name: t('pages.records.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));

    expect(await screen.findByText(t('cashback.exportChanged'))).toBeInTheDocument();
    expect(downloadCsv).not.toHaveBeenCalled();
  });

  it('exports the chosen status whole while records settle and arrive during the export', async () => {
    // 1,500 pending records, newest first. After the first page: a new pending record arrives on top and
    // one already exported settles (the two left a server-filtered count unchanged: found in review).
    let all = Array.from({ length: 1_500 }, (_, index) =>
      rebateRecord({ uid: `U${index}`, status: 'pending' }),
    );
    let exportPages = 0;
    const server = stubCashbackServer({
      rebates: (body) => {
        if (body.pageSize === CASHBACK.exportPageSize && ++exportPages === 2) {
          all = [
            rebateRecord({ uid: 'ARRIVED', status: 'pending' }),
            ...all.map((record, index) =>
              index === 3 ? { ...record, status: 'completed' as const } : record,
            ),
          ];
        }
        const listed = body.status ? all.filter((record) => record.status === body.status) : all;
        return pagesOf(listed)(body);
      },
    });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('option', { name: t('cashback.statuses.pending') });
    await userEvent.selectOptions(
      screen.getByLabelText(t('cashback.status')),
      t('cashback.statuses.pending'),
    );
    await userEvent.click(await screen.findByRole('button', { name: t('cashback.exportCsv') }));

    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    const uids = downloadedCsv()
      .lines.slice(1)
      .map((line) => line[1]);
    expect(uids).toContain('ARRIVED');
    // The settled one is left out: the second walk read it settled.
    expect(uids).not.toContain('U3');
    expect(uids).toHaveLength(1_500);
    expect(
      server
        .requests('/elex/user/seeRebateData')
        .filter((body) => body.pageSize === CASHBACK.exportPageSize)
        .every((body) => body.status === undefined),
    ).toBe(true);
    expect(screen.queryByText(/records: the list changed/)).not.toBeInTheDocument();
  });

  it('says the file is partial when fewer records come back than the total', async () => {
    const all = Array.from({ length: 150 }, (_, index) => rebateRecord({ uid: `U${index}` }));
    // Ten records leave the filtered list while the export runs: its page comes back short.
    stubCashbackServer({
      rebates: (body) => {
        const page = pagesOf(all)(body);
        return body.pageSize === CASHBACK.exportPageSize
          ? { ...page, records: page.records.slice(10), total: 150 }
          : page;
      },
    });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('table', { name: t('pages.records.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));

    expect(
      await screen.findByText(t('cashback.exportPartial', { count: 140, total: 150 })),
    ).toBeInTheDocument();
    expect(downloadedCsv().lines).toHaveLength(1 + 140);
  });
  it('exports our team’s corrections as rows of their own with the reason, so the file adds up to the cumulative cashback', async () => {
    stubCashbackServer({
      rebates: pagesOf([
        rebateRecord({ periodStart: '2026-03-06T00:00:00.000Z', periodEnd: '2026-03-07T00:00:00.000Z' }),
        rebateRecord({ periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-03-02T00:00:00.000Z' }),
      ]),
      // Posted between the two records; a debit too. Amounts stay exact.
      adjustments: pagesOf([
        adjustmentRecord({ amount: '12.345678', reason: 'Missed rebate for 3 March' }),
        adjustmentRecord({
          platId: 3,
          uid: '880002',
          amount: '-0.000001',
          reason: 'Rounding (ticket 7)',
          postedAt: '2026-03-02T10:00:00.000Z',
        }),
      ]),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('table', { name: t('pages.records.title') });
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));

    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    const rows = downloadedCsv().lines.slice(1);
    const adjustment = t('cashback.adjustments.label');
    expect(rows).toEqual([
      [
        'Bitget',
        '770001',
        '2026-03-06T00:00:00.000Z',
        '2026-03-07T00:00:00.000Z',
        '25000.500000',
        '10.500000',
        '5.250000',
        t('cashback.statuses.completed'),
        '',
      ],
      [
        'Bitget',
        '770001',
        '2026-03-05T09:00:00.000Z',
        '2026-03-05T09:00:00.000Z',
        '',
        '',
        '12.345678',
        adjustment,
        'Missed rebate for 3 March',
      ],
      [
        'Bybit',
        '880002',
        '2026-03-02T10:00:00.000Z',
        '2026-03-02T10:00:00.000Z',
        '',
        '',
        '-0.000001',
        adjustment,
        'Rounding (ticket 7)',
      ],
      [
        'Bitget',
        '770001',
        '2026-03-01T00:00:00.000Z',
        '2026-03-02T00:00:00.000Z',
        '25000.500000',
        '10.500000',
        '5.250000',
        t('cashback.statuses.completed'),
        '',
      ],
    ]);
    // 5.25 + 12.345678 - 0.000001 + 5.25, to the micro-USDT: the cumulative cashback of these UIDs.
    const micro = rows.reduce((sum, row) => sum + Math.round(Number(row[6]) * 1e6), 0);
    expect(micro).toBe(22_845_677);
  });

  it('exports only the chosen exchange’s corrections, and none when a status is chosen', async () => {
    const server = stubCashbackServer({
      rebates: pagesOf([rebateRecord()]),
      adjustments: pagesOf([adjustmentRecord()]),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    await screen.findByRole('option', { name: 'Bitget' });
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.exchange')), 'Bitget');
    await userEvent.click(await screen.findByRole('button', { name: t('cashback.exportCsv') }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    expect(downloadedCsv().lines).toHaveLength(1 + 2);
    expect(server.requests('/elex/user/seeAdjustments').at(-1)).toEqual({
      account: 'cashback',
      platId: 4,
      page: 1,
      pageSize: 100,
    });

    vi.mocked(downloadCsv).mockClear();
    await userEvent.selectOptions(
      screen.getByLabelText(t('cashback.status')),
      t('cashback.statuses.completed'),
    );
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    expect(
      downloadedCsv()
        .lines.slice(1)
        .map((line) => line[7]),
    ).toEqual([t('cashback.statuses.completed')]);
  });

  it.each([
    [
      'zh',
      [
        '交易所',
        'UID',
        '周期开始（UTC）',
        '周期结束（UTC）',
        '交易量（USDT）',
        '手续费（USDT）',
        '返佣（USDT）',
        '状态',
        '原因',
      ],
      ['已完成', '失败', '审核中', '调整'],
    ],
    [
      'ko',
      [
        '거래소',
        'UID',
        '기간 시작 (UTC)',
        '기간 종료 (UTC)',
        '거래량 (USDT)',
        '수수료 (USDT)',
        '캐시백 (USDT)',
        '상태',
        '사유',
      ],
      ['완료', '실패', '검토 중', '조정'],
    ],
    [
      'en',
      [
        'Exchange',
        'UID',
        'Period start (UTC)',
        'Period end (UTC)',
        'Trading volume (USDT)',
        'Fee (USDT)',
        'Cashback (USDT)',
        'Status',
        'Reason',
      ],
      ['Completed', 'Failed', 'Under review', 'Adjustment'],
    ],
  ])(
    'writes the file in the member’s language (%s): headers, statuses and reasons; amounts exact',
    async (locale, header, statuses) => {
      await i18next.changeLanguage(locale);
      stubCashbackServer({
        rebates: pagesOf([
          rebateRecord({ tradingVolume: '1234567.891234', amount: '1234.567891' }),
          rebateRecord({ status: 'failed', amount: '0.000000', failureReason: 'noCommission' }),
          rebateRecord({ status: 'pending' }),
        ]),
        adjustments: pagesOf([adjustmentRecord({ postedAt: '2026-01-01T00:00:00.000Z' })]),
      });
      renderAt(<RecordsPage />, '/mypage/records');
      await screen.findByRole('table', { name: t('pages.records.title') });
      await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
      await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
      const { lines } = downloadedCsv();
      expect(lines[0]).toEqual(header);
      expect(lines.slice(1).map((line) => line[7])).toEqual(statuses);
      expect(lines[2]?.[8]).toBe(t('msg:noCommission'));
      // No digit grouping, no rounding, whatever the language.
      expect(lines[1]?.slice(4, 7)).toEqual(['1234567.891234', '10.500000', '1234.567891']);
    },
  );
  it('exports a correction when it is the only entry of the account', async () => {
    stubCashbackServer({ rebates: pagesOf([]), adjustments: pagesOf([adjustmentRecord()]) });
    renderAt(<RecordsPage />, '/mypage/records');
    expect(await screen.findByText('Missed rebate for 3 March')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: t('cashback.exportCsv') }));
    await waitFor(() => expect(downloadCsv).toHaveBeenCalled());
    expect(
      downloadedCsv()
        .lines.slice(1)
        .map((line) => [line[6], line[8]]),
    ).toEqual([['12.345678', 'Missed rebate for 3 March']]);
  });

  it('lists only the chosen exchange’s corrections under its records', async () => {
    const bitget = adjustmentRecord({ reason: 'Bitget correction' });
    const bybit = adjustmentRecord({ platId: 3, uid: '880002', reason: 'Bybit correction' });
    const server = stubCashbackServer({
      rebates: pagesOf([rebateRecord()]),
      adjustments: (body) =>
        pagesOf(
          [bitget, bybit].filter((record) => body.platId === undefined || record.platId === body.platId),
        )(body),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    expect(await screen.findByText('Bybit correction')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.exchange')), 'Bitget');
    await waitFor(() => expect(screen.queryByText('Bybit correction')).toBeNull());
    const section = screen.getByRole('region', { name: t('cashback.adjustments.title') });
    expect(within(section).getAllByRole('listitem')).toHaveLength(1);
    expect(within(section).getByText('Bitget correction')).toBeInTheDocument();
    expect(server.requests('/elex/user/seeAdjustments').at(-1)).toEqual({
      account: 'cashback',
      platId: 4,
      page: 1,
      pageSize: 10,
    });
  });

  it('hides the adjustments and offers no export when the chosen exchange has neither records nor corrections', async () => {
    stubCashbackServer({
      rebates: (body) => pagesOf(body.platId === 3 ? [] : [rebateRecord()])(body),
      adjustments: (body) => pagesOf(body.platId === 3 ? [] : [adjustmentRecord()])(body),
    });
    renderAt(<RecordsPage />, '/mypage/records');
    expect(await screen.findByText('Missed rebate for 3 March')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(t('cashback.exchange')), 'Bybit');
    await waitFor(() => expect(screen.queryByText('Missed rebate for 3 March')).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: t('cashback.exportCsv') })).toBeDisabled());
  });
});
