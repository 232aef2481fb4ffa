import type { AdminSupportDetail, AdminSupportRow, SupportUidState } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import { serveConsole } from './test-fixtures';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const CLAIMANT_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

const serve = serveConsole;

function row(overrides: Partial<AdminSupportRow> = {}): AdminSupportRow {
  return {
    id: '12',
    kind: 'uidBoundByOther',
    platId: 4,
    uid: '40512345',
    status: 'open',
    resolution: null,
    createdAt: '2026-06-01T10:00:00.000Z',
    updatedAt: '2026-06-01T10:00:00.000Z',
    userId: 21,
    email: 'claimant@example.com',
    ...overrides,
  };
}

function uidState(overrides: Partial<SupportUidState> = {}): SupportUidState {
  return {
    platId: 4,
    uid: '40512345',
    holder: {
      userId: 33,
      email: 'holder@example.com',
      boundAt: '2026-05-30T08:00:00.000Z',
      heldUntil: '2026-06-13T08:00:00.000Z',
      ownershipVerifiedAt: null,
    },
    balance: '75.500000',
    registeredAt: '2026-05-01T00:00:00.000Z',
    frozen: true,
    withdrawalsUnderReview: 0,
    holderInviterBonuses: [],
    ...overrides,
  };
}

function request(overrides: Partial<AdminSupportDetail> = {}): AdminSupportDetail {
  return {
    ...row(),
    address: CLAIMANT_ADDRESS,
    closedBy: null,
    messages: [
      {
        id: '1',
        author: 'member',
        text: 'This Bitget account is mine; here is its profile page.',
        image: 'data:image/png;base64,iVBORw0KGgo=',
        imageErased: false,
        createdAt: '2026-06-01T10:00:00.000Z',
      },
    ],
    uidState: uidState(),
    ...overrides,
  };
}

beforeEach(() => {
  window.innerWidth = 1280;
  logIn();
});

describe('the support queue', () => {
  it('lists open and answered requests by default, and filters by status and topic', async () => {
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/support/list': () =>
        envelope({
          rows: [
            row(),
            row({ id: '9', kind: 'account', platId: null, uid: null, email: null, status: 'answered' }),
          ],
          total: 2,
          page: 1,
          pageSize: 20,
        }),
    });
    const { router } = renderRoutes(routes, '/admin/support');
    const table = await screen.findByRole('table', {}, { timeout: 5000 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement);
    expect(
      first.getByRole('link', {
        name: t('admin.support.requestLink', { id: '12', kind: t('support.kinds.uidBoundByOther') }),
      }),
    ).toHaveAttribute('href', '/admin/support/12');
    expect(first.getByText('claimant@example.com')).toBeVisible();
    expect(first.getByText('#4 · UID 40512345')).toBeVisible();
    expect(first.getByText(t('admin.support.statuses.open'))).toBeVisible();
    expect(within(rows[1] as HTMLElement).getByText(t('admin.members.deletedAccount'))).toBeVisible();
    expect(calls.find((call) => call.path === '/elex/admin/support/list')?.body).toEqual({
      status: 'active',
      page: 1,
      pageSize: 20,
    });
    const nav = screen.getByRole('navigation', { name: t('admin.console') });
    expect(within(nav).getByRole('link', { name: t('admin.nav.support') })).toHaveAttribute(
      'href',
      '/admin/support',
    );

    await user.selectOptions(screen.getByRole('combobox', { name: t('admin.support.status') }), 'closed');
    await user.selectOptions(screen.getByRole('combobox', { name: t('admin.support.kind') }), 'ownership');
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/elex/admin/support/list').at(-1)?.body).toEqual({
        status: 'closed',
        kind: 'ownership',
        page: 1,
        pageSize: 20,
      }),
    );
    expect(router.state.location.search).toBe('?status=closed&kind=ownership');
  });
});

describe('a support request in the console', () => {
  it('shows the thread with its screenshot and the UID’s state', async () => {
    serve({ '/elex/admin/support/detail': () => envelope(request()) });
    renderRoutes(routes, '/admin/support/12');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: t('admin.support.requestTitle', { id: '12' }) },
        { timeout: 5000 },
      ),
    ).toBeVisible();
    const thread = await screen.findByRole('region', { name: t('support.thread.title') });
    expect(
      within(thread).getByRole('img', {
        name: t('support.thread.imageAlt', { author: t('support.thread.member') }),
      }),
    ).toBeVisible();
    const uid = screen.getByRole('region', { name: t('admin.support.uidState') });
    expect(within(uid).getByRole('link', { name: 'holder@example.com' })).toHaveAttribute(
      'href',
      '/admin/members/33',
    );
    expect(uid).toHaveTextContent('75.50 USDT');
    expect(uid).toHaveTextContent(t('admin.support.frozenYes'));
    expect(uid).toHaveTextContent('Jun 13, 2026');
    const facts = screen.getByRole('region', { name: t('admin.support.request') });
    expect(facts).toHaveTextContent(CLAIMANT_ADDRESS);
  });

  it('names the invite bonuses the holder’s inviter was paid, and says in the move dialog that they stay', async () => {
    const user = userEvent.setup();
    serve({
      '/elex/admin/support/detail': () =>
        envelope(
          request({
            uidState: uidState({
              holderInviterBonuses: [
                { inviterId: 7, email: 'inviter@example.com', amount: '6.500000' },
                { inviterId: 8, email: null, amount: '1.500000' },
              ],
            }),
          }),
        ),
    });
    renderRoutes(routes, '/admin/support/12');
    const uid = await screen.findByRole('region', { name: t('admin.support.uidState') }, { timeout: 5000 });
    expect(within(uid).getByRole('link', { name: 'inviter@example.com' })).toHaveAttribute(
      'href',
      '/admin/members/7',
    );
    expect(uid).toHaveTextContent('inviter@example.com · 6.50 USDT');
    expect(uid).toHaveTextContent(`${t('admin.members.deletedAccount')} · 1.50 USDT`);

    await user.click(screen.getByRole('button', { name: t('admin.support.move') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.support.moveTitle') });
    expect(dialog).toHaveTextContent(t('admin.support.moveBonusNote', { amount: '8.00' }));
  });

  it('says no invite bonus was paid when none was, and the move dialog does not mention them', async () => {
    const user = userEvent.setup();
    serve({ '/elex/admin/support/detail': () => envelope(request()) });
    renderRoutes(routes, '/admin/support/12');
    const uid = await screen.findByRole('region', { name: t('admin.support.uidState') }, { timeout: 5000 });
    expect(uid).toHaveTextContent(
      `${t('admin.support.inviterBonuses')}${t('admin.support.inviterBonusesNone')}`,
    );
    await user.click(screen.getByRole('button', { name: t('admin.support.move') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.support.moveTitle') });
    // The dialog says what moves, and nothing about bonuses.
    expect(dialog).toHaveAccessibleDescription(
      t('admin.support.moveBody', {
        // This page's test serves no exchange list: the exchange is named by its id.
        exchange: '#4',
        uid: '40512345',
        balance: '75.50',
        holder: 'holder@example.com',
        member: 'claimant@example.com',
        address: CLAIMANT_ADDRESS,
      }),
    );
  });

  it('moves the binding to the claimant only after the operator confirms', async () => {
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/support/detail': () => envelope(request()),
      '/elex/admin/support/moveBinding': () =>
        envelope(
          request({
            status: 'closed',
            resolution: 'moved',
            uidState: uidState({
              frozen: false,
              holder: {
                userId: 21,
                email: 'claimant@example.com',
                boundAt: '2026-06-02T00:00:00.000Z',
                heldUntil: null,
                ownershipVerifiedAt: '2026-06-02T00:00:00.000Z',
              },
            }),
          }),
          0,
          t('msg:supportMoved'),
        ),
    });
    renderRoutes(routes, '/admin/support/12');
    await user.click(await screen.findByRole('button', { name: t('admin.support.move') }, { timeout: 5000 }));

    const dialog = await screen.findByRole('dialog', { name: t('admin.support.moveTitle') });
    expect(dialog).toHaveTextContent('holder@example.com');
    expect(dialog).toHaveTextContent('claimant@example.com');
    expect(dialog).toHaveTextContent(CLAIMANT_ADDRESS);
    expect(dialog).toHaveTextContent('75.50 USDT');
    expect(calls.some((call) => call.path === '/elex/admin/support/moveBinding')).toBe(false);

    // Cancelling changes nothing.
    await user.click(within(dialog).getByRole('button', { name: t('admin.common.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.path === '/elex/admin/support/moveBinding')).toBe(false);

    await user.click(screen.getByRole('button', { name: t('admin.support.move') }));
    const again = await screen.findByRole('dialog', { name: t('admin.support.moveTitle') });
    await user.click(within(again).getByRole('button', { name: t('admin.support.moveConfirm') }));
    await waitFor(() =>
      expect(
        calls.filter((call) => call.path === '/elex/admin/support/moveBinding').map((call) => call.body),
      ).toEqual([{ id: '12' }]),
    );
    expect(await screen.findByText(t('msg:supportMoved'))).toBeVisible();
    expect(await screen.findByText(t('admin.support.resolutions.moved'))).toBeVisible();
    // A closed request takes no more decisions.
    expect(screen.queryByRole('button', { name: t('admin.support.move') })).toBeNull();
    expect(screen.queryByRole('textbox', { name: t('admin.support.replyText') })).toBeNull();
  });

  it('will not move a binding while a withdrawal of the UID is under review, and says why', async () => {
    serve({
      '/elex/admin/support/detail': () =>
        envelope(request({ uidState: uidState({ withdrawalsUnderReview: 1 }) })),
    });
    renderRoutes(routes, '/admin/support/12');
    const move = await screen.findByRole('button', { name: t('admin.support.move') }, { timeout: 5000 });
    expect(move).toBeDisabled();
    expect(move).toHaveAccessibleDescription(t('msg:supportWithdrawalUnderReview'));
  });

  it('confirms ownership of a UID after asking, and offers no move for an ownership request', async () => {
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/support/detail': () =>
        envelope(request({ kind: 'ownership', address: null, uidState: uidState({ frozen: false }) })),
      '/elex/admin/support/verifyOwnership': () =>
        envelope(request({ kind: 'ownership', address: null, status: 'closed', resolution: 'verified' })),
    });
    renderRoutes(routes, '/admin/support/12');
    await user.click(
      await screen.findByRole('button', { name: t('admin.support.verify') }, { timeout: 5000 }),
    );
    expect(screen.queryByRole('button', { name: t('admin.support.move') })).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: t('admin.support.verifyTitle') });
    await user.click(within(dialog).getByRole('button', { name: t('admin.support.verifyConfirm') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/support/verifyOwnership')?.body).toEqual({
        id: '12',
      }),
    );
    expect(await screen.findByText(t('msg:supportVerified'))).toBeVisible();
  });

  it('closes with a last message to the member, and replies', async () => {
    const user = userEvent.setup();
    const calls = serve({
      '/elex/admin/support/detail': () =>
        envelope(request({ kind: 'account', platId: null, uid: null, address: null, uidState: null })),
      '/elex/admin/support/reply': () =>
        envelope(
          request({
            kind: 'account',
            platId: null,
            uid: null,
            address: null,
            uidState: null,
            status: 'answered',
          }),
        ),
      '/elex/admin/support/close': () =>
        envelope(
          request({
            kind: 'account',
            platId: null,
            uid: null,
            address: null,
            uidState: null,
            status: 'closed',
            resolution: 'closed',
          }),
        ),
    });
    renderRoutes(routes, '/admin/support/12');
    const reply = await screen.findByRole(
      'textbox',
      { name: t('admin.support.replyText') },
      { timeout: 5000 },
    );
    await user.type(reply, 'Please log out and in again.');
    await user.click(screen.getByRole('button', { name: t('admin.support.replySend') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/support/reply')?.body).toEqual({
        id: '12',
        text: 'Please log out and in again.',
      }),
    );
    expect(await screen.findByText(t('msg:supportReplySent'))).toBeVisible();

    await user.click(screen.getByRole('button', { name: t('admin.support.close') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.support.closeTitle') });
    await user.type(
      within(dialog).getByRole('textbox', { name: t('admin.support.closeText') }),
      'Solved by e-mail.',
    );
    await user.click(within(dialog).getByRole('button', { name: t('admin.support.closeConfirm') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/support/close')?.body).toEqual({
        id: '12',
        text: 'Solved by e-mail.',
      }),
    );
    expect(await screen.findByText(t('msg:supportClosedDone'))).toBeVisible();
  });
});
