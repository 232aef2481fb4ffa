import { act, screen } from '@testing-library/react';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loginRedirectFor, safeRedirectTarget } from '../shared/navigation/login-redirect';
import { storage } from '../shared/storage';
import { envelope, logIn, renderRoutes } from '../test/helpers';
import { routes } from './router';

/** Opens `url` in the app's real route table and waits for the page heading a user would see. */
async function open(url: string, heading: string) {
  const { router } = renderRoutes(routes, url);
  expect(await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5000 })).toBeVisible();
  return router.state.location;
}

const t = (key: string) => i18next.t(key);
const LOGIN = () => t('pages.login.title');
const HOME = () => t('home.title');

describe('route guards (spec section 2)', () => {
  beforeEach(() => {
    // Page views and the points dot call the server; answer every call with an empty success.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope({ isSignToday: true })),
    );
  });

  it('sends a visitor opening a member page to /login, keeping the full target and its query', async () => {
    const location = await open('/mypage/settings?tab=2&channel=x', LOGIN());

    expect(location.pathname).toBe('/login');
    const params = new URLSearchParams(location.search);
    expect(params.get('redirect')).toBe('/mypage/settings?tab=2&channel=x');
    expect(params.get('channel')).toBe('x');
    expect(params.get('tab')).toBe('2');
  });

  it.each(['/uidlinking', '/withdrawal', '/exchangeLinkDetail?platId=1&UID=9', '/mypage', '/mypage/point'])(
    'guards %s',
    async (target) => {
      const location = await open(target, LOGIN());
      expect(location.pathname).toBe('/login');
      expect(new URLSearchParams(location.search).get('redirect')).toBe(target);
    },
  );

  it('lets a logged-in member open a member page', async () => {
    logIn();
    const location = await open('/mypage/settings?tab=2', t('pages.settings.title'));
    expect(location.pathname).toBe('/mypage/settings');
  });

  it('sends a logged-in user opening /login to the redirect target', async () => {
    logIn();
    const location = await open('/login?redirect=/calculator', t('pages.calculator.title'));
    expect(location.pathname).toBe('/calculator');
  });

  it('sends a logged-in user opening /register with no redirect to /', async () => {
    logIn();
    const location = await open('/register', HOME());
    expect(location.pathname).toBe('/');
  });

  it('never follows a redirect to another site', async () => {
    logIn();
    const location = await open('/login?redirect=//evil.com', HOME());
    expect(location.pathname).toBe('/');
    expect(location.search).toBe('');
  });

  it('lets a visitor open /login', async () => {
    expect((await open('/login?redirect=/calculator', LOGIN())).pathname).toBe('/login');
  });

  it('sends a member who ends the session on a member page home, not to /login', async () => {
    logIn();
    const { router } = renderRoutes(routes, '/mypage/settings');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('pages.settings.title') }, { timeout: 5000 }),
    ).toBeVisible();
    // The token goes while the member page is still shown (logout or deletion before the page's own
    // navigation home has rendered): the guard must not treat it as a visitor arriving.
    act(() => storage.setToken(null, { byMember: true }));
    expect(await screen.findByRole('heading', { level: 1, name: HOME() }, { timeout: 5000 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('');
  });

  it('still sends a visitor to /login after a session ended elsewhere (another tab)', async () => {
    logIn();
    const { router } = renderRoutes(routes, '/mypage/settings');
    await screen.findByRole('heading', { level: 1, name: t('pages.settings.title') }, { timeout: 5000 });
    act(() => storage.setToken(null));
    expect(await screen.findByRole('heading', { level: 1, name: LOGIN() }, { timeout: 5000 })).toBeVisible();
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/mypage/settings');
  });

  it('on session expiry keeps the page for 1.5 s, then goes to /login with the page as redirect', async () => {
    logIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope(null, -5000)),
    );
    const { router } = renderRoutes(routes, '/mypage/settings?tab=2');
    expect(await screen.findByText(t('msg:sessionExpired'), {}, { timeout: 5000 })).toBeVisible();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(router.state.location.pathname).toBe('/mypage/settings');

    expect(await screen.findByRole('heading', { level: 1, name: LOGIN() }, { timeout: 5000 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/mypage/settings?tab=2');
  });

  it('lets a visitor open /register', async () => {
    expect((await open('/register', t('pages.register.title'))).pathname).toBe('/register');
  });
});

describe('loginRedirectFor and safeRedirectTarget', () => {
  it('replaces a redirect already in the query rather than nesting it', () => {
    const target = loginRedirectFor('/withdrawal', '?redirect=/x&channel=y');
    const params = new URLSearchParams(target.split('?')[1]);
    expect(params.getAll('redirect')).toEqual(['/withdrawal?redirect=/x&channel=y']);
    expect(params.get('channel')).toBe('y');
  });

  it.each([
    ['/calculator?x=1', '/calculator?x=1'],
    [null, '/'],
    ['', '/'],
    ['//evil.com', '/'],
    ['/\\evil.com', '/'],
    ['https://evil.com', '/'],
    ['javascript:alert(1)', '/'],
  ])('follows %j to %j', (raw, expected) => {
    expect(safeRedirectTarget(raw)).toBe(expected);
  });
});
