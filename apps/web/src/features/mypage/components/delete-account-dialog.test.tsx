import { State, type Withdrawable } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { RequireMember } from '../../../app/guards';
import { clearExchangeDictionary } from '../../../shared/exchanges/exchange-dictionary';
import { logIn, renderRoutes, resizeTo } from '../../../test/helpers';
import { type Answers, envelope, stubApi } from '../../points/test-api';
import MyPageMain from '../my-page-main';
import { LINK, PROFILE } from '../test-fixtures';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const DICTIONARY = {
  exchangeList: [
    { id: 4, name: 'Bitget', Abbreviation: 'BG', logo: '/logos/bg.svg' },
    { id: 1, name: 'Binance', Abbreviation: 'BN', logo: '/logos/bn.svg' },
  ],
  score: [],
};

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

type Binding = Withdrawable['bindings'][number];
const BITGET: Binding = {
  platId: 4,
  uid: '40512345',
  address: ADDRESS,
  cashback: '75.000000',
  withdrawable: '77.500000',
  shortfall: '0.000000',
  heldUntil: null,
  frozen: false,
};
const BINANCE: Binding = {
  platId: 1,
  uid: '777001',
  address: ADDRESS,
  cashback: '20.004000',
  withdrawable: '22.504000',
  shortfall: '27.496000',
  heldUntil: null,
  frozen: false,
};

/** A member with 75 USDT at Bitget (withdrawable), 20.004 at Binance (not) and 2.5 of rewards. */
function holdings(overrides: Partial<Withdrawable> = {}): Withdrawable {
  return {
    minimum: '50.000000',
    lockedUntil: null,
    rewards: '2.500000',
    rewardsHeld: null,
    bindings: [BITGET, BINANCE],
    ...overrides,
  };
}

const NOTHING: Withdrawable = {
  minimum: '50.000000',
  lockedUntil: null,
  rewards: '0.000000',
  rewardsHeld: null,
  bindings: [],
};

/** The rows of the dialog's table of money lost, as "label: amount". */
function forfeitRows(dialog: HTMLElement) {
  const table = within(dialog).getByRole('table', { name: t('mypage.deleteForfeitTitle') });
  return within(table)
    .getAllByRole('row')
    .map((row) =>
      [...within(row).getAllByRole('rowheader'), ...within(row).getAllByRole('cell')]
        .map((cell) => cell.textContent)
        .join(': '),
    );
}

/** My page with its delete button, and the dialog opened from it. */
async function openDeleteDialog(answers: Answers = {}) {
  // As the server does: member data only with a live token, else the session has expired.
  const forMember = (content: unknown) => () =>
    window.localStorage.getItem('token')
      ? envelope(content)
      : envelope(null, State.SessionExpired, 'Session expired, please log in again');
  const api = stubApi({
    '/elex/user/profile': forMember(PROFILE),
    '/elex/user/getInviteLink': forMember(LINK),
    '/elex/user/withdrawable': forMember(NOTHING),
    '/elex/user/config/res.json': envelope(DICTIONARY),
    ...answers,
  });
  const user = userEvent.setup();
  const view = renderRoutes(
    [
      { element: <RequireMember />, children: [{ path: '/mypage', element: <MyPageMain /> }] },
      { path: '/login', element: <h1>login page</h1> },
      { path: '/', element: <h1>home page</h1> },
      { path: '/withdrawal', element: <h1>withdrawal page</h1> },
    ],
    '/mypage',
  );
  await screen.findByText(PROFILE.userCode);
  const opener = screen.getByRole('button', { name: t('mypage.deleteAccount') });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: t('mypage.deleteTitle') });
  return { ...view, api, user, opener, dialog };
}

beforeEach(() => {
  clearExchangeDictionary();
  logIn('member-token');
});

describe('account deletion', () => {
  it('says what is lost before anything is deleted', async () => {
    const { dialog } = await openDeleteDialog();
    const losses = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(losses).toEqual([
      t('mypage.deleteLossData'),
      t('mypage.deleteLossMoney'),
      t('mypage.deleteLossEmail'),
      t('mypage.deleteKeptRecords'),
    ]);
    expect(losses.join(' ')).toMatch(/rewards are lost/);
    expect(losses.join(' ')).toMatch(/can never register again/);
  });

  it('needs the password: the delete button stays disabled until one is typed', async () => {
    const { dialog, user, api } = await openDeleteDialog();
    const confirm = within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(t('mypage.deletePassword')), '12345');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByLabelText(t('mypage.deletePassword')), '6');
    expect(confirm).toBeEnabled();
    expect(api.count('/elex/user/deleteAccount')).toBe(0);
  });

  it.each([
    ['desktop dialog', 1280],
    ['mobile drawer', 800],
  ])(
    '%s: keeps focus inside while open and gives it back to the delete button on close',
    async (_, width) => {
      resizeTo(width);
      const { dialog, user, opener } = await openDeleteDialog();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
      for (let i = 0; i < 8; i += 1) {
        await user.tab();
        expect(dialog).toContainElement(document.activeElement as HTMLElement);
      }
      // By keyboard: the drawer's pointer handling needs pointer capture, which jsdom lacks.
      within(dialog)
        .getByRole('button', { name: t('common.cancel') })
        .focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(opener).toHaveFocus();
    },
  );

  it('with a wrong password shows the server’s reason and keeps the member logged in', async () => {
    const { dialog, user, router } = await openDeleteDialog({
      '/elex/user/deleteAccount': envelope(null, 1002, 'Incorrect password'),
    });
    await user.type(within(dialog).getByLabelText(t('mypage.deletePassword')), 'Wrong#pass1');
    await user.click(within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') }));

    expect(await screen.findByText('Incorrect password')).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') })).toBeEnabled();
    expect(window.localStorage.getItem('token')).toBe('member-token');
    expect(router.state.location.pathname).toBe('/mypage');
  });

  it('deletes with the password, then logs out and goes home', async () => {
    const { dialog, user, router, api } = await openDeleteDialog({
      '/elex/user/deleteAccount': envelope(null),
    });
    await user.type(within(dialog).getByLabelText(t('mypage.deletePassword')), 'Secret#123');
    await user.click(within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') }));

    expect(await screen.findByText(i18next.t('msg:accountDeleted'))).toBeInTheDocument();
    expect(api.calls.filter((call) => call.path === '/elex/user/deleteAccount')).toEqual([
      { path: '/elex/user/deleteAccount', body: { passwd: 'Secret#123', forfeitTotal: '0.000000' } },
    ]);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'home page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Leaving the member page is not a session expiry: no second trip to the server, no /login.
    expect(api.count('/elex/user/profile')).toBe(1);
    expect(screen.queryByText('Session expired, please log in again')).not.toBeInTheDocument();
  });

  it('names the money lost per UID, the rewards and the exact total, and offers to withdraw first', async () => {
    const { dialog } = await openDeleteDialog({ '/elex/user/withdrawable': envelope(holdings()) });
    await within(dialog).findByRole('table', { name: t('mypage.deleteForfeitTitle') });
    expect(forfeitRows(dialog)).toEqual([
      `${t('mypage.deleteForfeitUid', { name: 'Bitget', uid: '40512345' })}: 75.00 USDT`,
      `${t('mypage.deleteForfeitUid', { name: 'Binance', uid: '777001' })}: 20.004 USDT`,
      `${t('mypage.deleteForfeitRewards')}: 2.50 USDT`,
      `${t('mypage.deleteForfeitTotal')}: 97.504 USDT`,
    ]);
    // Bitget's 75 + 2.5 reaches the 50 USDT minimum: withdraw it first, that UID chosen. Binance does not.
    const withdrawFirst = within(dialog).getByRole('link', { name: t('mypage.deleteWithdrawFirst') });
    expect(withdrawFirst).toHaveAttribute('href', '/withdrawal?platId=4&uid=40512345');
    expect(within(dialog).getAllByRole('link')).toHaveLength(1);
    // Offered before the delete button.
    const deleteButton = within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') });
    expect(
      withdrawFirst.compareDocumentPosition(deleteButton) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('follows "withdraw first" to the withdrawal page', async () => {
    const { dialog, user, router } = await openDeleteDialog({
      '/elex/user/withdrawable': envelope(holdings()),
    });
    await user.click(await within(dialog).findByRole('link', { name: t('mypage.deleteWithdrawFirst') }));
    expect(router.state.location.pathname).toBe('/withdrawal');
    expect(router.state.location.search).toBe('?platId=4&uid=40512345');
  });

  it('opens the withdrawal on the UID that holds the most when several could be withdrawn', async () => {
    const rich = { ...BINANCE, cashback: '200.000000', withdrawable: '202.500000', shortfall: '0.000000' };
    const { dialog } = await openDeleteDialog({
      '/elex/user/withdrawable': envelope(holdings({ bindings: [BITGET, rich] })),
    });
    expect(
      await within(dialog).findByRole('link', { name: t('mypage.deleteWithdrawFirst') }),
    ).toHaveAttribute('href', '/withdrawal?platId=1&uid=777001');
  });

  it('does not offer to withdraw a UID held for the ownership check or frozen by a dispute', async () => {
    const held = { ...BITGET, heldUntil: '2026-12-08T00:00:00.000Z' };
    const frozen = {
      ...BINANCE,
      cashback: '200.000000',
      withdrawable: '202.500000',
      shortfall: '0.000000',
      frozen: true,
    };
    const { dialog } = await openDeleteDialog({
      '/elex/user/withdrawable': envelope(holdings({ bindings: [held, frozen] })),
    });
    await within(dialog).findByRole('table');
    expect(within(dialog).queryByRole('link', { name: t('mypage.deleteWithdrawFirst') })).toBeNull();
  });

  it('says plainly when nothing is held, and offers no withdrawal', async () => {
    const { dialog } = await openDeleteDialog();
    expect(await within(dialog).findByText(t('mypage.deleteNothingHeld'))).toBeVisible();
    expect(within(dialog).queryByRole('table')).toBeNull();
    expect(within(dialog).queryByRole('link')).toBeNull();
  });

  it('says why nothing can be withdrawn first when every UID is under the minimum', async () => {
    const small = holdings({
      rewards: '0.000000',
      bindings: [{ ...BINANCE, withdrawable: '20.004000', shortfall: '29.996000' }],
    });
    const { dialog } = await openDeleteDialog({ '/elex/user/withdrawable': envelope(small) });
    expect(
      await within(dialog).findByText(t('mypage.deleteBelowMinimum', { minimum: '50.00' })),
    ).toBeVisible();
    expect(within(dialog).queryByRole('link')).toBeNull();
    expect(forfeitRows(dialog).at(-1)).toBe(`${t('mypage.deleteForfeitTotal')}: 20.004 USDT`);
  });

  it('sends the total it showed; when the server says it changed, shows the new figures and sends those', async () => {
    let answer = holdings();
    const refusal =
      'The money you hold changed since the dialog opened: 107.504 USDT would now be lost. Check the amounts and confirm again.';
    const { dialog, user, api } = await openDeleteDialog({
      '/elex/user/withdrawable': () => envelope(answer),
      '/elex/user/deleteAccount': (body) =>
        body.forfeitTotal === '107.504000' ? envelope(null) : envelope(null, 1002, refusal),
    });
    await within(dialog).findByRole('table', { name: t('mypage.deleteForfeitTitle') });
    // A rebate settles while the dialog is open.
    answer = holdings({
      bindings: [{ ...BITGET, cashback: '85.000000', withdrawable: '87.500000' }, BINANCE],
    });
    await user.type(within(dialog).getByLabelText(t('mypage.deletePassword')), 'Secret#123');
    await user.click(within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    await waitFor(() =>
      expect(forfeitRows(dialog).at(-1)).toBe(`${t('mypage.deleteForfeitTotal')}: 107.504 USDT`),
    );
    expect(window.localStorage.getItem('token')).toBe('member-token');

    await user.click(within(dialog).getByRole('button', { name: t('mypage.deleteConfirm') }));
    expect(await screen.findByText(i18next.t('msg:accountDeleted'))).toBeInTheDocument();
    expect(
      api.calls
        .filter((call) => call.path === '/elex/user/deleteAccount')
        .map((call) => call.body.forfeitTotal),
    ).toEqual(['97.504000', '107.504000']);
  });
});
