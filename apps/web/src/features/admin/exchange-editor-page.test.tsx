import {
  buildSignupUrl,
  type CatalogExchange,
  type ExchangeDictionary,
  type ExchangeIndexResponse,
  State,
  translate,
} from '@elex/contract';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { envelope, renderRoutes } from '../../test/helpers';
import ExchangeListPage from '../exchanges/exchange-list-page';
import HomePage from '../home/home-page';
import ExchangeEditorPage from './exchange-editor-page';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

function bybit(): CatalogExchange {
  return {
    platId: 3,
    status: 'live',
    name: 'Bybit',
    abbreviation: 'BYB',
    logo: '/logos/byb.svg',
    position: 3,
    score: '9.3',
    cashRate: '40.00',
    speedUpCashRate: '50.00',
    limitPrice: '0.0200',
    marketPrice: '0.0550',
    vipRule: 'either',
    marks: [],
    signupUrlTemplate: 'https://www.bybit.com/invite?ref={code}',
    referralCode: 'REAL42',
    newUserDiscountPercent: 20,
    newUserDiscountDays: 90,
    isRecommended: true,
    isRacing: false,
    feesCheckedOn: new Date().toISOString().slice(0, 10),
    updatedAt: '2026-11-01T00:00:00.000Z',
    vipTiers: [],
    activities: [],
  };
}

/** A fake server over one stored partner: the public calls read what the console calls wrote. */
function serveCatalog() {
  const stored = bybit();
  const calls: string[] = [];
  const saves: Array<Record<string, unknown>> = [];
  const dictionary = (): ExchangeDictionary => ({
    exchangeList: [
      {
        id: stored.platId,
        name: stored.name,
        Abbreviation: stored.abbreviation,
        logo: stored.logo,
        signupUrl: buildSignupUrl(stored.signupUrlTemplate, stored.referralCode),
        referralCode: stored.referralCode,
        score: Number(stored.score),
        cashRate: stored.cashRate,
        speedUpCashRate: stored.speedUpCashRate,
        limitPrice: stored.limitPrice,
        marketPrice: stored.marketPrice,
        newUserDiscountPercent: stored.newUserDiscountPercent,
        newUserDiscountDays: stored.newUserDiscountDays,
        mark: stored.marks,
        isRecommended: stored.isRecommended,
        isRacing: stored.isRacing,
        feesCheckedOn: stored.feesCheckedOn,
      },
    ],
    score: [{ id: stored.platId, score: Number(stored.score) }],
  });
  const index = (): ExchangeIndexResponse => ({
    allExchange: [
      {
        platId: stored.platId,
        platname: stored.name,
        abbreviation: stored.abbreviation,
        logo: stored.logo,
        score: Number(stored.score),
        cashRate: stored.cashRate,
        limitPrice: stored.limitPrice,
        marketPrice: stored.marketPrice,
        personAvg: '0.000000',
        mark: stored.marks,
        isRecommended: stored.isRecommended,
        isRacing: stored.isRacing,
      },
    ],
    fames: [],
    generalActivity: [],
    hotActivity: [],
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      calls.push(path);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      switch (path) {
        case '/elex/user/config/res.json':
          return envelope(dictionary());
        case '/elex/exchange/index':
          return envelope(index());
        case '/elex/admin/catalog':
          return envelope({ exchanges: [stored] });
        case '/elex/admin/updateExchange':
          saves.push(body);
          Object.assign(stored, body, {
            feesCheckedOn: body.feesCheckedOn || null,
            updatedAt: '2026-11-02T00:00:00.000Z',
          });
          return envelope(stored);
        case '/elex/admin/uploadLogo':
          stored.logo = '/uploads/logos/byb-2.svg';
          return envelope(stored);
        default:
          return envelope(null);
      }
    }),
  );
  return { calls, saves };
}

function renderConsoleAndSite() {
  return renderRoutes(
    [
      { path: '/', element: <HomePage /> },
      { path: '/exchange', element: <ExchangeListPage /> },
      { path: '/exchangeDetail', element: <p>detail page</p> },
      { path: '/admin/catalog/:platId', element: <ExchangeEditorPage /> },
    ],
    '/exchange',
  );
}

beforeEach(() => {
  clearExchangeDictionary();
  window.innerWidth = 1280;
});

describe('the exchange editor and the public pages', () => {
  it('shows a saved edit on /exchange and on the home ranking without a reload', async () => {
    const { saves } = serveCatalog();
    const user = userEvent.setup();
    const { router } = renderConsoleAndSite();
    // The visitor pages have read the catalog once: the dictionary and the index are now cached.
    expect(await screen.findByRole('heading', { level: 2, name: 'Bybit' })).toBeVisible();
    await act(() => router.navigate('/'));
    expect(
      await within(await screen.findByRole('tabpanel')).findByRole('link', { name: 'Bybit' }),
    ).toBeVisible();

    await act(() => router.navigate('/admin/catalog/3'));
    const name = await screen.findByLabelText(t('admin.catalog.name'));
    await user.clear(name);
    await user.type(name, 'Bybit Pro');
    await user.click(screen.getByRole('button', { name: t('admin.catalog.saveFields') }));
    expect(await screen.findByText(t('msg:savedSuccessfully'))).toBeInTheDocument();
    // The save carries the version the editor loaded, so a save over another operator's is refused.
    expect(saves[0]).toMatchObject({ name: 'Bybit Pro', updatedAt: '2026-11-01T00:00:00.000Z' });

    await act(() => router.navigate('/exchange'));
    expect(await screen.findByRole('heading', { level: 2, name: 'Bybit Pro' })).toBeVisible();
    await act(() => router.navigate('/'));
    expect(
      await within(await screen.findByRole('tabpanel')).findByRole('link', { name: 'Bybit Pro' }),
    ).toBeVisible();
  });

  it('previews the sign-up link as the code and the template are typed, and the saved link reaches the dialog', async () => {
    const server = serveCatalog();
    const user = userEvent.setup();
    const { router } = renderConsoleAndSite();
    await screen.findByRole('heading', { level: 2, name: 'Bybit' });
    await act(() => router.navigate('/admin/catalog/3'));
    const preview = await screen.findByRole('group', { name: t('admin.catalog.signupPreview') });
    expect(within(preview).getByRole('link')).toHaveAttribute(
      'href',
      'https://www.bybit.com/invite?ref=REAL42',
    );

    const code = screen.getByLabelText(t('admin.catalog.referralCode'));
    await user.clear(code);
    await user.type(code, 'ELEXCB');
    // The placeholder is called out before it is saved: production would show traders no link.
    expect(
      within(preview).getByText(t('admin.catalog.signupPreviewPlaceholder', { code: 'ELEXCB' })),
    ).toBeVisible();
    await user.clear(code);
    await user.type(code, 'BYB2026');
    expect(within(preview).getByRole('link')).toHaveAttribute(
      'href',
      'https://www.bybit.com/invite?ref=BYB2026',
    );
    expect(
      within(preview).queryByText(t('admin.catalog.signupPreviewPlaceholder', { code: 'ELEXCB' })),
    ).toBeNull();

    // A template without {code} is refused on the spot and never sent.
    const template = screen.getByLabelText(t('admin.catalog.signupUrlTemplate'));
    await user.clear(template);
    await user.type(template, 'https://www.bybit.com/invite?ref=BYB2026');
    await user.tab();
    expect(await screen.findByText(t('msg:signupTemplateSlot'))).toBeVisible();
    expect(template).toHaveAttribute('aria-invalid', 'true');
    expect(within(preview).queryByRole('link')).toBeNull();
    expect(within(preview).getByText(t('admin.catalog.signupPreviewInvalid'))).toBeVisible();
    await user.click(screen.getByRole('button', { name: t('admin.catalog.saveFields') }));
    expect(server.calls).not.toContain('/elex/admin/updateExchange');

    await user.clear(template);
    await user.type(template, 'https://partner.bybit.com/r/{{code}');
    expect(within(preview).getByRole('link')).toHaveAttribute('href', 'https://partner.bybit.com/r/BYB2026');
    await user.click(screen.getByRole('button', { name: t('admin.catalog.saveFields') }));
    expect(await screen.findByText(t('msg:savedSuccessfully'))).toBeInTheDocument();

    // The visitor's sign-up dialog opens the link with the same code it shows.
    await act(() => router.navigate('/exchange'));
    await user.click(
      await screen.findByRole('button', { name: t('exchanges.signupCta', { name: 'Bybit' }) }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: t('exchanges.signup.title', { name: 'Bybit' }),
    });
    expect(
      await within(dialog).findByRole('link', {
        name: new RegExp(t('exchanges.signup.open', { name: 'Bybit' })),
      }),
    ).toHaveAttribute('href', 'https://partner.bybit.com/r/BYB2026');
    expect(within(dialog).getByText('BYB2026')).toBeVisible();
  });

  it('loads the exchange dictionary again after a logo upload', async () => {
    const server = serveCatalog();
    const user = userEvent.setup();
    const { router } = renderConsoleAndSite();
    await screen.findByRole('heading', { level: 2, name: 'Bybit' });
    const dictionaryLoads = () => server.calls.filter((path) => path === '/elex/user/config/res.json').length;
    expect(dictionaryLoads()).toBe(1);

    await act(() => router.navigate('/admin/catalog/3'));
    const upload = await screen.findByLabelText(t('admin.catalog.uploadLogo'));
    await user.upload(
      upload,
      new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'byb.svg', { type: 'image/svg+xml' }),
    );
    await vi.waitFor(() => expect(dictionaryLoads()).toBe(2));

    await act(() => router.navigate('/exchange'));
    await screen.findByRole('heading', { level: 2, name: 'Bybit' });
    // The new logo path reached the card without another load.
    expect(dictionaryLoads()).toBe(2);
    expect(document.querySelector('.exchange-card img')?.getAttribute('src')).toBe(
      '/uploads/logos/byb-2.svg',
    );
  });
});

describe('an activity another operator changed meanwhile', () => {
  it('says nothing was saved, keeps the dialog, and shows their version to open again', async () => {
    const stored = {
      ...bybit(),
      activities: [
        {
          id: 41,
          platId: 3,
          kind: 'hot' as const,
          titles: { en: 'Fee holiday', zh: '免手续费', ko: '수수료 면제' },
          activityUrl: 'https://example.com/holiday',
          position: 0,
          updatedAt: '2026-11-01T00:00:00.000Z',
        },
      ],
    };
    const saves: Array<Record<string, unknown>> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
        switch (String(input)) {
          case '/elex/admin/catalog':
            return envelope({ exchanges: [structuredClone(stored)] });
          case '/elex/admin/saveActivity': {
            saves.push(body);
            const [activity] = stored.activities;
            if (!activity || body.updatedAt !== activity.updatedAt) {
              return envelope(null, State.Refused, translate('en', 'activityEditedMeanwhile'));
            }
            Object.assign(activity, body, { updatedAt: '2026-11-03T00:00:00.000Z' });
            return envelope(activity);
          }
          default:
            return envelope(null);
        }
      }),
    );
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/catalog/:platId', element: <ExchangeEditorPage /> }], '/admin/catalog/3');
    await screen.findByText('Fee holiday');
    // Another operator renames it after this page loaded.
    const [activity] = stored.activities;
    if (!activity) throw new Error('no activity');
    Object.assign(activity, { titles: { ...activity.titles, en: 'Fee holiday, extended' } });
    activity.updatedAt = '2026-11-02T00:00:00.000Z';

    await user.click(
      screen.getByRole('button', { name: t('admin.catalog.editActivityNamed', { title: 'Fee holiday' }) }),
    );
    let dialog = await screen.findByRole('dialog', { name: t('admin.catalog.editActivity') });
    const url = within(dialog).getByLabelText(t('admin.catalog.activityUrl'));
    await user.clear(url);
    await user.type(url, 'https://example.com/holiday-2');
    await user.click(within(dialog).getByRole('button', { name: t('admin.catalog.saveActivity') }));
    expect(await screen.findByText(translate('en', 'activityEditedMeanwhile'))).toBeVisible();
    expect(saves[0]).toMatchObject({ id: 41, updatedAt: '2026-11-01T00:00:00.000Z' });
    // Nothing was lost on this side: the dialog is still open with what was typed.
    expect(within(dialog).getByLabelText(t('admin.catalog.activityUrl'))).toHaveValue(
      'https://example.com/holiday-2',
    );
    // The list already shows their version; opened again, the change goes in on top of it.
    await user.click(within(dialog).getByRole('button', { name: t('admin.common.cancel') }));
    const theirs = await screen.findByRole('button', {
      name: t('admin.catalog.editActivityNamed', { title: 'Fee holiday, extended' }),
    });
    await user.click(theirs);
    dialog = await screen.findByRole('dialog', { name: t('admin.catalog.editActivity') });
    expect(within(dialog).getByLabelText(t('admin.catalog.activityTitle.en'))).toHaveValue(
      'Fee holiday, extended',
    );
    const again = within(dialog).getByLabelText(t('admin.catalog.activityUrl'));
    await user.clear(again);
    await user.type(again, 'https://example.com/holiday-2');
    await user.click(within(dialog).getByRole('button', { name: t('admin.catalog.saveActivity') }));
    expect(await screen.findByText(t('msg:savedSuccessfully'))).toBeInTheDocument();
    expect(saves[1]).toMatchObject({
      titles: { en: 'Fee holiday, extended' },
      activityUrl: 'https://example.com/holiday-2',
      updatedAt: '2026-11-02T00:00:00.000Z',
    });
  });
});

describe('removing an activity another operator changed meanwhile', () => {
  it('removes nothing, says why, and shows their version; confirmed on it, the removal goes', async () => {
    const stored = {
      ...bybit(),
      activities: [
        {
          id: 42,
          platId: 3,
          kind: 'general' as const,
          titles: { en: 'Spring promo', zh: '春季活动', ko: '봄 프로모션' },
          activityUrl: 'https://example.com/spring',
          position: 0,
          updatedAt: '2026-11-01T00:00:00.000Z',
        },
      ],
    };
    const removals: Array<Record<string, unknown>> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
        switch (String(input)) {
          case '/elex/admin/catalog':
            return envelope({ exchanges: [structuredClone(stored)] });
          case '/elex/admin/deleteActivity': {
            removals.push(body);
            const [activity] = stored.activities;
            if (!activity || body.updatedAt !== activity.updatedAt) {
              return envelope(null, State.Refused, translate('en', 'activityEditedMeanwhile'));
            }
            stored.activities = [];
            return envelope(null);
          }
          default:
            return envelope(null);
        }
      }),
    );
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/catalog/:platId', element: <ExchangeEditorPage /> }], '/admin/catalog/3');
    await screen.findByText('Spring promo');
    await user.click(
      screen.getByRole('button', { name: t('admin.catalog.removeActivityNamed', { title: 'Spring promo' }) }),
    );
    const confirmation = await screen.findByRole('dialog', { name: t('admin.catalog.removeActivityTitle') });
    expect(within(confirmation).getByText('Spring promo')).toBeVisible();
    // Another operator turns it into another promotion while the confirmation is open.
    const [activity] = stored.activities;
    if (!activity) throw new Error('no activity');
    Object.assign(activity, {
      titles: { ...activity.titles, en: 'Summer promo' },
      updatedAt: '2026-11-02T00:00:00.000Z',
    });

    await user.click(within(confirmation).getByRole('button', { name: t('admin.catalog.removeActivity') }));
    expect(await screen.findByText(translate('en', 'activityEditedMeanwhile'))).toBeVisible();
    expect(removals[0]).toEqual({ id: 42, updatedAt: '2026-11-01T00:00:00.000Z' });
    // Nothing was removed: the list shows their version, and the confirmation is closed.
    const theirs = await screen.findByRole('button', {
      name: t('admin.catalog.removeActivityNamed', { title: 'Summer promo' }),
    });
    expect(screen.queryByRole('dialog', { name: t('admin.catalog.removeActivityTitle') })).toBeNull();
    expect(screen.queryByText(t('msg:savedSuccessfully'))).toBeNull();
    // Confirmed on their version, it goes.
    await user.click(theirs);
    const again = await screen.findByRole('dialog', { name: t('admin.catalog.removeActivityTitle') });
    expect(within(again).getByText('Summer promo')).toBeVisible();
    await user.click(within(again).getByRole('button', { name: t('admin.catalog.removeActivity') }));
    expect(await screen.findByText(t('msg:savedSuccessfully'))).toBeInTheDocument();
    expect(removals[1]).toEqual({ id: 42, updatedAt: '2026-11-02T00:00:00.000Z' });
    expect(await screen.findByText(t('admin.catalog.noActivities'))).toBeVisible();
  });
});

/** A fake server over one partner another operator changes while this page is open. */
function serveChangingPartner(initial: Partial<CatalogExchange>) {
  const stored: CatalogExchange = { ...bybit(), ...initial };
  const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  const refusal = (path: string) =>
    path === '/elex/admin/uploadLogo' ? 'logoEditedMeanwhile' : 'exchangeStatusEditedMeanwhile';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      if (path === '/elex/admin/catalog') {
        return envelope({ exchanges: [structuredClone(stored)] });
      }
      const moves: Record<string, CatalogExchange['status']> = {
        '/elex/admin/publishExchange': 'live',
        '/elex/admin/retireExchange': 'retired',
        '/elex/admin/reinstateExchange': 'live',
      };
      if (path in moves || path === '/elex/admin/uploadLogo') {
        sent.push({ path, body });
        if (body.updatedAt !== stored.updatedAt)
          return envelope(null, State.Refused, translate('en', refusal(path)));
        if (path === '/elex/admin/uploadLogo') stored.logo = '/media/mine.svg';
        else stored.status = moves[path] as CatalogExchange['status'];
        stored.updatedAt = new Date(Date.parse(stored.updatedAt) + 1000).toISOString();
        return envelope(structuredClone(stored));
      }
      return envelope(null);
    }),
  );
  return {
    stored,
    sent,
    /** Another operator's save: new values, a new version. */
    theirChange(change: Partial<CatalogExchange>) {
      Object.assign(stored, change, { updatedAt: '2026-11-02T00:00:00.000Z' });
    },
  };
}

describe('publishing or retiring a partner another operator changed meanwhile', () => {
  it('publishes nothing, says why, closes the confirmation and shows their version; confirmed on it, it is published', async () => {
    const server = serveChangingPartner({ status: 'draft' });
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/catalog/:platId', element: <ExchangeEditorPage /> }], '/admin/catalog/3');
    expect(await screen.findByLabelText(t('admin.catalog.cashRate'))).toHaveValue('40.00');
    // Another operator lowers the cash rate after this page loaded.
    server.theirChange({ cashRate: '12.50' });

    await user.click(screen.getByRole('button', { name: t('admin.lifecycle.publish.open') }));
    let confirmation = await screen.findByRole('dialog', {
      name: t('admin.lifecycle.publish.title', { name: 'Bybit' }),
    });
    await user.click(within(confirmation).getByRole('button', { name: t('admin.lifecycle.publish.submit') }));
    expect(await screen.findByText(translate('en', 'exchangeStatusEditedMeanwhile'))).toBeVisible();
    expect(server.sent[0]).toEqual({
      path: '/elex/admin/publishExchange',
      body: { platId: 3, updatedAt: '2026-11-01T00:00:00.000Z' },
    });
    // Still a draft; the page reloaded and shows the cash rate it would make live.
    await vi.waitFor(() => expect(screen.getByLabelText(t('admin.catalog.cashRate'))).toHaveValue('12.50'));
    expect(screen.getByText(t('admin.lifecycle.statuses.draft'))).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByText(translate('en', 'exchangePublished'))).toBeNull();

    await user.click(screen.getByRole('button', { name: t('admin.lifecycle.publish.open') }));
    confirmation = await screen.findByRole('dialog', {
      name: t('admin.lifecycle.publish.title', { name: 'Bybit' }),
    });
    await user.click(within(confirmation).getByRole('button', { name: t('admin.lifecycle.publish.submit') }));
    expect(await screen.findByText(translate('en', 'exchangePublished'))).toBeVisible();
    expect(server.sent[1]?.body).toEqual({ platId: 3, updatedAt: '2026-11-02T00:00:00.000Z' });
    expect(await screen.findByText(t('admin.lifecycle.statuses.live'))).toBeVisible();
    // Retiring now starts from the version the publish answered, reloaded with the page.
    await user.click(screen.getByRole('button', { name: t('admin.lifecycle.retire.open') }));
    confirmation = await screen.findByRole('dialog', {
      name: t('admin.lifecycle.retire.title', { name: 'Bybit' }),
    });
    await user.click(within(confirmation).getByRole('button', { name: t('admin.lifecycle.retire.submit') }));
    expect(await screen.findByText(translate('en', 'exchangeRetiredDone'))).toBeVisible();
    expect(server.sent[2]).toEqual({
      path: '/elex/admin/retireExchange',
      body: { platId: 3, updatedAt: '2026-11-02T00:00:01.000Z' },
    });
  });
});

describe('a logo uploaded on a partner another operator changed meanwhile', () => {
  it('stores nothing, says why and shows their logo; picked again, the file goes in on their version', async () => {
    const server = serveChangingPartner({});
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/catalog/:platId', element: <ExchangeEditorPage /> }], '/admin/catalog/3');
    const current = await screen.findByAltText(t('admin.catalog.currentLogo'));
    expect(current).toHaveAttribute('src', '/logos/byb.svg');
    // Another operator uploads their logo after this page loaded.
    server.theirChange({ logo: '/media/theirs.svg' });
    const file = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'mine.svg', {
      type: 'image/svg+xml',
    });

    await user.upload(screen.getByLabelText(t('admin.catalog.uploadLogo')), file);
    expect(await screen.findByText(translate('en', 'logoEditedMeanwhile'))).toBeVisible();
    expect(server.sent[0]?.body).toMatchObject({ platId: 3, updatedAt: '2026-11-01T00:00:00.000Z' });
    await vi.waitFor(() =>
      expect(screen.getByAltText(t('admin.catalog.currentLogo'))).toHaveAttribute('src', '/media/theirs.svg'),
    );

    await user.upload(screen.getByLabelText(t('admin.catalog.uploadLogo')), file);
    await vi.waitFor(() =>
      expect(screen.getByAltText(t('admin.catalog.currentLogo'))).toHaveAttribute('src', '/media/mine.svg'),
    );
    expect(server.sent[1]?.body).toMatchObject({
      platId: 3,
      updatedAt: '2026-11-02T00:00:00.000Z',
      fileName: 'mine.svg',
    });
  });
});
