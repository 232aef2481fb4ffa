import type { AdminSupportDetail, Correction, MemberDetail, WithdrawalQueueItem } from '@elex/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import { pendingItem, serveConsole, TEST_OPERATOR } from './test-fixtures';

/**
 * After a decision, the other console pages that show the same data load it again when opened, within
 * the 30 s their answers are otherwise kept fresh (shared/queries/query-scope.tsx).
 */

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
/** The console's lazy pages take long to load when the machine is busy (several suites at once). */
const LOAD_MS = 30_000;

function member(overrides: Partial<MemberDetail['member']> = {}, cashback = '100.000000'): MemberDetail {
  return {
    member: {
      userId: 12,
      email: 'member@example.com',
      userCode: 'EXMEM234',
      inviteCode: 'ABCDEFGH',
      createdAt: '2026-05-01T00:00:00.000Z',
      deletedAt: null,
      isOperator: false,
      liveBindings: 1,
      suspendedAt: null,
      inviterId: null,
      locale: 'en',
      withdrawalLockedUntil: null,
      suspension: null,
      lockLifted: null,
      ...overrides,
    },
    bindings: [],
    balances: { rewards: '0.000000', cashback },
  };
}

const emptyPage = () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 });
const queue = (rows: WithdrawalQueueItem[]) => envelope({ rows, total: rows.length, page: 1, pageSize: 10 });
type Calls = ReturnType<typeof serveConsole>;
const count = (calls: Calls, path: string) => calls.filter((call) => call.path === path).length;

/** Opens the member's page and waits for its balances; answers how often the detail was asked. */
async function openMemberPage(router: ReturnType<typeof renderRoutes>['router'], calls: Calls) {
  await act(() => router.navigate('/admin/members/12'));
  await screen.findByRole('region', { name: t('admin.lifecycle.statusTitle') }, { timeout: LOAD_MS });
  return count(calls, '/elex/admin/memberDetail');
}

beforeEach(() => {
  window.innerWidth = 1280;
  logIn();
});

describe('a decision refreshes the other console pages that show its data', { timeout: 90_000 }, () => {
  it('a rejected withdrawal: the member’s page opened again shows the funds returned', async () => {
    let current = member({}, '40.000000');
    let pending = [pendingItem()];
    const calls = serveConsole({
      '/elex/admin/memberDetail': () => envelope(current),
      '/elex/admin/memberLedger': emptyPage,
      '/elex/admin/corrections/list': () =>
        envelope({ rows: [], total: 0, page: 1, pageSize: 20, approvalThreshold: '100.000000' }),
      '/elex/admin/withdrawalQueue': () => queue(pending),
      '/elex/admin/rejectWithdrawal': () => {
        current = member({}, '100.000000');
        pending = [];
        return envelope({ id: '31', status: 'failed' });
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/members/12');
    expect(await openMemberPage(router, calls)).toBe(1);
    expect(screen.getByText('40.00 USDT')).toBeVisible();

    await act(() => router.navigate('/admin/withdrawals'));
    await user.click(
      await screen.findByRole('button', { name: t('admin.withdrawals.reject') }, { timeout: LOAD_MS }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.withdrawals.rejectTitle') });
    await user.type(within(dialog).getByLabelText(t('admin.withdrawals.reason')), 'Wrong network');
    await user.click(within(dialog).getByRole('button', { name: t('admin.withdrawals.rejectSubmit') }));
    expect(await screen.findByText(t('admin.withdrawals.empty'))).toBeVisible();

    await act(() => router.navigate('/admin/members/12'));
    await waitFor(() => expect(count(calls, '/elex/admin/memberDetail')).toBe(2));
    expect(await screen.findByText('100.00 USDT')).toBeVisible();
  });

  it('an approved correction: the withdrawal queue opened again shows the member’s new balance', async () => {
    let balance = '40.000000';
    const calls = serveConsole({
      '/elex/admin/withdrawalQueue': () =>
        queue([
          pendingItem({
            summary: { ...pendingItem().summary, cashbackBalance: balance },
          }),
        ]),
      '/elex/admin/corrections/list': () =>
        envelope({
          rows: [correction()],
          total: 1,
          page: 1,
          pageSize: 20,
          approvalThreshold: '100.000000',
        }),
      '/elex/admin/corrections/approve': () => {
        balance = '190.000000';
        return envelope(correction({ status: 'posted' }), 0, 'Correction posted');
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/withdrawals');
    await screen.findByRole('button', { name: t('admin.withdrawals.reject') }, { timeout: LOAD_MS });
    expect(count(calls, '/elex/admin/withdrawalQueue')).toBe(1);

    await act(() => router.navigate('/admin/corrections'));
    const row = (await screen.findByText('Missed rebate', {}, { timeout: LOAD_MS })).closest(
      'tr',
    ) as HTMLElement;
    await user.click(
      within(row).getByRole('button', { name: new RegExp(`^${t('admin.corrections.approve')} `) }),
    );
    await waitFor(() => expect(count(calls, '/elex/admin/corrections/approve')).toBe(1));

    await act(() => router.navigate('/admin/withdrawals'));
    await waitFor(() => expect(count(calls, '/elex/admin/withdrawalQueue')).toBe(2));
  });

  it('a suspension: the list of suspended members opened again lists the member', async () => {
    let current = member();
    const calls = serveConsole({
      '/elex/admin/memberDetail': () => envelope(current),
      '/elex/admin/memberLedger': emptyPage,
      '/elex/admin/corrections/list': () =>
        envelope({ rows: [], total: 0, page: 1, pageSize: 20, approvalThreshold: '100.000000' }),
      '/elex/admin/searchMembers': () =>
        current.member.suspendedAt
          ? envelope({ rows: [current.member], total: 1, page: 1, pageSize: 20 })
          : emptyPage(),
      '/elex/admin/suspendMember': () => {
        const at = '2026-06-01T12:00:00.000Z';
        current = member({
          suspendedAt: at,
          suspension: { at, reason: 'Chargeback', by: TEST_OPERATOR.email },
        });
        return envelope(current);
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/members?suspended=1');
    expect(await screen.findByText(t('admin.members.noSuspended'), {}, { timeout: LOAD_MS })).toBeVisible();

    await openMemberPage(router, calls);
    const status = screen.getByRole('region', { name: t('admin.lifecycle.statusTitle') });
    await user.click(within(status).getByRole('button', { name: t('admin.lifecycle.suspendMember.open') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.lifecycle.suspendMember.title') });
    await user.type(within(dialog).getByRole('textbox', { name: t('admin.lifecycle.reason') }), 'Chargeback');
    await user.click(within(dialog).getByRole('button', { name: t('admin.lifecycle.suspendMember.submit') }));
    expect(await within(status).findByText(t('admin.lifecycle.suspended'))).toBeVisible();

    await act(() => router.navigate('/admin/members?suspended=1'));
    expect(await screen.findByText('member@example.com', {}, { timeout: LOAD_MS })).toBeVisible();
    expect(count(calls, '/elex/admin/searchMembers')).toBe(2);
  });

  it('an unbind names the member whose page it was asked from, so a UID that changed hands since is refused', async () => {
    const binding = {
      platId: 4,
      uid: '40512345',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      boundAt: '2026-05-30T08:00:00.000Z',
      unboundAt: null,
      unbindReason: null,
      balance: '75.500000',
    };
    // Meanwhile a dispute moved the UID to another member: this member no longer holds it.
    let current: MemberDetail = { ...member(), bindings: [binding] };
    const calls = serveConsole({
      '/elex/admin/memberDetail': () => envelope(current),
      '/elex/admin/memberLedger': emptyPage,
      '/elex/admin/corrections/list': () =>
        envelope({ rows: [], total: 0, page: 1, pageSize: 20, approvalThreshold: '100.000000' }),
      '/elex/admin/unbindUid': () => {
        current = {
          ...member({ liveBindings: 0 }),
          bindings: [{ ...binding, unboundAt: '2026-06-01T00:00:00.000Z', unbindReason: 'Moved' }],
        };
        return envelope(null, 1002, t('msg:unbindHolderChanged'));
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/members/12');
    expect(await openMemberPage(router, calls)).toBe(1);
    await user.click(
      await screen.findByRole('button', { name: t('admin.members.unbindUid', { uid: binding.uid }) }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.members.unbindTitle') });
    await user.type(
      within(dialog).getByRole('textbox', { name: t('admin.members.unbindReason') }),
      'Squatter',
    );
    await user.click(within(dialog).getByRole('button', { name: t('admin.members.unbindSubmit') }));
    await waitFor(() => expect(count(calls, '/elex/admin/unbindUid')).toBe(1));
    expect(calls.find((call) => call.path === '/elex/admin/unbindUid')?.body).toEqual({
      userId: 12,
      platId: 4,
      uid: '40512345',
      reason: 'Squatter',
    });
    // The refusal is shown, the dialog closes and the page loads the member again: the UID is no
    // longer offered as this member's live binding.
    expect(await screen.findByText(t('msg:unbindHolderChanged'))).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(count(calls, '/elex/admin/memberDetail')).toBe(2));
    await waitFor(() =>
      expect(
        screen.queryByRole('button', { name: t('admin.members.unbindUid', { uid: binding.uid }) }),
      ).toBeNull(),
    );
  });

  it('a dispute decided: the holder’s page opened again no longer shows the UID', async () => {
    const binding = {
      platId: 4,
      uid: '40512345',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      boundAt: '2026-05-30T08:00:00.000Z',
      unboundAt: null,
      unbindReason: null,
      balance: '75.500000',
    };
    let holder: MemberDetail = { ...member(), bindings: [binding] };
    const calls = serveConsole({
      '/elex/admin/memberDetail': () => envelope(holder),
      '/elex/admin/memberLedger': emptyPage,
      '/elex/admin/corrections/list': () =>
        envelope({ rows: [], total: 0, page: 1, pageSize: 20, approvalThreshold: '100.000000' }),
      '/elex/admin/support/detail': () => envelope(dispute()),
      '/elex/admin/support/moveBinding': () => {
        holder = {
          ...member({ liveBindings: 0 }),
          bindings: [{ ...binding, unboundAt: '2026-06-02T00:00:00.000Z', unbindReason: 'Moved' }],
        };
        return envelope(dispute({ status: 'closed', resolution: 'moved' }), 0, t('msg:supportMoved'));
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/admin/members/12');
    expect(await openMemberPage(router, calls)).toBe(1);

    await act(() => router.navigate('/admin/support/12'));
    await user.click(
      await screen.findByRole('button', { name: t('admin.support.move') }, { timeout: LOAD_MS }),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.support.moveTitle') });
    await user.click(within(dialog).getByRole('button', { name: t('admin.support.moveConfirm') }));
    expect(await screen.findByText(t('admin.support.resolutions.moved'))).toBeVisible();

    await act(() => router.navigate('/admin/members/12'));
    await waitFor(() => expect(count(calls, '/elex/admin/memberDetail')).toBe(2));
  });
});

function correction(overrides: Partial<Correction> = {}): Correction {
  return {
    id: 5,
    userId: 12,
    memberEmail: 'member@example.com',
    account: 'cashback',
    platId: 4,
    uid: '40512345',
    accountCode: 'cashback:4:40512345',
    amount: '150.000000',
    reason: 'Missed rebate',
    status: 'pending',
    needsApproval: true,
    proposedBy: 'other@example.com',
    proposedById: 8,
    proposedAt: '2026-06-01T10:00:00.000Z',
    decidedBy: null,
    decidedAt: null,
    rejectionReason: null,
    postedAt: null,
    ...overrides,
  };
}

function dispute(overrides: Partial<AdminSupportDetail> = {}): AdminSupportDetail {
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
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    closedBy: null,
    messages: [],
    uidState: {
      platId: 4,
      uid: '40512345',
      holder: {
        userId: 12,
        email: 'member@example.com',
        boundAt: '2026-05-30T08:00:00.000Z',
        heldUntil: '2026-06-13T08:00:00.000Z',
        ownershipVerifiedAt: null,
      },
      balance: '75.500000',
      registeredAt: '2026-05-01T00:00:00.000Z',
      frozen: true,
      withdrawalsUnderReview: 0,
      holderInviterBonuses: [],
    },
    ...overrides,
  };
}
