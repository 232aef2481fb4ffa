import type { OpenRebate, ReconciliationFigures, ResettleResult, RosterEntry } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { envelope, logIn, renderRoutes } from '../../../test/helpers';
import { catalogExchange, serveConsole } from '../test-fixtures';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
/** The first find waits for the lazily loaded console chunks. */
const SLOW = { timeout: 5000 };
const CATALOG = {
  exchanges: [catalogExchange({}), catalogExchange({ platId: 4, name: 'Bitget', abbreviation: 'BG' })],
};

type Handler = Parameters<typeof serveConsole>[0][string];
const serve = (handlers: Record<string, Handler>) =>
  serveConsole({ '/elex/admin/catalog': () => envelope(CATALOG), ...handlers });

function figures(overrides: Partial<ReconciliationFigures> = {}): ReconciliationFigures {
  return {
    records: 6,
    commission: '25.000000',
    credited: '7.000000',
    creditedUnbound: '2.000000',
    rewards: '0.500000',
    margin: '3.500000',
    awaitingSettlement: '9.000000',
    unbound: '5.000000',
    paidOut: '60.000000',
    held: '70.000000',
    heldCount: 1,
    ...overrides,
  };
}

const SUMMARY = {
  from: '2026-08-12',
  to: '2026-09-10',
  exchanges: [
    { platId: 1, name: 'Binance', ...figures({ records: 0, commission: '0.000000', credited: '0.000000' }) },
    { platId: 4, name: 'Bitget', ...figures({ paidOut: '0.000000', held: '0.000000', heldCount: 0 }) },
  ],
  totals: figures(),
};

function rosterEntry(overrides: Partial<RosterEntry> = {}): RosterEntry {
  return {
    uid: 'RCA001',
    registeredAt: '2019-01-01T00:00:00.000Z',
    source: 'import',
    sourceLabel: 'bitget-roster.csv',
    firstSeenAt: '2026-09-10T09:00:00.000Z',
    boundTo: 'me***@example.com',
    boundAt: '2026-09-10T09:00:00.000Z',
    ...overrides,
  };
}

function openRebate(overrides: Partial<OpenRebate> = {}): OpenRebate {
  return {
    id: 31,
    uid: 'RCY004',
    periodStart: '2026-09-01T00:00:00.000Z',
    periodEnd: '2026-09-02T00:00:00.000Z',
    fee: '6.000000',
    commission: '7.000000',
    status: 'failed',
    reason: 'rosterArrived',
    receivedAt: '2026-09-10T09:00:00.000Z',
    settledAt: '2026-09-10T09:00:00.000Z',
    decidesAt: null,
    boundTo: null,
    ...overrides,
  };
}

beforeEach(() => {
  window.innerWidth = 1280;
  logIn();
});

describe('the reconciliation summary', () => {
  it('shows the figures per exchange and in total, and asks for another period', async () => {
    const user = userEvent.setup();
    const calls = serve({ '/elex/admin/reconciliation/summary': () => envelope(SUMMARY) });
    renderRoutes(routes, '/admin/reconciliation');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('admin.reconciliation.title') }, SLOW),
    ).toBeVisible();
    const table = await screen.findByRole('table');
    const bitget = within(table).getByRole('row', { name: /Bitget/ });
    expect(within(bitget).getByText('25.00')).toBeVisible();
    expect(within(bitget).getByText('3.50')).toBeVisible();
    expect(
      within(bitget).getByText(t('admin.reconciliation.ofWhichUnbound', { amount: '2.00' })),
    ).toBeVisible();
    const total = within(table).getByRole('row', { name: new RegExp(t('admin.reconciliation.total')) });
    expect(within(total).getByText('70.00')).toBeVisible();
    expect(within(total).getByText(t('admin.reconciliation.heldCount', { count: 1 }))).toBeVisible();
    expect(screen.getByText(t('admin.reconciliation.identity'))).toBeVisible();

    const from = screen.getByLabelText(t('admin.reconciliation.from'));
    expect(from).toHaveValue('2026-08-12');
    await user.clear(from);
    await user.type(from, '2026-09-01');
    await user.click(screen.getByRole('button', { name: t('admin.reconciliation.show') }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/elex/admin/reconciliation/summary').at(-1)?.body).toEqual(
        {
          from: '2026-09-01',
          to: '2026-09-10',
        },
      ),
    );
  });

  it('shows a card per exchange on a phone', async () => {
    window.innerWidth = 390;
    serve({ '/elex/admin/reconciliation/summary': () => envelope(SUMMARY) });
    renderRoutes(routes, '/admin/reconciliation');
    const cards = await screen.findByRole('list', { name: t('admin.reconciliation.tabs.summary') }, SLOW);
    const bitget = within(cards).getByRole('heading', { name: 'Bitget' }).closest('li') as HTMLElement;
    expect(within(bitget).getByText(t('admin.reconciliation.figures.margin'))).toBeVisible();
    expect(within(bitget).getByText('3.50')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('the roster', () => {
  it('searches an exchange by UID prefix and shows who holds each UID', async () => {
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/reconciliation/roster': (body) =>
        envelope({
          rows:
            body.uidPrefix === 'RCB'
              ? [rosterEntry({ uid: 'RCB002', boundTo: null, boundAt: null })]
              : [rosterEntry()],
          total: 1,
          page: 1,
          pageSize: 50,
        }),
    });
    renderRoutes(routes, '/admin/reconciliation?tab=roster&platId=4');
    expect(await screen.findByText('me***@example.com', {}, SLOW)).toBeVisible();
    expect(screen.getByText(t('admin.reconciliation.sources.import'))).toBeVisible();
    await user.type(screen.getByLabelText(t('admin.reconciliation.uidPrefix')), 'RC%');
    await user.click(screen.getByRole('button', { name: t('admin.reconciliation.search') }));
    expect(screen.getByRole('alert')).toHaveTextContent(t('admin.reconciliation.prefixInvalid'));
    await user.clear(screen.getByLabelText(t('admin.reconciliation.uidPrefix')));
    await user.type(screen.getByLabelText(t('admin.reconciliation.uidPrefix')), 'RCB');
    await user.click(screen.getByRole('button', { name: t('admin.reconciliation.search') }));
    expect(await screen.findByText('RCB002')).toBeVisible();
    expect(screen.getByText(t('admin.reconciliation.notBound'))).toBeVisible();
    const asked = calls
      .filter((call) => call.path === '/elex/admin/reconciliation/roster')
      .map((call) => call.body);
    expect(asked).toEqual([
      { platId: 4, uidPrefix: '', page: 1, pageSize: 50 },
      { platId: 4, uidPrefix: 'RCB', page: 1, pageSize: 50 },
    ]);
  });
});

describe('records not paid', () => {
  it('shows each record with its reason in words, and re-settles the exchange once per click', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const settled: ResettleResult = {
      platId: 4,
      uid: null,
      settled: 1,
      completed: 1,
      failed: 0,
      recovered: 1,
      credited: '3.000000',
      rewards: '0.000000',
    };
    const calls = serve({
      '/elex/admin/reconciliation/rebates': () =>
        envelope({
          rows: [
            openRebate(),
            openRebate({
              id: 32,
              uid: 'RCX005',
              status: 'pending',
              reason: 'awaitingRoster',
              decidesAt: '2026-09-16T00:00:00.000Z',
              settledAt: null,
            }),
          ],
          total: 2,
          page: 1,
          pageSize: 50,
        }),
      '/elex/admin/reconciliation/settle': () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(envelope(settled));
        }),
    });
    renderRoutes(routes, '/admin/reconciliation?tab=rebates&platId=4');
    expect(await screen.findByText(t('admin.reconciliation.reasons.rosterArrived'), {}, SLOW)).toBeVisible();
    expect(screen.getByText(/Sep 16, 2026/)).toBeVisible();

    const button = screen.getByRole('button', {
      name: t('admin.reconciliation.settleExchange', { exchange: 'Bitget' }),
    });
    await user.click(button);
    expect(button).toBeDisabled();
    await user.click(button);
    release();
    // The toast mounts transparent and fades in: wait for it to be shown, not only rendered.
    const settledText = t('admin.reconciliation.settled', {
      count: 1,
      completed: 1,
      failed: 0,
      credited: '3.00',
    });
    await waitFor(() => expect(screen.getByText(settledText)).toBeVisible(), SLOW);
    expect(calls.filter((call) => call.path === '/elex/admin/reconciliation/settle')).toEqual([
      { path: '/elex/admin/reconciliation/settle', body: { platId: 4 } },
    ]);
  });

  it('filters by UID and offers to re-settle that UID', async () => {
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/reconciliation/rebates': () =>
        envelope({ rows: [openRebate()], total: 1, page: 1, pageSize: 50 }),
      '/elex/admin/reconciliation/settle': () =>
        envelope({
          platId: 4,
          uid: 'RCY004',
          settled: 0,
          completed: 0,
          failed: 0,
          recovered: 0,
          credited: '0.000000',
          rewards: '0.000000',
        }),
    });
    renderRoutes(routes, '/admin/reconciliation?tab=rebates&platId=4');
    await user.selectOptions(
      await screen.findByLabelText(t('admin.reconciliation.status'), {}, SLOW),
      'failed',
    );
    await user.type(screen.getByLabelText(t('admin.reconciliation.uid')), 'RCY004');
    await user.click(screen.getByRole('button', { name: t('admin.reconciliation.filter') }));
    await user.click(
      await screen.findByRole('button', { name: t('admin.reconciliation.settleUid', { uid: 'RCY004' }) }),
    );
    expect(await screen.findByText(t('admin.reconciliation.nothingDue'))).toBeVisible();
    expect(calls.filter((call) => call.path === '/elex/admin/reconciliation/rebates').at(-1)?.body).toEqual({
      platId: 4,
      status: 'failed',
      uid: 'RCY004',
      page: 1,
      pageSize: 50,
    });
    expect(calls.filter((call) => call.path === '/elex/admin/reconciliation/settle').at(-1)?.body).toEqual({
      platId: 4,
      uid: 'RCY004',
    });
  });
});
