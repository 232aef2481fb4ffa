import { State } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { RequireMember } from '../../../app/guards';
import { logIn, renderRoutes, resizeTo } from '../../../test/helpers';
import { type Answers, envelope, stubApi } from '../../points/test-api';
import MyPageMain from '../my-page-main';
import { LINK, PROFILE } from '../test-fixtures';

const t = (key: string) => i18next.t(key);

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
    ...answers,
  });
  const user = userEvent.setup();
  const view = renderRoutes(
    [
      { element: <RequireMember />, children: [{ path: '/mypage', element: <MyPageMain /> }] },
      { path: '/login', element: <h1>login page</h1> },
      { path: '/', element: <h1>home page</h1> },
    ],
    '/mypage',
  );
  await screen.findByText(PROFILE.userCode);
  const opener = screen.getByRole('button', { name: t('mypage.deleteAccount') });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: t('mypage.deleteTitle') });
  return { ...view, api, user, opener, dialog };
}

beforeEach(() => logIn('member-token'));

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
      { path: '/elex/user/deleteAccount', body: { passwd: 'Secret#123' } },
    ]);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'home page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Leaving the member page is not a session expiry: no second trip to the server, no /login.
    expect(api.count('/elex/user/profile')).toBe(1);
    expect(screen.queryByText('Session expired, please log in again')).not.toBeInTheDocument();
  });
});
