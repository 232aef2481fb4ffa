import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, logIn, renderAt } from '../../test/helpers';
import SettingsPage from './settings-page';

const t = (key: string) => i18next.t(key);

function stubSettings(answer: () => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
    if (String(url) === '/elex/user/getSettings') return answer();
    return envelope(null, 1004, 'Not found', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => logIn());

describe('notification settings', () => {
  it('shows the marketing-consent switch as stored', async () => {
    stubSettings(() => envelope({ marketingConsent: true }));
    renderAt(<SettingsPage />, '/mypage/settings');
    expect(await screen.findByRole('switch', { name: t('mypage.marketingTitle') })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });

  it('says the settings could not be loaded, instead of a skeleton forever, and loads them again on request', async () => {
    stubSettings(() => {
      throw new TypeError('Failed to fetch');
    });
    const user = userEvent.setup();
    renderAt(<SettingsPage />, '/mypage/settings');

    const alert = (await screen.findByText(t('common.loadFailed'))).closest('[role="alert"]') as HTMLElement;
    expect(alert).not.toBeNull();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    stubSettings(() => envelope({ marketingConsent: false }));
    await user.click(within(alert).getByRole('button', { name: t('common.retry') }));

    expect(await screen.findByRole('switch', { name: t('mypage.marketingTitle') })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  });
});
