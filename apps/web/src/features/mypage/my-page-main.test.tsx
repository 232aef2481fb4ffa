import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { logIn, renderRoutes } from '../../test/helpers';
import { envelope, stubApi } from '../points/test-api';
import MyPageMain from './my-page-main';
import { LINK, PROFILE } from './test-fixtures';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

function renderMyPage() {
  return renderRoutes(
    [
      { path: '/mypage', element: <MyPageMain /> },
      { path: '/', element: <h1>home page</h1> },
    ],
    '/mypage',
  );
}

describe('/mypage', () => {
  it('shows the user code, points, the invite link to copy and every entry of the spec', async () => {
    logIn();
    stubApi({ '/elex/user/profile': envelope(PROFILE), '/elex/user/getInviteLink': envelope(LINK) });
    renderMyPage();
    expect(await screen.findByText('EXABC234')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '1,234' })).toHaveAttribute('href', '/mypage/point');

    const invite = await screen.findByRole('region', { name: t('invite.myPageTitle') });
    expect(within(invite).getByLabelText(t('invite.linkLabel'))).toHaveValue(LINK.link);
    expect(
      within(invite).getByText(t('invite.myPageBody', { points: 100, percent: 10 })),
    ).toBeInTheDocument();

    for (const key of ['point', 'makeFriend', 'records', 'rewardHistory', 'changePassword', 'settings']) {
      expect(screen.getByRole('link', { name: t(`pages.${key}.title`) })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: t('pages.support.title') })).toHaveAttribute(
      'href',
      '/mypage/support',
    );
    for (const name of [
      t('footer.terms'),
      t('footer.privacy'),
      t('mypage.logout'),
      t('mypage.deleteAccount'),
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('logs out even when the server cannot be reached: token gone, message shown, home page', async () => {
    logIn();
    const user = userEvent.setup();
    stubApi({
      '/elex/user/profile': envelope(PROFILE),
      '/elex/user/getInviteLink': envelope(LINK),
      '/elex/user/logout': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const { router } = renderMyPage();
    await user.click(await screen.findByRole('button', { name: t('mypage.logout') }));
    // A toast fades in (sonner mounts it transparent, then shows it): wait until it is shown.
    await waitFor(() => expect(screen.getByText(t('msg:loggedOut'))).toBeVisible());
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(router.state.location.pathname).toBe('/');
  });

  it('says the profile could not be loaded, with a retry, instead of showing nothing', async () => {
    logIn();
    let up = false;
    stubApi({
      '/elex/user/profile': () => (up ? envelope(PROFILE) : envelope(null, 1500, 'Error', 500)),
      '/elex/user/getInviteLink': envelope(LINK),
    });
    const user = userEvent.setup();
    renderMyPage();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t('common.loadFailed'));
    expect(screen.queryByText('EXABC234')).not.toBeInTheDocument();
    // The rest of the page still works.
    expect(screen.getByRole('link', { name: t('pages.point.title') })).toBeInTheDocument();

    up = true;
    await user.click(within(alert).getByRole('button', { name: t('common.retry') }));
    expect(await screen.findByText('EXABC234')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
