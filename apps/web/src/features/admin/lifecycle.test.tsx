import type { CatalogExchange, MemberDetail } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { dictionaryEntry, dictionaryOf } from '../../test/exchange-fixtures';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import ExchangeListPage from '../exchanges/exchange-list-page';
import { serveConsole, TEST_OPERATOR } from './test-fixtures';

/** issue 12 in the console: suspending a member, lifting the lock, adding and retiring a partner. */

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
function detail(member: Partial<MemberDetail['member']> = {}): MemberDetail {
  return {
    member: {
      userId: 12,
      email: 'member@example.com',
      userCode: 'EXMEM234',
      inviteCode: 'ABCDEFGH',
      createdAt: '2026-05-01T00:00:00.000Z',
      deletedAt: null,
      isOperator: false,
      liveBindings: 0,
      suspendedAt: null,
      inviterId: null,
      locale: 'en',
      withdrawalLockedUntil: null,
      suspension: null,
      lockLifted: null,
      ...member,
    },
    bindings: [],
    balances: { rewards: '0.000000', cashback: '0.000000' },
  };
}

/** The console's lazy pages take long to load when the machine is busy (several suites at once). */
const LOAD_MS = 30_000;

const emptyLedger = () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 });

beforeEach(() => {
  window.innerWidth = 1280;
  logIn();
  clearExchangeDictionary();
});

describe('suspending a member', { timeout: 90_000 }, () => {
  it('says nobody is suspended when the filter finds no one, not that an empty search matched nothing', async () => {
    serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/searchMembers': () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
    });
    renderRoutes(routes, '/admin/members?suspended=1');
    expect(await screen.findByText(t('admin.members.noSuspended'), {}, { timeout: LOAD_MS })).toBeVisible();
    expect(screen.queryByText(/“”/)).toBeNull();
  });

  it('asks for a reason with focus on it, refuses an empty one, then shows who suspended and why', async () => {
    const reason = 'Chargeback under investigation';
    let current = detail();
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': () => envelope(current),
      '/elex/admin/memberLedger': emptyLedger,
      '/elex/admin/suspendMember': () => {
        current = detail({
          suspendedAt: '2026-06-01T12:00:00.000Z',
          suspension: { at: '2026-06-01T12:00:00.000Z', reason, by: TEST_OPERATOR.email },
        });
        return envelope(current);
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/members/12');
    const status = await screen.findByRole(
      'region',
      { name: t('admin.lifecycle.statusTitle') },
      { timeout: LOAD_MS },
    );
    expect(within(status).getByText(t('admin.lifecycle.active'))).toBeVisible();
    await user.click(within(status).getByRole('button', { name: t('admin.lifecycle.suspendMember.open') }));

    const dialog = await screen.findByRole('dialog', { name: t('admin.lifecycle.suspendMember.title') });
    const field = within(dialog).getByRole('textbox', { name: t('admin.lifecycle.reason') });
    await waitFor(() => expect(field).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: t('admin.lifecycle.suspendMember.submit') }));
    expect(await within(dialog).findByText(t('msg:operatorReasonRequired'))).toBeVisible();
    expect(calls.some((call) => call.path === '/elex/admin/suspendMember')).toBe(false);

    await user.type(field, reason);
    await user.click(within(dialog).getByRole('button', { name: t('admin.lifecycle.suspendMember.submit') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/suspendMember')?.body).toEqual({
        userId: 12,
        reason,
      }),
    );
    expect(await within(status).findByText(t('admin.lifecycle.suspended'))).toBeVisible();
    expect(within(status).getByText(reason)).toBeVisible();
    expect(within(status).getByText(new RegExp(TEST_OPERATOR.email))).toBeVisible();
    expect(
      within(status).getByRole('button', { name: t('admin.lifecycle.reinstateMember.open') }),
    ).toBeVisible();
  });

  it('lifts the withdrawal lock with a reason and shows the lift', async () => {
    let current = detail({ withdrawalLockedUntil: '2026-06-04T12:00:00.000Z' });
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': () => envelope(current),
      '/elex/admin/memberLedger': emptyLedger,
      '/elex/admin/liftWithdrawalLock': (body) => {
        current = detail({
          lockLifted: {
            at: '2026-06-01T13:00:00.000Z',
            reason: String(body.reason),
            by: TEST_OPERATOR.email,
            lockedUntil: '2026-06-04T12:00:00.000Z',
          },
        });
        return envelope(current);
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/members/12');
    const status = await screen.findByRole(
      'region',
      { name: t('admin.lifecycle.statusTitle') },
      { timeout: LOAD_MS },
    );
    await user.click(
      within(status).getByRole('button', { name: t('admin.lifecycle.liftWithdrawalLock.open') }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.lifecycle.liftWithdrawalLock.title') });
    await user.type(within(dialog).getByRole('textbox'), 'Called from the registered phone');
    await user.click(
      within(dialog).getByRole('button', { name: t('admin.lifecycle.liftWithdrawalLock.submit') }),
    );
    expect(await within(status).findByText('Called from the registered phone')).toBeVisible();
    expect(within(status).getByText(t('admin.lifecycle.notLocked'))).toBeVisible();
    expect(calls.filter((call) => call.path === '/elex/admin/liftWithdrawalLock')).toHaveLength(1);
  });

  it('on the operator’s own page offers neither lifting the lock nor unbinding, and says another operator does', async () => {
    const own = detail({
      userId: TEST_OPERATOR.userId,
      email: TEST_OPERATOR.email,
      isOperator: true,
      liveBindings: 1,
      withdrawalLockedUntil: '2026-06-04T12:00:00.000Z',
    });
    own.bindings = [
      {
        platId: 4,
        uid: '40500001',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        boundAt: '2026-05-02T00:00:00.000Z',
        balance: '10.000000',
        unboundAt: null,
        unbindReason: null,
      },
    ] as MemberDetail['bindings'];
    serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': () => envelope(own),
      '/elex/admin/memberLedger': emptyLedger,
    });
    renderRoutes(routes, `/admin/members/${TEST_OPERATOR.userId}`);
    const status = await screen.findByRole(
      'region',
      { name: t('admin.lifecycle.statusTitle') },
      { timeout: LOAD_MS },
    );
    expect(await within(status).findByText(t('admin.lifecycle.ownAccount'))).toBeVisible();
    expect(
      within(status).queryByRole('button', { name: t('admin.lifecycle.liftWithdrawalLock.open') }),
    ).not.toBeInTheDocument();
    const bindings = screen.getByRole('region', { name: t('admin.members.bindings') });
    expect(within(bindings).getByText(t('admin.members.ownUid'))).toBeVisible();
    expect(within(bindings).queryByRole('button', { name: /40500001/ })).not.toBeInTheDocument();
  });
});

function partner(overrides: Partial<CatalogExchange>): CatalogExchange {
  return {
    platId: 11,
    status: 'draft',
    name: 'Newex',
    abbreviation: 'NX',
    logo: '/logos/new-exchange.svg',
    position: 11,
    score: '0.0',
    cashRate: '0.00',
    speedUpCashRate: '0.00',
    limitPrice: '0.0000',
    marketPrice: '0.0000',
    vipRule: 'either',
    marks: [],
    signupUrlTemplate: '',
    referralCode: 'ELEXCB',
    newUserDiscountPercent: 0,
    newUserDiscountDays: 0,
    isRecommended: false,
    isRacing: false,
    feesCheckedOn: null,
    updatedAt: '2026-06-01T12:00:00.000Z',
    vipTiers: [],
    activities: [],
    ...overrides,
  };
}

describe('the partner lifecycle', { timeout: 90_000 }, () => {
  it('adds a draft from the catalog page and opens its editor, which offers to publish it', async () => {
    let exchanges: CatalogExchange[] = [];
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/catalog': () => envelope({ exchanges }),
      '/elex/admin/createExchange': (body) => {
        exchanges = [partner({ name: String(body.name), abbreviation: String(body.abbreviation) })];
        return envelope(exchanges[0]);
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/catalog');
    await user.click(
      await screen.findByRole('button', { name: t('admin.lifecycle.addExchange') }, { timeout: LOAD_MS }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.lifecycle.addTitle') });
    const name = within(dialog).getByRole('textbox', { name: t('admin.catalog.name') });
    await waitFor(() => expect(name).toHaveFocus());
    await user.type(name, 'Newex');
    await user.type(within(dialog).getByRole('textbox', { name: t('admin.catalog.abbreviation') }), 'NX');
    await user.click(within(dialog).getByRole('button', { name: t('admin.lifecycle.addSubmit') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/catalog/11'), { timeout: 5000 });
    expect(calls.find((call) => call.path === '/elex/admin/createExchange')?.body).toEqual({
      name: 'Newex',
      abbreviation: 'NX',
    });
    const card = await screen.findByRole('region', { name: /Status/ }, { timeout: LOAD_MS });
    expect(within(card).getByText(t('admin.lifecycle.statuses.draft'))).toBeVisible();
    expect(within(card).getByRole('button', { name: t('admin.lifecycle.publish.open') })).toBeVisible();
  });

  it('leaves a retired partner off the public exchange list', async () => {
    const retired = dictionaryEntry({
      id: 7,
      name: 'Oldex',
      Abbreviation: 'OX',
      retired: true,
      signupUrl: null,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: RequestInfo | URL) =>
        String(url) === '/elex/user/config/res.json'
          ? envelope(dictionaryOf([dictionaryEntry(), retired]))
          : envelope(null),
      ),
    );
    renderRoutes([{ path: '/exchange', element: <ExchangeListPage /> }], '/exchange');
    expect(await screen.findByRole('heading', { level: 2, name: 'Bybit' })).toBeVisible();
    expect(screen.queryByRole('heading', { level: 2, name: 'Oldex' })).toBeNull();
  });
});
