import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, logIn, renderAt } from '../../test/helpers';
import SettingsPage from './settings-page';

const t = (key: string) => i18next.t(key);

function stubSettings(
  answer: () => Response | Promise<Response>,
  save: () => Response | Promise<Response> = () => envelope(null),
) {
  const fetchMock = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
    if (String(url) === '/elex/user/getSettings') return answer();
    if (String(url) === '/elex/user/saveSettings') return save();
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

  it("says 'Saved successfully' and shows the new choice once the server has it", async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubSettings(
      () => envelope({ marketingConsent: false }),
      () => new Promise((resolve) => (answer = resolve)),
    );
    const user = userEvent.setup();
    renderAt(<SettingsPage />, '/mypage/settings');
    const toggle = await screen.findByRole('switch', { name: t('mypage.marketingTitle') });

    await user.click(toggle);
    // One save at a time: the switch waits for the answer.
    expect(toggle).toBeDisabled();
    const save = fetchMock.mock.calls.find(([url]) => String(url) === '/elex/user/saveSettings');
    expect(JSON.parse(String(save?.[1]?.body))).toEqual({ marketingConsent: true });

    await act(async () => answer(envelope(null)));
    expect(await screen.findByText('Saved successfully')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(toggle).toBeEnabled();
  });

  it("says 'Save failed. Check your connection.' and keeps the stored choice when saving fails", async () => {
    stubSettings(
      () => envelope({ marketingConsent: true }),
      () => {
        throw new TypeError('Failed to fetch');
      },
    );
    const user = userEvent.setup();
    renderAt(<SettingsPage />, '/mypage/settings');
    const toggle = await screen.findByRole('switch', { name: t('mypage.marketingTitle') });

    await user.click(toggle);
    expect(await screen.findByText('Save failed. Check your connection.')).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    // The client's own 'Network anomaly' does not pile on the page's message.
    expect(screen.queryByText(i18next.t('msg:networkAnomaly'))).not.toBeInTheDocument();
  });
});
