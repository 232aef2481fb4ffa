import {
  type Dashboard,
  type ImportRun,
  PLACEHOLDER_REFERRAL_CODE,
  type PromotionCode,
  type PromotionStatus,
  type SyncRun,
  type SyncRunList,
  translate,
} from '@elex/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import { catalogExchange, pendingItem } from './test-fixtures';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

type Handler = (body: Record<string, unknown>) => Response;

/** Answers each call by path; page views and anything else get an empty success. */
function serve(handlers: Record<string, Handler>) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ path, body });
    const handler = handlers[path];
    return handler ? handler(body) : envelope(null);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const OPERATOR = { userId: 7, email: 'ops@example.com', userCode: 'EXOPS234' };
const CATALOG = { exchanges: [] };

describe('the operator console guard', () => {
  beforeEach(() => {
    window.innerWidth = 1280;
  });

  it('sends a visitor to /login with the console as the redirect target', async () => {
    const calls = serve({});
    const { router } = renderRoutes(routes, '/admin/withdrawals');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('pages.login.title') }, { timeout: 5000 }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/admin/withdrawals');
    expect(calls.some((call) => call.path.startsWith('/elex/admin/'))).toBe(false);
  });

  it('shows a member the forbidden page, as the server answers, and no console', async () => {
    logIn();
    serve({ '/elex/admin/whoami': () => envelope(null, 1003, 'You do not have permission to do this') });
    renderRoutes(routes, '/admin');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('admin.forbidden.title') }, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.queryByRole('navigation', { name: t('admin.console') })).toBeNull();
    // The answer is the page: no error toast on top of it.
    expect(screen.queryByText('You do not have permission to do this')).toBeNull();
  });

  it('opens the console for an operator', async () => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope(CATALOG),
      '/elex/admin/withdrawalQueue': () => envelope({ rows: [], total: 0, page: 1, pageSize: 10 }),
    });
    renderRoutes(routes, '/admin/withdrawals');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('admin.withdrawals.title') }),
    ).toBeVisible();
    const nav = screen.getByRole('navigation', { name: t('admin.console') });
    expect(within(nav).getByRole('link', { name: t('admin.nav.audit') })).toHaveAttribute(
      'href',
      '/admin/audit',
    );
    expect(screen.getByText(OPERATOR.email)).toBeVisible();
    expect(await screen.findByText(t('admin.withdrawals.empty'))).toBeVisible();
  });
});

describe('the catalog page', () => {
  it('lists what must be fixed before launch: the placeholder referral code, a link without {code}, unchecked fees', async () => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () =>
        envelope({
          exchanges: [
            catalogExchange({}),
            catalogExchange({
              platId: 5,
              name: 'Gate',
              referralCode: PLACEHOLDER_REFERRAL_CODE,
              feesCheckedOn: null,
            }),
            catalogExchange({
              platId: 6,
              name: 'BingX',
              referralCode: 'BX2026',
              signupUrlTemplate: 'https://bingx.com/invite/OLD1',
            }),
          ],
        }),
    });
    renderRoutes(routes, '/admin/catalog');
    const checks = await screen.findByRole(
      'region',
      { name: t('admin.catalog.checks.title') },
      { timeout: 5000 },
    );
    const lines = within(checks)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      t('admin.catalog.checks.placeholderCode', { code: PLACEHOLDER_REFERRAL_CODE, names: 'Gate' }),
      t('admin.catalog.checks.missingTemplate', { names: 'BingX' }),
      t('admin.catalog.checks.feesUnchecked', { names: 'Gate' }),
    ]);
    // Each row says whether its sign-up link can be offered.
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
    expect(within(row('Binance')).getByText(t('admin.catalog.signupReady'))).toBeVisible();
    expect(within(row('Gate')).getByText(t('admin.catalog.signupProblems.placeholderCode'))).toBeVisible();
    expect(within(row('BingX')).getByText(t('admin.catalog.signupProblems.missingTemplate'))).toBeVisible();
  });

  it('says nothing more once every partner has its own code and current fees', async () => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope({ exchanges: [catalogExchange({})] }),
    });
    renderRoutes(routes, '/admin/catalog');
    expect(await screen.findByRole('link', { name: 'Binance' }, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByRole('region', { name: t('admin.catalog.checks.title') })).toBeNull();
  });
});

describe('the dashboard', () => {
  function dashboard(partnersNotReady: Dashboard['partnersNotReady']): Dashboard {
    const zero = '0.000000';
    return {
      days: [{ day: '2026-06-01', signUps: 0, boundUids: 0, cashbackAccrued: zero, cashbackPaid: zero }],
      totals: {
        members: 0,
        liveBindings: 0,
        signUps: 0,
        boundUids: 0,
        cashbackAccrued: zero,
        cashbackPaid: zero,
      },
      pendingWithdrawals: { count: 0, amount: zero },
      pageViews: [],
      partnersNotReady,
    };
  }

  it('names the partners whose sign-up link production hides, by reason, each leading to its editor', async () => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/dashboard': () =>
        envelope(
          dashboard([
            { platId: 2, name: 'OKX', problems: ['placeholderCode'] },
            { platId: 6, name: 'BingX', problems: ['placeholderCode', 'missingTemplate'] },
          ]),
        ),
    });
    renderRoutes(routes, '/admin');
    const notReady = await screen.findByRole(
      'region',
      { name: t('admin.dashboard.partnersNotReady') },
      { timeout: 5000 },
    );
    expect(within(notReady).getByRole('link', { name: 'OKX' })).toHaveAttribute('href', '/admin/catalog/2');
    const items = within(notReady)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      `${t('admin.catalog.signupProblems.placeholderCode')}: OKX, BingX`,
      `${t('admin.catalog.signupProblems.missingTemplate')}: BingX`,
    ]);
  });

  it('says nothing about sign-ups once every partner is ready', async () => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/dashboard': () => envelope(dashboard([])),
    });
    renderRoutes(routes, '/admin');
    expect(
      await screen.findByText(t('admin.dashboard.pendingWithdrawals'), {}, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.queryByRole('region', { name: t('admin.dashboard.partnersNotReady') })).toBeNull();
  });
});

describe('approving a withdrawal', () => {
  it('asks for the payout transaction hash, refuses a malformed one, and sends a good one', async () => {
    logIn();
    const user = userEvent.setup();
    let decided = false;
    const calls = serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope(CATALOG),
      '/elex/admin/withdrawalQueue': () =>
        envelope({
          rows: decided ? [] : [pendingItem()],
          total: decided ? 0 : 1,
          page: 1,
          pageSize: 10,
        }),
      '/elex/admin/approveWithdrawal': () => {
        decided = true;
        return envelope({ id: '31', status: 'completed' }, 0, 'Withdrawal approved');
      },
    });
    renderRoutes(routes, '/admin/withdrawals');
    const item = await screen.findByRole('article', {
      name: t('admin.withdrawals.heading', { id: '31', amount: '60.00' }),
    });
    expect(within(item).getByText('member@example.com')).toBeVisible();
    expect(
      within(item).getByRole('region', { name: t('admin.withdrawals.historyOf', { id: '31' }) }),
    ).toBeVisible();

    await user.click(within(item).getByRole('button', { name: t('admin.withdrawals.approve') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.withdrawals.approveTitle') });
    const hash = within(dialog).getByLabelText(t('admin.withdrawals.txHash'));
    await user.type(hash, '0x1234');
    await user.click(within(dialog).getByRole('button', { name: t('admin.withdrawals.approveSubmit') }));
    expect(await within(dialog).findByText(t('msg:txHashInvalid'))).toBeVisible();
    expect(hash).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.path === '/elex/admin/approveWithdrawal')).toBe(false);

    const good = `0x${'ab'.repeat(32)}`;
    await user.clear(hash);
    await user.type(hash, good);
    await user.click(within(dialog).getByRole('button', { name: t('admin.withdrawals.approveSubmit') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/approveWithdrawal')?.body).toEqual({
        id: '31',
        txHash: good,
      }),
    );
    expect(await screen.findByText(t('admin.withdrawals.empty'))).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('rejects only with a reason', async () => {
    logIn();
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope(CATALOG),
      '/elex/admin/withdrawalQueue': () =>
        envelope({ rows: [pendingItem()], total: 1, page: 1, pageSize: 10 }),
      '/elex/admin/rejectWithdrawal': () => envelope({ id: '31', status: 'failed' }),
    });
    renderRoutes(routes, '/admin/withdrawals');
    await user.click(
      await screen.findByRole('button', { name: t('admin.withdrawals.reject') }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.withdrawals.rejectTitle') });
    await user.click(within(dialog).getByRole('button', { name: t('admin.withdrawals.rejectSubmit') }));
    expect(await within(dialog).findByText(t('msg:operatorReasonRequired'))).toBeVisible();
    await user.type(within(dialog).getByLabelText(t('admin.withdrawals.reason')), 'Wrong network');
    await user.click(within(dialog).getByRole('button', { name: t('admin.withdrawals.rejectSubmit') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/rejectWithdrawal')?.body).toEqual({
        id: '31',
        reason: 'Wrong network',
      }),
    );
  });
});

describe('a member’s page', () => {
  it('keeps the ledger of a UID the member no longer holds, saying so on each of its lines', async () => {
    window.innerWidth = 1280;
    logIn();
    const member = {
      userId: 12,
      email: 'member@example.com',
      userCode: 'EXMEM234',
      inviteCode: 'ABCDEFGH',
      createdAt: '2026-05-01T00:00:00.000Z',
      deletedAt: null,
      isOperator: false,
      liveBindings: 1,
      inviterId: null,
      locale: 'en',
      withdrawalLockedUntil: null,
      suspendedAt: null,
      suspension: null,
      lockLifted: null,
    };
    const binding = {
      platId: 4,
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      boundAt: '2026-05-02T00:00:00.000Z',
      balance: '10.000000',
    };
    const line = {
      at: '2026-05-20T00:00:00.000Z',
      kind: 'rebate',
      memo: null,
      amount: '10.000000',
      balanceAfter: '10.000000',
    };
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/memberDetail': () =>
        envelope({
          member,
          bindings: [
            { ...binding, uid: '40500001', unboundAt: null, unbindReason: null },
            {
              ...binding,
              uid: '40500002',
              unboundAt: '2026-05-25T00:00:00.000Z',
              unbindReason: 'Disputed ownership',
            },
          ],
          balances: { rewards: '0.000000', cashback: '10.000000' },
        }),
      '/elex/admin/memberLedger': () =>
        envelope({
          rows: [
            { ...line, lineId: 2, account: 'cashback:4:40500002', bindingEnded: true },
            { ...line, lineId: 1, account: 'cashback:4:40500001', bindingEnded: false },
          ],
          total: 2,
          page: 1,
          pageSize: 20,
        }),
    });
    renderRoutes(routes, '/admin/members/12');
    const ledger = await screen.findByRole('region', { name: t('admin.members.ledger') });
    const ended = (await within(ledger).findByText('cashback:4:40500002')).closest('tr') as HTMLElement;
    expect(within(ended).getByText(t('admin.ledger.bindingEnded'))).toBeVisible();
    const live = within(ledger).getByText('cashback:4:40500001').closest('tr') as HTMLElement;
    expect(within(live).queryByText(t('admin.ledger.bindingEnded'))).toBeNull();
  });
});

describe('a member’s page whose ledger or corrections fail to load', () => {
  it('says so with a retry in each section instead of loading for ever', async () => {
    window.innerWidth = 1280;
    logIn();
    let ledgerFails = true;
    const calls = serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/memberDetail': () =>
        envelope({
          member: {
            userId: 12,
            email: 'member@example.com',
            userCode: 'EXMEM234',
            inviteCode: 'ABCDEFGH',
            createdAt: '2026-05-01T00:00:00.000Z',
            deletedAt: null,
            isOperator: false,
            liveBindings: 0,
            inviterId: null,
            locale: 'en',
            withdrawalLockedUntil: null,
            suspendedAt: null,
            suspension: null,
            lockLifted: null,
          },
          bindings: [],
          balances: { rewards: '0.000000', cashback: '0.000000' },
        }),
      '/elex/admin/memberLedger': () =>
        ledgerFails
          ? new Response('', { status: 500 })
          : envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
      '/elex/admin/corrections/list': () => new Response('', { status: 500 }),
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/members/12');
    await screen.findByRole('heading', { name: 'member@example.com', level: 1 });
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .filter((alert) => alert.textContent?.includes(t('admin.common.loadFailed'))),
      ).toHaveLength(2),
    );
    ledgerFails = false;
    const retries = screen.getAllByRole('button', { name: t('admin.common.retry') });
    const before = calls.filter((call) => call.path === '/elex/admin/memberLedger').length;
    await user.click(retries.at(-1) as HTMLElement);
    expect(await screen.findByText(t('admin.members.noLedger'))).toBeVisible();
    expect(calls.filter((call) => call.path === '/elex/admin/memberLedger').length).toBe(before + 1);
  });
});

describe('the promotion codes page', () => {
  function promotion(overrides: Partial<PromotionCode>): PromotionCode {
    return {
      id: 1,
      code: 'SPRING-PROMO',
      note: 'Spring newsletter',
      createdAt: '2026-05-01T09:00:00.000Z',
      createdBy: 'ops@example.com',
      validThrough: null,
      maxUses: 100,
      signups: 12,
      disabledAt: null,
      status: 'active',
      updatedAt: '2026-05-01T09:00:00.000Z',
      ...overrides,
    };
  }

  /** Each saved change moves a code's version, as the server's does. */
  let versions = 0;
  const nextVersion = () => {
    versions += 1;
    return new Date(Date.parse('2026-06-01T00:00:00.000Z') + versions).toISOString();
  };

  /** The console's three promotion calls over a list the test can read. */
  function servePromotions(initial: PromotionCode[]) {
    const stored = [...initial];
    const calls = serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/promotionCodes': () =>
        envelope({ rows: stored, total: stored.length, page: 1, pageSize: 50 }),
      '/elex/admin/createPromotionCode': (body) => {
        const created = promotion({
          id: stored.length + 1,
          code: String(body.code),
          note: String(body.note),
          validThrough: (body.validThrough as string | null) ?? null,
          maxUses: (body.maxUses as number | null) ?? null,
          signups: 0,
        });
        stored.unshift(created);
        return envelope(created, 0, `Promotion code ${created.code} created`);
      },
      '/elex/admin/updatePromotionCode': (body) => {
        const index = stored.findIndex((code) => code.id === body.id);
        const current = stored[index] as PromotionCode;
        if (body.updatedAt !== current.updatedAt) {
          return envelope(null, 1002, translate('en', 'promotionCodeEditedMeanwhile'));
        }
        if (typeof body.maxUses === 'number' && body.maxUses < current.signups) {
          return envelope(
            null,
            1002,
            `The cap cannot be lower than the ${current.signups} sign-ups already made`,
          );
        }
        const next = { ...current, ...body, updatedAt: nextVersion() } as PromotionCode & {
          disabled?: boolean;
        };
        if (body.disabled !== undefined) {
          next.disabledAt = body.disabled ? '2026-06-01T00:00:00.000Z' : null;
          next.status = body.disabled ? 'disabled' : 'active';
        }
        delete next.disabled;
        stored[index] = next;
        return envelope(next, 0, 'Saved successfully');
      },
    });
    return {
      calls,
      stored,
      bodies: (path: string) => calls.filter((c) => c.path === path).map((c) => c.body),
    };
  }

  /** A code's row: its header cell holds the code, then the note. */
  const codeCell = (code: string) => screen.getByRole('rowheader', { name: new RegExp(`^${code}\\b`) });
  const rowOf = (code: string) => codeCell(code).closest('tr') as HTMLElement;
  const cells = (row: HTMLElement) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
  /** The status pill of a code's row (its cell also holds the buttons). */
  const hasStatus = (code: string, status: PromotionStatus) =>
    expect(within(rowOf(code)).getByText(t(`admin.promotions.statuses.${status}`))).toBeVisible();

  beforeEach(() => {
    window.innerWidth = 1280;
  });

  it('lists each code with its note, creator, last day, cap, sign-ups and status, from the console menu', async () => {
    logIn();
    servePromotions([
      promotion({}),
      promotion({ id: 2, code: 'SUMMER', note: '', validThrough: '2026-08-31', maxUses: null, signups: 3 }),
      promotion({ id: 3, code: 'FULL', maxUses: 5, signups: 5, status: 'usedUp' }),
    ]);
    renderRoutes(routes, '/admin/promotions');
    expect(await screen.findByRole('heading', { level: 1, name: t('admin.promotions.title') })).toBeVisible();
    const nav = screen.getByRole('navigation', { name: t('admin.console') });
    expect(within(nav).getByRole('link', { name: t('admin.nav.promotions') })).toHaveAttribute(
      'href',
      '/admin/promotions',
    );
    await screen.findByRole('rowheader', { name: /^SPRING-PROMO/ });
    expect(within(codeCell('SPRING-PROMO')).getByText('Spring newsletter')).toBeVisible();
    const spring = cells(rowOf('SPRING-PROMO'));
    expect(spring[0]).toContain('ops@example.com');
    expect(spring.slice(1, 4)).toEqual([t('admin.promotions.noEnd'), '100', '12']);
    hasStatus('SPRING-PROMO', 'active');
    expect(cells(rowOf('SUMMER')).slice(2, 4)).toEqual([t('admin.promotions.noCap'), '3']);
    expect(cells(rowOf('SUMMER'))[1]).toMatch(/2026/);
    hasStatus('FULL', 'usedUp');
  });

  it('checks a new code before sending it, then creates it and lists it', async () => {
    logIn();
    const user = userEvent.setup();
    const server = servePromotions([promotion({})]);
    renderRoutes(routes, '/admin/promotions');
    const form = await screen.findByRole('form', { name: t('admin.promotions.createTitle') });
    const code = within(form).getByLabelText(t('admin.promotions.code'));
    await user.type(code, 'no spaces');
    await user.type(within(form).getByLabelText(t('admin.promotions.maxUses')), '0');
    await user.click(within(form).getByRole('button', { name: t('admin.promotions.create') }));
    expect(await within(form).findByText(t('msg:promotionCodeFormat'))).toBeVisible();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText(t('msg:promotionCapInvalid'))).toBeVisible();
    expect(server.bodies('/elex/admin/createPromotionCode')).toEqual([]);

    await user.clear(code);
    await user.type(code, 'autumn-x');
    await user.type(within(form).getByLabelText(t('admin.promotions.note')), 'Partner newsletter');
    fireEvent.change(within(form).getByLabelText(t('admin.promotions.validThrough')), {
      target: { value: '2099-09-30' },
    });
    const cap = within(form).getByLabelText(t('admin.promotions.maxUses'));
    await user.clear(cap);
    await user.type(cap, '500');
    await user.click(within(form).getByRole('button', { name: t('admin.promotions.create') }));

    await waitFor(() =>
      expect(server.bodies('/elex/admin/createPromotionCode')).toEqual([
        { code: 'AUTUMN-X', note: 'Partner newsletter', validThrough: '2099-09-30', maxUses: 500 },
      ]),
    );
    expect(await screen.findByText('Promotion code AUTUMN-X created')).toBeVisible();
    expect(await screen.findByRole('rowheader', { name: /^AUTUMN-X/ })).toBeVisible();
    expect(code).toHaveValue('');
  });

  it('disables and enables a code, and edits its cap with the server refusing one below the sign-ups', async () => {
    logIn();
    const user = userEvent.setup();
    const server = servePromotions([promotion({})]);
    renderRoutes(routes, '/admin/promotions');
    await user.click(
      await screen.findByRole('button', {
        name: t('admin.promotions.disableCode', { code: 'SPRING-PROMO' }),
      }),
    );
    await waitFor(() => hasStatus('SPRING-PROMO', 'disabled'));
    expect(server.bodies('/elex/admin/updatePromotionCode')).toEqual([
      { id: 1, updatedAt: '2026-05-01T09:00:00.000Z', disabled: true },
    ]);
    await user.click(
      screen.getByRole('button', { name: t('admin.promotions.enableCode', { code: 'SPRING-PROMO' }) }),
    );
    await waitFor(() => hasStatus('SPRING-PROMO', 'active'));
    // Enabled on the version the list reloaded after the disabling (the server refuses an older one);
    // the dialog opens on the enabling's.
    const enabled = server.stored[0]?.updatedAt;

    await user.click(
      screen.getByRole('button', { name: t('admin.promotions.editCode', { code: 'SPRING-PROMO' }) }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: t('admin.promotions.editTitle', { code: 'SPRING-PROMO' }),
    });
    const cap = within(dialog).getByLabelText(t('admin.promotions.maxUses'));
    expect(cap).toHaveValue('100');
    await user.clear(cap);
    await user.type(cap, '5');
    await user.click(within(dialog).getByRole('button', { name: t('admin.promotions.save') }));
    expect(
      await screen.findByText('The cap cannot be lower than the 12 sign-ups already made'),
    ).toBeVisible();
    expect(dialog).toBeInTheDocument();

    await user.clear(cap);
    await user.type(cap, '200');
    await user.click(within(dialog).getByRole('button', { name: t('admin.promotions.save') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.bodies('/elex/admin/updatePromotionCode').at(-1)).toEqual({
      id: 1,
      updatedAt: enabled,
      note: 'Spring newsletter',
      validThrough: null,
      maxUses: 200,
    });
    await waitFor(() => expect(cells(rowOf('SPRING-PROMO'))[2]).toBe('200'));
  });

  it('saves nothing from a dialog opened before another operator changed the code, reloads their version, then saves on it', async () => {
    logIn();
    const user = userEvent.setup();
    const server = servePromotions([promotion({})]);
    renderRoutes(routes, '/admin/promotions');
    await user.click(
      await screen.findByRole('button', { name: t('admin.promotions.editCode', { code: 'SPRING-PROMO' }) }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: t('admin.promotions.editTitle', { code: 'SPRING-PROMO' }),
    });
    // Another operator lowers the cap and says why, after this dialog opened.
    const theirs = {
      ...promotion({}),
      note: 'Fraud ring: capped',
      maxUses: 12,
      updatedAt: '2026-05-02T00:00:00.000Z',
    };
    server.stored[0] = theirs;
    const lists = () => server.calls.filter((call) => call.path === '/elex/admin/promotionCodes').length;
    const listsBefore = lists();

    const note = within(dialog).getByLabelText(t('admin.promotions.note'));
    await user.clear(note);
    await user.type(note, 'Summer newsletter');
    await user.click(within(dialog).getByRole('button', { name: t('admin.promotions.save') }));
    expect(await screen.findByText(translate('en', 'promotionCodeEditedMeanwhile'))).toBeVisible();
    expect(server.bodies('/elex/admin/updatePromotionCode')).toEqual([
      {
        id: 1,
        updatedAt: '2026-05-01T09:00:00.000Z',
        note: 'Summer newsletter',
        validThrough: null,
        maxUses: 100,
      },
    ]);
    expect(server.stored[0]).toEqual(theirs);
    // The list reloads behind the dialog, which keeps what was typed.
    await waitFor(() => expect(lists()).toBe(listsBefore + 1));
    expect(note).toHaveValue('Summer newsletter');
    await user.click(within(dialog).getByRole('button', { name: t('admin.common.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The row shows their note and cap.
    expect(within(codeCell('SPRING-PROMO')).getByText('Fraud ring: capped')).toBeVisible();
    expect(cells(rowOf('SPRING-PROMO'))[2]).toBe('12');

    // Opened again, the dialog starts from their version, and a save on it goes in.
    await user.click(
      screen.getByRole('button', { name: t('admin.promotions.editCode', { code: 'SPRING-PROMO' }) }),
    );
    const again = await screen.findByRole('dialog', {
      name: t('admin.promotions.editTitle', { code: 'SPRING-PROMO' }),
    });
    expect(within(again).getByLabelText(t('admin.promotions.note'))).toHaveValue('Fraud ring: capped');
    expect(within(again).getByLabelText(t('admin.promotions.maxUses'))).toHaveValue('12');
    await user.type(within(again).getByLabelText(t('admin.promotions.note')), ' (checked)');
    await user.click(within(again).getByRole('button', { name: t('admin.promotions.save') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.bodies('/elex/admin/updatePromotionCode').at(-1)).toEqual({
      id: 1,
      updatedAt: '2026-05-02T00:00:00.000Z',
      note: 'Fraud ring: capped (checked)',
      validThrough: null,
      maxUses: 12,
    });
    expect(server.stored[0]).toMatchObject({ note: 'Fraud ring: capped (checked)', maxUses: 12 });
  });

  it('does not enable a code another operator changed since the row loaded; the row then shows why', async () => {
    logIn();
    const user = userEvent.setup();
    const paused = promotion({ disabledAt: '2026-05-20T00:00:00.000Z', status: 'disabled' });
    const server = servePromotions([paused]);
    renderRoutes(routes, '/admin/promotions');
    const enable = await screen.findByRole('button', {
      name: t('admin.promotions.enableCode', { code: 'SPRING-PROMO' }),
    });
    // Another operator, finding fraud, notes it on the paused code after this page loaded.
    const theirs = { ...paused, note: 'Fraud ring: do not enable', updatedAt: '2026-05-21T00:00:00.000Z' };
    server.stored[0] = theirs;

    await user.click(enable);
    expect(await screen.findByText(translate('en', 'promotionCodeEditedMeanwhile'))).toBeVisible();
    expect(server.bodies('/elex/admin/updatePromotionCode')).toEqual([
      { id: 1, updatedAt: '2026-05-01T09:00:00.000Z', disabled: false },
    ]);
    expect(server.stored[0]).toEqual(theirs);
    // The list reloaded: the row shows their note, still disabled.
    await waitFor(() =>
      expect(within(codeCell('SPRING-PROMO')).getByText('Fraud ring: do not enable')).toBeInTheDocument(),
    );
    hasStatus('SPRING-PROMO', 'disabled');
  });
});

describe('the exchange syncs on the imports page', () => {
  const skipNote = 'segment skipped by ops@example.com: Bitget refuses the 16th (row without fee)';
  const pullCommand = 'npm run ops -- sync bitget --from 2026-01-16T18:00:00Z --to 2026-01-17T00:00:00Z';
  const skipRun: SyncRun = {
    id: 16,
    platId: 4,
    exchange: 'bitget',
    trigger: 'cli',
    status: 'skipped',
    windowStart: '2026-01-16T18:00:00.000Z',
    windowEnd: '2026-01-17T00:00:00.000Z',
    segmentsTotal: 1,
    segmentsDone: 0,
    referralsInserted: 0,
    rebatesInserted: 0,
    rebatesDuplicates: 0,
    rebatesSettled: 0,
    segmentSkipped: true,
    error: skipNote,
    startedAt: '2026-01-20T13:30:00.000Z',
    finishedAt: '2026-01-20T13:30:00.000Z',
  };
  /** A succeeded roster upload in the import history, one new UID, as the server lists it. */
  const rosterRun = (overrides: Partial<ImportRun>): ImportRun => ({
    id: 3,
    kind: 'referrals',
    platId: 4,
    fileName: 'roster.csv',
    sizeBytes: 120,
    operator: 'ops@example.com',
    status: 'succeeded',
    rows: 1,
    inserted: 1,
    duplicates: 0,
    settledCompleted: 0,
    settledFailed: 0,
    credited: '0.000000',
    problemCount: 0,
    problems: [],
    noticeCount: 0,
    notices: [],
    error: null,
    startedAt: '2026-01-20T12:00:00.000Z',
    finishedAt: '2026-01-20T12:00:01.000Z',
    ...overrides,
  });
  const syncRuns = (pulledByRunId: number | null): SyncRunList => ({
    runs: [skipRun],
    cursors: [{ platId: 4, nextSegmentStart: '2026-01-18T12:00:00.000Z' }],
    skippedSegments: [
      {
        runId: 16,
        platId: 4,
        from: skipRun.windowStart,
        to: skipRun.windowEnd,
        note: skipNote,
        skippedAt: skipRun.startedAt,
        pulledByRunId,
        pullCommand,
      },
    ],
    hasMore: false,
  });
  const open = (list: SyncRunList) => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope(CATALOG),
      '/elex/admin/importRuns': () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
      '/elex/admin/syncRuns': () => envelope(list),
    });
    renderRoutes(routes, '/admin/imports');
  };

  it('lists a segment an operator skipped, who and why, and the command that pulls it', async () => {
    open(syncRuns(null));
    const skipped = await screen.findByRole(
      'table',
      { name: t('admin.imports.skippedTitle') },
      { timeout: 5000 },
    );
    expect(within(skipped).getByText(skipNote)).toBeVisible();
    expect(within(skipped).getByText(t('admin.imports.skippedNotPulled'))).toBeVisible();
    expect(within(skipped).getByText(pullCommand)).toBeVisible();
    // The run itself says a segment was skipped, not that another sync held the exchange.
    const runs = screen.getByRole('region', { name: t('admin.imports.syncTitle') });
    expect(within(runs).getByText(t('admin.imports.syncStatuses.segmentSkipped'))).toBeVisible();
    expect(within(runs).queryByText(t('admin.imports.syncStatuses.skipped'))).toBeNull();
  });

  it('names each column for what its cells hold (a screen reader reads the heading with the cell)', async () => {
    logIn();
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope(CATALOG),
      '/elex/admin/importRuns': () =>
        envelope({
          rows: [rosterRun({ id: 3 })],
          total: 1,
          page: 1,
          pageSize: 10,
        }),
      '/elex/admin/syncRuns': () => envelope(syncRuns(null)),
    });
    renderRoutes(routes, '/admin/imports');
    const headings = async (name: string) =>
      within(await screen.findByRole('region', { name }, { timeout: 5000 }))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent);
    expect((await headings(t('admin.imports.runsTitle'))).slice(0, 2)).toEqual([
      t('admin.imports.whenBy'),
      t('admin.imports.fileExchange'),
    ]);
    expect(t('admin.imports.whenBy')).toBe('When / by');
    expect((await headings(t('admin.imports.syncTitle')))[0]).toBe('Run');
  });

  it('names an imported roster line that restated a known UID with another registration time', async () => {
    logIn();
    const reason =
      'UID 72000001 is already in the roster, registered at 2026-01-02 10:00 UTC; this line says 2026-01-05 10:00 UTC: the stored time stays';
    serve({
      '/elex/admin/whoami': () => envelope(OPERATOR),
      '/elex/admin/catalog': () => envelope(CATALOG),
      '/elex/admin/importRuns': () =>
        envelope({
          rows: [
            rosterRun({
              id: 4,
              fileName: 'roster-2.csv',
              rows: 3,
              duplicates: 2,
              noticeCount: 1,
              notices: [{ line: 3, field: 'registered_at', reason }],
            }),
          ],
          total: 1,
          page: 1,
          pageSize: 10,
        }),
      '/elex/admin/syncRuns': () => envelope(syncRuns(null)),
    });
    renderRoutes(routes, '/admin/imports');
    const runs = await screen.findByRole('region', { name: t('admin.imports.runsTitle') }, { timeout: 5000 });
    expect(
      within(runs).getByText(
        `${t('msg:importRegistrationsDiffer', { count: 1 })} — ${t('admin.imports.lineReason', { line: 3, reason })}`,
      ),
    ).toBeVisible();
    expect(t('msg:importRegistrationsDiffer', { count: 1 })).toMatch(
      /^1 line\(s\) state another registration time/,
    );
  });

  it('says which run pulled a skipped segment since', async () => {
    open(syncRuns(21));
    const skipped = await screen.findByRole(
      'table',
      { name: t('admin.imports.skippedTitle') },
      { timeout: 5000 },
    );
    expect(within(skipped).getByText(t('admin.imports.skippedPulledBy', { id: 21 }))).toBeVisible();
    expect(within(skipped).queryByText(pullCommand)).toBeNull();
  });
});
