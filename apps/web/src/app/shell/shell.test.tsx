import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { signStatusQuery } from '../../features/points/api/get-sign-status';
import { envelope, logIn, renderAt } from '../../test/helpers';
import { chooseLocale } from './choose-locale';
import { MobileHeader, TabBar } from './mobile-bars';
import { TopBar } from './top-bar';

// The whitepaper address is a build setting; each test decides whether one is configured.
const config = vi.hoisted(() => ({ whitepaperUrl: undefined as string | undefined }));
vi.mock('../menu', async (importOriginal) => {
  const original = await importOriginal<typeof import('../menu')>();
  return {
    ...original,
    get WHITEPAPER_URL() {
      return config.whitepaperUrl;
    },
  };
});

const t = (key: string) => i18next.t(key);

/** The top bar as the app shows it: inside a router, a query client and the toaster. */
function renderTopBar(url = '/') {
  return renderAt(<TopBar />, url);
}

beforeEach(() => {
  config.whitepaperUrl = undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => envelope({ isSignToday: true })),
  );
});

describe('top bar menu', () => {
  it('shows a visitor the public entries with login and register, and marks the current page', () => {
    renderTopBar('/exchange');
    const nav = screen.getByRole('navigation', { name: t('nav.main') });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(
      ['home', 'exchange', 'calculator', 'serviceIntro', 'login', 'register'].map((key) => t(`nav.${key}`)),
    );
    expect(within(nav).getByRole('link', { name: t('nav.exchange') })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: t('nav.home') })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('link', { name: t('nav.points') })).not.toBeInTheDocument();
  });

  it('shows a member my page and the points icon, and no login or register', () => {
    logIn();
    renderTopBar('/mypage/point');
    const nav = screen.getByRole('navigation', { name: t('nav.main') });
    expect(within(nav).getByRole('link', { name: t('nav.mypage') })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).queryByRole('link', { name: t('nav.login') })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: t('nav.register') })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('nav.points') })).toHaveAttribute('href', '/mypage/point');
  });

  it('tells assistive technology that partner exchanges is current on /exchangeDetail', () => {
    renderTopBar('/exchangeDetail?id=3');
    const nav = screen.getByRole('navigation', { name: t('nav.main') });
    expect(within(nav).getByRole('link', { name: t('nav.exchange') })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});

describe('tab bar (mobile)', () => {
  it('lists the same entries and marks only home active on /', () => {
    renderAt(<TabBar />, '/');
    const tabs = within(screen.getByRole('navigation', { name: t('nav.tabBar') })).getAllByRole('link');
    expect(tabs.map((tab) => tab.textContent)).toEqual(
      ['home', 'exchange', 'calculator', 'serviceIntro', 'login', 'register'].map((key) => t(`nav.${key}`)),
    );
    expect(tabs.filter((tab) => tab.getAttribute('aria-current') === 'page')).toEqual([tabs[0]]);
  });

  it('follows login: a member sees my page instead of login and register', () => {
    logIn();
    renderAt(<TabBar />, '/mypage/settings');
    const nav = screen.getByRole('navigation', { name: t('nav.tabBar') });
    expect(within(nav).getByRole('link', { name: t('nav.mypage') })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).queryByRole('link', { name: t('nav.login') })).not.toBeInTheDocument();
  });
});

describe('language dialog (spec section 2)', () => {
  const WIDTHS = [
    ['desktop dialog', 1280],
    ['mobile drawer', 800],
  ] as const;

  /** Renders the bar for the width (the mobile header holds the language button on small screens). */
  function renderBarAt(width: number) {
    Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
    return width > 980 ? renderTopBar() : renderAt(<MobileHeader />);
  }

  it.each(WIDTHS)('%s: lists the three languages, takes focus, and closes on Escape', async (_, width) => {
    const user = userEvent.setup();
    renderBarAt(width);

    await user.click(screen.getByRole('button', { name: 'Language' }));

    const dialog = await screen.findByRole('dialog', { name: 'Choose a language' });
    const choices = within(dialog)
      .getAllByRole('listitem')
      .map((item) => within(item).getByRole('button'));
    // spec section 2: the dialog offers zh, en, ko, in that order.
    expect(choices.map((choice) => choice.textContent)).toEqual(['中文', 'English', '한국어']);
    expect(within(dialog).getByRole('button', { name: /English/ })).toHaveAttribute('aria-current', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it.each(WIDTHS)('%s: gives focus back to the language button on Escape', async (_, width) => {
    const user = userEvent.setup();
    renderBarAt(width);
    const button = screen.getByRole('button', { name: 'Language' });

    await user.click(button);
    await screen.findByRole('dialog', { name: 'Choose a language' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(button).toHaveFocus();
  });

  it('is 30% wide on desktop, within the modal maximum of 400 px (spec section 9)', async () => {
    const user = userEvent.setup();
    renderBarAt(1280);
    await user.click(screen.getByRole('button', { name: 'Language' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a language' });
    expect(dialog.style.width).toBe('30%');
    expect(dialog.style.maxWidth).toBe('400px');
  });

  it('closes without reloading when the current language is chosen', async () => {
    const user = userEvent.setup();
    renderTopBar();
    await user.click(screen.getByRole('button', { name: 'Language' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a language' });

    await user.click(within(dialog).getByRole('button', { name: /English/ }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.localStorage.getItem('locale')).toBeNull();
  });

  it('stores a different language and reloads the page', () => {
    const reload = vi.fn();
    expect(chooseLocale('ko', reload)).toBe(true);
    expect(window.localStorage.getItem('locale')).toBe('ko');
    expect(document.documentElement.lang).toBe('ko');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload or store anything when the current language is chosen', () => {
    const reload = vi.fn();
    expect(chooseLocale('en', reload)).toBe(false);
    expect(window.localStorage.getItem('locale')).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('whitepaper entry', () => {
  it("says 'Coming soon' when no address is configured", async () => {
    const user = userEvent.setup();
    renderTopBar();

    await user.click(screen.getByRole('button', { name: 'Whitepaper' }));

    // The toast region loads at the first toast (a chunk of its own), and sonner shows a toast a frame
    // after it is in the document: on a loaded machine the text can be found before it is visible.
    await waitFor(() => expect(screen.getByText('Coming soon')).toBeVisible(), { timeout: 5_000 });
  });

  it('opens the configured address in a new tab', () => {
    config.whitepaperUrl = 'https://example.com/whitepaper.pdf';
    renderTopBar();
    const link = screen.getByRole('link', { name: 'Whitepaper' });
    expect(link).toHaveAttribute('href', 'https://example.com/whitepaper.pdf');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });
});

describe('points red dot (spec section 2: known and false shows it; unknown shows none)', () => {
  const DOT = 'You have not checked in today';

  /** Renders the top bar for a member and waits until the check-in status call has settled. */
  async function renderForMember(answer: () => Promise<Response>) {
    logIn();
    const fetchMock = vi.fn(answer);
    vi.stubGlobal('fetch', fetchMock);
    const view = renderTopBar();
    await waitFor(() => {
      const state = view.client.getQueryState(signStatusQuery.queryKey);
      expect(state?.status === 'success' || state?.status === 'error').toBe(true);
    });
    expect(fetchMock).toHaveBeenCalledWith('/elex/user/isSignTody', expect.anything());
    return screen.getByRole('link', { name: t('nav.points') });
  }

  it('shows the dot when today is not checked in', async () => {
    const points = await renderForMember(async () => envelope({ isSignToday: false }));
    expect(within(points).getByRole('status', { name: DOT })).toBeInTheDocument();
  });

  it('shows no dot when today is checked in', async () => {
    const points = await renderForMember(async () => envelope({ isSignToday: true }));
    expect(within(points).queryByRole('status', { name: DOT })).not.toBeInTheDocument();
  });

  it('shows no dot and no error when the status cannot be fetched', async () => {
    const points = await renderForMember(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(within(points).queryByRole('status', { name: DOT })).not.toBeInTheDocument();
    expect(screen.queryByText('Network anomaly')).not.toBeInTheDocument();
  });
});
