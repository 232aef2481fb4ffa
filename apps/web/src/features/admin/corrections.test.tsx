import type { Correction, MemberDetail } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { routes } from '../../app/router';
import { envelope, logIn, renderRoutes } from '../../test/helpers';
import { serveConsole, TEST_OPERATOR } from './test-fixtures';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
function correction(overrides: Partial<Correction> = {}): Correction {
  return {
    id: 5,
    userId: 12,
    memberEmail: 'member@example.com',
    account: 'cashback',
    platId: 4,
    uid: '40500001',
    accountCode: 'cashback:4:40500001',
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

const page = (rows: Correction[]) =>
  envelope({ rows, total: rows.length, page: 1, pageSize: 20, approvalThreshold: '100.000000' });

const MEMBER: MemberDetail = {
  member: {
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
  },
  bindings: [
    {
      platId: 4,
      uid: '40500001',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      boundAt: '2026-05-02T00:00:00.000Z',
      unboundAt: null,
      unbindReason: null,
      balance: '10.000000',
    },
    // Unbound by an operator: its balance is its next holder's, not this member's to correct.
    {
      platId: 4,
      uid: '40500002',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      boundAt: '2026-05-02T00:00:00.000Z',
      unboundAt: '2026-05-09T00:00:00.000Z',
      unbindReason: 'Disputed',
      balance: '7.000000',
    },
  ],
  balances: { rewards: '2.000000', cashback: '10.000000' },
};

describe('correcting a member’s balance', () => {
  it('checks the amount and the reason in the dialog, then proposes on the UID chosen', async () => {
    window.innerWidth = 1280;
    logIn();
    const user = userEvent.setup();
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': () => envelope(MEMBER),
      '/elex/admin/memberLedger': () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
      '/elex/admin/corrections/list': () => page([]),
      '/elex/admin/corrections/propose': (body) =>
        envelope(correction({ amount: '-2.500000', status: 'posted', ...body }), 0, 'Correction posted'),
    });
    renderRoutes(routes, '/admin/members/12');
    const section = await screen.findByRole(
      'region',
      { name: t('admin.corrections.section') },
      { timeout: 5000 },
    );
    expect(within(section).getByText(t('admin.corrections.empty'))).toBeVisible();
    await user.click(within(section).getByRole('button', { name: t('admin.corrections.propose') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.corrections.proposeTitle') });
    expect(within(dialog).getByText(/Above 100\.00 USDT a second operator must approve/)).toBeVisible();

    const amount = within(dialog).getByLabelText(t('admin.corrections.amountLabel'));
    await user.type(amount, '1.1234567');
    await user.click(within(dialog).getByRole('button', { name: t('admin.corrections.submit') }));
    expect(await within(dialog).findByText(t('msg:correctionAmountInvalid'))).toBeVisible();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText(t('msg:operatorReasonRequired'))).toBeVisible();
    expect(calls.some((call) => call.path === '/elex/admin/corrections/propose')).toBe(false);

    const target = within(dialog).getByLabelText(t('admin.corrections.accountLabel'));
    expect(
      within(target)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['rewards', '4:40500001']);
    await user.selectOptions(target, '4:40500001');
    await user.clear(amount);
    await user.type(amount, '-2.5');
    await user.type(within(dialog).getByLabelText(t('admin.corrections.reasonLabel')), 'Duplicate credit');
    await user.click(within(dialog).getByRole('button', { name: t('admin.corrections.submit') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/corrections/propose')?.body).toEqual({
        userId: 12,
        account: 'cashback',
        platId: 4,
        uid: '40500001',
        amount: '-2.5',
        reason: 'Duplicate credit',
        requestId: expect.stringMatching(UUID),
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends a proposal whose answer was lost again as the same request, so the server books it once', async () => {
    window.innerWidth = 1280;
    logIn();
    const user = userEvent.setup();
    let proposals = 0;
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': () => envelope(MEMBER),
      '/elex/admin/memberLedger': () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
      '/elex/admin/corrections/list': () => page([]),
      '/elex/admin/corrections/propose': (body) => {
        proposals += 1;
        // The first answer never arrives (the connection drops after the server booked it).
        if (proposals === 1) throw new TypeError('Failed to fetch');
        return envelope(
          correction({ amount: '30.000000', status: 'posted', ...body }),
          0,
          'Correction posted',
        );
      },
    });
    renderRoutes(routes, '/admin/members/12');
    const section = await screen.findByRole(
      'region',
      { name: t('admin.corrections.section') },
      { timeout: 5000 },
    );
    await user.click(within(section).getByRole('button', { name: t('admin.corrections.propose') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.corrections.proposeTitle') });
    await user.type(within(dialog).getByLabelText(t('admin.corrections.amountLabel')), '30');
    await user.type(within(dialog).getByLabelText(t('admin.corrections.reasonLabel')), 'Missed rebate');
    const submit = within(dialog).getByRole('button', { name: t('admin.corrections.submit') });
    await user.click(submit);
    await waitFor(() => expect(proposals).toBe(1));
    // The dialog stays with what was typed; the operator clicks again.
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = calls.filter((call) => call.path === '/elex/admin/corrections/propose');
    expect(sent).toHaveLength(2);
    expect(sent[0]?.body.requestId).toMatch(UUID);
    expect(sent[1]?.body.requestId).toBe(sent[0]?.body.requestId);
  });

  it('a proposal sent again whose first was rejected meanwhile says so, not that it waits for approval', async () => {
    window.innerWidth = 1280;
    logIn();
    const user = userEvent.setup();
    serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': () => envelope(MEMBER),
      '/elex/admin/memberLedger': () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
      '/elex/admin/corrections/list': () => page([]),
      // The server answers the first correction sent with this id: a second operator rejected it.
      '/elex/admin/corrections/propose': (body) =>
        envelope(correction({ status: 'rejected', ...body }), 0, t('msg:correctionAlreadyRejected')),
    });
    renderRoutes(routes, '/admin/members/12');
    const section = await screen.findByRole(
      'region',
      { name: t('admin.corrections.section') },
      { timeout: 5000 },
    );
    await user.click(within(section).getByRole('button', { name: t('admin.corrections.propose') }));
    const dialog = await screen.findByRole('dialog', { name: t('admin.corrections.proposeTitle') });
    await user.type(within(dialog).getByLabelText(t('admin.corrections.amountLabel')), '150');
    await user.type(within(dialog).getByLabelText(t('admin.corrections.reasonLabel')), 'Campaign prize');
    await user.click(within(dialog).getByRole('button', { name: t('admin.corrections.submit') }));
    expect(await screen.findByText(t('msg:correctionAlreadyRejected'))).toBeVisible();
    expect(screen.queryByText(t('msg:correctionPending'))).toBeNull();
  });

  it('a proposal for another member after a lost answer is a new one (its own id, an empty form)', async () => {
    window.innerWidth = 1280;
    logIn();
    const user = userEvent.setup();
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/memberDetail': (body) =>
        envelope({
          ...MEMBER,
          member: {
            ...MEMBER.member,
            userId: Number(body.userId),
            email: `member${body.userId}@example.com`,
          },
        }),
      '/elex/admin/memberLedger': () => envelope({ rows: [], total: 0, page: 1, pageSize: 20 }),
      '/elex/admin/corrections/list': () => page([]),
      '/elex/admin/corrections/propose': (body) => {
        // The answer for member 12 never arrives; member 13's is booked.
        if (body.userId === 12) throw new TypeError('Failed to fetch');
        return envelope(correction({ status: 'posted', ...body }), 0, 'Correction posted');
      },
    });
    // Member 13's page was seen first: coming back to it shows it at once, without unmounting the page.
    const { router } = renderRoutes(routes, '/admin/members/13');
    await screen.findByRole('heading', { name: 'member13@example.com' }, { timeout: 5000 });
    await router.navigate('/admin/members/12');
    await screen.findByRole('heading', { name: 'member12@example.com' }, { timeout: 5000 });
    const propose = async (amount: string) => {
      const section = await screen.findByRole(
        'region',
        { name: t('admin.corrections.section') },
        { timeout: 5000 },
      );
      await user.click(within(section).getByRole('button', { name: t('admin.corrections.propose') }));
      const dialog = await screen.findByRole('dialog', { name: t('admin.corrections.proposeTitle') });
      const field = within(dialog).getByLabelText(t('admin.corrections.amountLabel'));
      expect(field).toHaveValue('');
      await user.type(field, amount);
      await user.type(within(dialog).getByLabelText(t('admin.corrections.reasonLabel')), 'Missed rebate');
      await user.click(within(dialog).getByRole('button', { name: t('admin.corrections.submit') }));
      return dialog;
    };
    const first = await propose('30');
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/elex/admin/corrections/propose')).toHaveLength(1),
    );
    await waitFor(() =>
      expect(within(first).getByRole('button', { name: t('admin.corrections.submit') })).toBeEnabled(),
    );
    await user.click(within(first).getByRole('button', { name: t('admin.common.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await router.navigate('/admin/members/13');
    await screen.findByRole('heading', { name: 'member13@example.com' }, { timeout: 5000 });
    await propose('5');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = calls.filter((call) => call.path === '/elex/admin/corrections/propose');
    expect(sent.map((call) => call.body.userId)).toEqual([12, 13]);
    expect(sent[1]?.body.requestId).toMatch(UUID);
    expect(sent[1]?.body.requestId).not.toBe(sent[0]?.body.requestId);
  });
});

describe('the corrections queue', () => {
  it('offers Approve on another operator’s correction, only Withdraw on one’s own, nothing on one’s own money', async () => {
    logIn();
    const user = userEvent.setup();
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/corrections/list': () =>
        page([
          correction(),
          correction({
            id: 6,
            proposedBy: TEST_OPERATOR.email,
            proposedById: TEST_OPERATOR.userId,
            reason: 'Mine',
          }),
          // Another operator's clawback of this operator's own cashback.
          correction({
            id: 7,
            userId: TEST_OPERATOR.userId,
            memberEmail: TEST_OPERATOR.email,
            amount: '-150.000000',
            reason: 'Clawback of mine',
          }),
        ]),
      '/elex/admin/corrections/approve': () =>
        envelope(correction({ status: 'posted' }), 0, 'Correction posted'),
    });
    renderRoutes(routes, '/admin/corrections');
    expect(
      await screen.findByRole('link', { name: t('admin.nav.corrections') }, { timeout: 5000 }),
    ).toHaveAttribute('aria-current', 'page');
    const others = (await screen.findByText('Missed rebate')).closest('tr') as HTMLElement;
    const mine = screen.getByText('Mine').closest('tr') as HTMLElement;
    // Each button names its correction (amount and account), so a screen reader's list of buttons says
    // which one it decides; the visible word starts the name.
    const named = (action: string) => new RegExp(`^${t(action)} 150\\.00 USDT · .+ · 40500001$`);
    expect(within(mine).queryByRole('button', { name: named('admin.corrections.approve') })).toBeNull();
    expect(within(mine).getByText(t('admin.corrections.yours'))).toBeVisible();
    expect(within(mine).getByRole('button', { name: named('admin.corrections.withdraw') })).toBeVisible();

    // The operator whose money it moves decides nothing on it: another operator does.
    const ownMoney = screen.getByText('Clawback of mine').closest('tr') as HTMLElement;
    expect(within(ownMoney).getByText(t('admin.corrections.ownMoney'))).toBeVisible();
    expect(within(ownMoney).queryByRole('button')).toBeNull();

    await user.click(within(others).getByRole('button', { name: named('admin.corrections.approve') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/corrections/approve')?.body).toEqual({ id: 5 }),
    );
  });

  it('rejects only with a reason', async () => {
    logIn();
    const user = userEvent.setup();
    const calls = serveConsole({
      '/elex/admin/whoami': () => envelope(TEST_OPERATOR),
      '/elex/admin/corrections/list': () => page([correction()]),
      '/elex/admin/corrections/reject': () => envelope(correction({ status: 'rejected' })),
    });
    renderRoutes(routes, '/admin/corrections');
    await user.click(
      await screen.findByRole(
        'button',
        { name: new RegExp(`^${t('admin.corrections.reject')} `) },
        { timeout: 5000 },
      ),
    );
    const dialog = await screen.findByRole('dialog', { name: t('admin.corrections.rejectTitle') });
    await user.click(within(dialog).getByRole('button', { name: t('admin.corrections.rejectSubmit') }));
    expect(await within(dialog).findByText(t('msg:operatorReasonRequired'))).toBeVisible();
    await user.type(within(dialog).getByLabelText(t('admin.corrections.rejectReason')), 'Not owed');
    await user.click(within(dialog).getByRole('button', { name: t('admin.corrections.rejectSubmit') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/corrections/reject')?.body).toEqual({
        id: 5,
        reason: 'Not owed',
      }),
    );
  });
});
