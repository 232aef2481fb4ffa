import type { AlertPreferences } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router';
import { envelope, logIn, renderRoutes } from '../../test/helpers';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const OPERATOR = { userId: 7, email: 'ops@example.com', userCode: 'EXOPS234' };

type Handler = (body: Record<string, unknown>) => Response;

function serve(handlers: Record<string, Handler>) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  const all: Record<string, Handler> = { '/elex/admin/whoami': () => envelope(OPERATOR), ...handlers };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      calls.push({ path, body });
      const handler = all[path];
      return handler ? handler(body) : envelope(null);
    }),
  );
  return calls;
}

beforeEach(() => {
  logIn();
});

describe('/admin/exports', () => {
  it('is in the console navigation', async () => {
    serve({});
    renderRoutes(routes, '/admin/exports');
    expect(
      await screen.findByRole('heading', { level: 1, name: t('admin.exports.title') }, { timeout: 5000 }),
    ).toBeVisible();
    const nav = screen.getByRole('navigation', { name: t('admin.console') });
    expect(within(nav).getByRole('link', { name: t('admin.nav.exports') })).toHaveAttribute(
      'href',
      '/admin/exports',
    );
    expect(within(nav).getByRole('link', { name: t('admin.nav.alerts') })).toHaveAttribute(
      'href',
      '/admin/alerts',
    );
  });

  it('says a reversed range at the last day and asks the server nothing', async () => {
    const calls = serve({});
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/exports');
    const from = await screen.findByLabelText(t('admin.exports.from'));
    await user.clear(from);
    await user.type(from, '2026-05-31');
    const to = screen.getByLabelText(t('admin.exports.to'));
    await user.clear(to);
    await user.type(to, '2026-05-01');
    await user.click(screen.getByRole('button', { name: t('admin.exports.download') }));
    expect(await screen.findByText(t('msg:exportRangeReversed'))).toBeInTheDocument();
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.path === '/elex/admin/exports/create')).toEqual([]);
  });

  it('makes the link and hands it to the browser with the console language', async () => {
    const calls = serve({
      '/elex/admin/exports/create': () =>
        envelope({
          url: '/elex/admin/exports/download/abc',
          fileName: 'elex-ledger-2026-05-01-2026-05-31.csv',
          expiresAt: '2026-06-01T00:01:00.000Z',
        }),
    });
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/exports');
    await user.selectOptions(await screen.findByLabelText(t('admin.exports.kind')), 'ledger');
    const from = screen.getByLabelText(t('admin.exports.from'));
    await user.clear(from);
    await user.type(from, '2026-05-01');
    const to = screen.getByLabelText(t('admin.exports.to'));
    await user.clear(to);
    await user.type(to, '2026-05-31');
    await user.click(screen.getByRole('button', { name: t('admin.exports.download') }));
    await waitFor(() =>
      expect(clicked).toEqual([`/elex/admin/exports/download/abc?lang=${i18next.language}`]),
    );
    expect(calls.find((call) => call.path === '/elex/admin/exports/create')?.body).toEqual({
      kind: 'ledger',
      from: '2026-05-01',
      to: '2026-05-31',
    });
    expect(
      await screen.findByText(
        t('admin.exports.started', { fileName: 'elex-ledger-2026-05-01-2026-05-31.csv' }),
      ),
    ).toBeInTheDocument();
    click.mockRestore();
  });
});

describe('/admin/alerts', () => {
  /** The operator's switches, all on at first, kept by the save call as the server keeps them. */
  const serveAlertPreferences = () => {
    let saved: AlertPreferences = {
      withdrawalRequested: true,
      syncFailing: true,
      ledgerBroken: true,
      dailySummary: true,
      payoutWalletShort: true,
      payoutStuck: true,
      clockSkew: true,
    };
    return serve({
      '/elex/admin/alertPreferences': () => envelope(saved),
      '/elex/admin/saveAlertPreferences': (body) => {
        saved = { ...saved, ...(body as Partial<AlertPreferences>) };
        return envelope(saved);
      },
    });
  };

  it("shows the operator's switches and saves a change", async () => {
    const calls = serveAlertPreferences();
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/alerts');
    const daily = await screen.findByRole('checkbox', { name: t('admin.alerts.kinds.dailySummary') });
    expect(daily).toBeChecked();
    expect(daily).toHaveAccessibleDescription(t('admin.alerts.hints.dailySummary'));
    const save = screen.getByRole('button', { name: t('admin.alerts.save') });
    expect(save).toBeDisabled();
    await user.click(daily);
    await user.click(save);
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/saveAlertPreferences')?.body).toMatchObject({
        dailySummary: false,
        withdrawalRequested: true,
      }),
    );
    await waitFor(() => expect(save).toBeDisabled());
    expect(daily).not.toBeChecked();
  });

  it("switches the clock's alert apart from the ledger check's", async () => {
    const calls = serveAlertPreferences();
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/alerts');
    const ledger = await screen.findByRole('checkbox', { name: t('admin.alerts.kinds.ledgerBroken') });
    const clock = screen.getByRole('checkbox', { name: t('admin.alerts.kinds.clockSkew') });
    expect(clock).toHaveAccessibleDescription(t('admin.alerts.hints.clockSkew'));
    expect(clock).toHaveAccessibleDescription(/ALERT_CLOCK_SKEW_MS/);
    // The ledger check's switch no longer speaks of clocks.
    expect(ledger).toHaveAccessibleName(/^The ledger check finds a problem$/);
    expect(ledger).not.toHaveAccessibleDescription(/clock/i);
    await user.click(ledger);
    await user.click(screen.getByRole('button', { name: t('admin.alerts.save') }));
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/elex/admin/saveAlertPreferences')?.body).toMatchObject({
        ledgerBroken: false,
        clockSkew: true,
      }),
    );
    expect(clock).toBeChecked();
  });
});
