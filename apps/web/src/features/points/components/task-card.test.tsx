import type { Task } from '@elex/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { logIn, renderAt } from '../../../test/helpers';
import { envelope, stubApi, task } from '../test-api';
import { openApp, TaskCard } from './task-card';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);
const msg = (key: string) => i18next.t(`msg:${key}`);

function renderTask(item: Task) {
  logIn();
  renderAt(
    <ul>
      <TaskCard task={item} />
    </ul>,
    '/mypage/point',
  );
  return screen.getByRole('listitem');
}

const telegram = (overrides: Partial<Task> = {}) =>
  task({
    taskId: 'telegram',
    kind: 'telegram',
    group: 'social',
    verification: 'bot',
    link: 'https://t.me/elexcashback',
    ...overrides,
  });

describe('task buttons per claim state', () => {
  it.each([
    ['social, claimed', telegram({ state: 'claimed' }), 'tasks.buttons.joined'],
    ['social without points, done', telegram({ state: 'bound', points: 0 }), 'tasks.buttons.joined'],
    [
      'binding, claimed',
      task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding', state: 'claimed' }),
      'tasks.buttons.bound',
    ],
    [
      'trade, not reached',
      task({
        taskId: 'tradeTier1',
        kind: 'tradingVolume',
        group: 'trade',
        state: 'unfinished',
        threshold: '10000.000000',
        progress: '2500.500000',
      }),
      'tasks.buttons.notAchieved',
    ],
    [
      'trade, claimed',
      task({
        taskId: 'tradeTier1',
        kind: 'tradingVolume',
        group: 'trade',
        state: 'claimed',
        threshold: '1.000000',
        progress: '5.000000',
      }),
      'tasks.buttons.claimed',
    ],
  ])('%s: a disabled %s', (_, item, label) => {
    const card = renderTask(item);
    expect(within(card).getByRole('button', { name: t(label) })).toBeDisabled();
    expect(within(card).queryByRole('button', { name: t('tasks.buttons.claim') })).not.toBeInTheDocument();
  });

  it('trade: shows the volume against the threshold', () => {
    const card = renderTask(
      task({
        taskId: 'tradeTier1',
        kind: 'tradingVolume',
        group: 'trade',
        state: 'unfinished',
        threshold: '10000.000000',
        progress: '2500.500000',
      }),
    );
    expect(
      within(card).getByRole('heading', { name: t('tasks.names.tradingVolume', { volume: '10,000' }) }),
    ).toBeInTheDocument();
    const bar = within(card).getByRole('progressbar');
    expect(bar).toHaveAttribute('value', '2500.5');
    expect(bar).toHaveAccessibleName(`${t('tasks.progressLabel')} 2,500.50 / 10,000 USDT`);
  });

  it('binding, not bound: Bind goes to /uidlinking for a UID, opens the XME dialog for XME', async () => {
    const card = renderTask(task({ taskId: 'bindUid', kind: 'bindUid', group: 'binding' }));
    expect(within(card).getByRole('link', { name: t('tasks.buttons.bind') })).toHaveAttribute(
      'href',
      '/uidlinking',
    );
  });

  it('binding XME: Bind opens the dialog and binds', async () => {
    const api = stubApi({
      '/elex/user/bindXmeUid': envelope({ xmeUid: 'my-xme-1' }, 0, 'Binding successful'),
    });
    const user = userEvent.setup();
    const card = renderTask(task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding' }));
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.bind') }));
    const dialog = await screen.findByRole('dialog', { name: t('tasks.xmeTitle') });
    await user.type(within(dialog).getByLabelText(t('tasks.xmeLabel')), 'my-xme-1');
    await user.click(within(dialog).getByRole('button', { name: t('tasks.buttons.bind') }));
    expect(await screen.findByText(msg('bindingSuccessful'))).toBeInTheDocument();
    expect(api.calls.find((call) => call.path === '/elex/user/bindXmeUid')?.body).toEqual({
      xmeUid: 'my-xme-1',
    });
  });

  it('binding XME: the dialog reopens empty after it was closed with a refused value', async () => {
    stubApi({});
    const user = userEvent.setup();
    const card = renderTask(task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding' }));
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.bind') }));
    let dialog = await screen.findByRole('dialog', { name: t('tasks.xmeTitle') });
    // Blank: refused on the field.
    await user.type(within(dialog).getByLabelText(t('tasks.xmeLabel')), '   ');
    await user.click(within(dialog).getByRole('button', { name: t('tasks.buttons.bind') }));
    expect(within(dialog).getByText(msg('requiredInformation'))).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.bind') }));
    dialog = await screen.findByRole('dialog', { name: t('tasks.xmeTitle') });
    expect(within(dialog).getByLabelText(t('tasks.xmeLabel'))).toHaveValue('');
    expect(within(dialog).queryByText(msg('requiredInformation'))).not.toBeInTheDocument();
  });

  it('claim: pays and says Claim Successful', async () => {
    const api = stubApi({
      '/elex/exchange/receiveScore': envelope({
        taskId: 'bindXme',
        pointsEarned: 50,
        points: 170,
        state: 'claimed',
      }),
      '/elex/exchange/getExchangeTaskDetail': envelope(null),
      '/elex/activity/pointsHistory': envelope(null),
      '/elex/user/profile': envelope(null),
    });
    const user = userEvent.setup();
    const card = renderTask(task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding', state: 'claim' }));
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.claim') }));
    expect(await screen.findByText(msg('claimSuccessful'))).toBeInTheDocument();
    expect(api.calls[0]).toEqual({ path: '/elex/exchange/receiveScore', body: { taskId: 'bindXme' } });
  });

  it('claim that does not reach the server: the generic Claim Failed, and Claim stays', async () => {
    stubApi({
      '/elex/exchange/receiveScore': () => Promise.reject(new TypeError('Failed to fetch')),
      '/elex/exchange/getExchangeTaskDetail': envelope(null),
      '/elex/activity/pointsHistory': envelope(null),
      '/elex/user/profile': envelope(null),
    });
    const user = userEvent.setup();
    const card = renderTask(task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding', state: 'claim' }));
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.claim') }));
    expect(await screen.findByText(msg('claimFailed'))).toBeInTheDocument();
    // The client stays silent: one message, the spec's, not 'Network anomaly' besides.
    expect(screen.queryByText(msg('networkAnomaly'))).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(card).getByRole('button', { name: t('tasks.buttons.claim') })).toBeEnabled(),
    );
  });

  it('claim refused: shows the reason the server gives', async () => {
    stubApi({ '/elex/exchange/receiveScore': envelope(null, 1002, 'Claim Failed: Not Achieved') });
    const user = userEvent.setup();
    const card = renderTask(
      task({
        taskId: 'tradeTier1',
        kind: 'tradingVolume',
        group: 'trade',
        state: 'claim',
        threshold: '1.000000',
        progress: '1.000000',
      }),
    );
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.claim') }));
    expect(await screen.findByText('Claim Failed: Not Achieved')).toBeInTheDocument();
  });
});

describe('a claim that waits for support’s decision on a disputed UID', () => {
  it.each([
    [
      'binding',
      task({ taskId: 'bindUid', kind: 'bindUid', group: 'binding', state: 'claim', awaitsDispute: true }),
    ],
    [
      'trade',
      task({
        taskId: 'tradeTier1',
        kind: 'tradingVolume',
        group: 'trade',
        state: 'claim',
        threshold: '10000.000000',
        progress: '20000.000000',
        awaitsDispute: true,
      }),
    ],
  ])('%s: no Claim, a disabled Awaiting support that says why, and the way to support', (_, item) => {
    const api = stubApi({});
    const card = renderTask(item);
    expect(within(card).queryByRole('button', { name: t('tasks.buttons.claim') })).not.toBeInTheDocument();
    const waiting = within(card).getByRole('button', { name: t('tasks.buttons.awaitingSupport') });
    expect(waiting).toBeDisabled();
    expect(waiting).toHaveAccessibleDescription(t('tasks.disputeNote'));
    expect(within(card).getByText(t('tasks.disputeNote'))).toBeVisible();
    expect(within(card).getByRole('link', { name: t('tasks.disputeLink') })).toHaveAttribute(
      'href',
      '/mypage/support',
    );
    expect(api.fetch).not.toHaveBeenCalled();
  });
});

describe('social tasks', () => {
  it('not joined: Join, a user id field and Verify; the bot says joined', async () => {
    const api = stubApi({
      '/elex/exchange/fetchMetiaTaskStatus': envelope({
        taskId: 'telegram',
        status: 'joined',
        state: 'claim',
        accountId: '123456789',
      }),
      '/elex/exchange/getExchangeTaskDetail': envelope(null),
    });
    const user = userEvent.setup();
    const card = renderTask(telegram());
    expect(within(card).getByRole('button', { name: t('tasks.buttons.join') })).toBeEnabled();
    const field = within(card).getByLabelText(t('tasks.accountLabel.telegram'));
    await user.type(field, '@me');
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.verify') }));
    expect(within(card).getByText(msg('socialAccountInvalid'))).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, '123456789');
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.verify') }));
    await waitFor(() => expect(within(card).getByRole('status')).toHaveTextContent(t('tasks.status.joined')));
    expect(api.calls[0]?.body).toEqual({ taskId: 'telegram', accountId: '123456789' });
  });

  it('verification timeout: the spec message', async () => {
    stubApi({
      '/elex/exchange/fetchMetiaTaskStatus': envelope({
        taskId: 'telegram',
        status: 'timeout',
        state: 'unbound',
        accountId: '123456789',
      }),
      '/elex/exchange/getExchangeTaskDetail': envelope(null),
    });
    const user = userEvent.setup();
    const card = renderTask(telegram({ accountId: '123456789' }));
    expect(within(card).getByLabelText(t('tasks.accountLabel.telegram'))).toHaveValue('123456789');
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.verify') }));
    await waitFor(() =>
      expect(within(card).getByRole('status')).toHaveTextContent(msg('verificationTimeout')),
    );
  });

  it.each([
    ['notJoined', 'tasks.status.notJoined'],
    ['error', 'tasks.status.error'],
  ] as const)(
    'the bot answers %s: says so in words, and Verify can be pressed again',
    async (status, text) => {
      stubApi({
        '/elex/exchange/fetchMetiaTaskStatus': envelope({
          taskId: 'telegram',
          status,
          state: 'unbound',
          accountId: '123456789',
        }),
        '/elex/exchange/getExchangeTaskDetail': envelope(null),
      });
      const user = userEvent.setup();
      const card = renderTask(telegram({ accountId: '123456789' }));
      await user.click(within(card).getByRole('button', { name: t('tasks.buttons.verify') }));
      await waitFor(() => expect(within(card).getByRole('status')).toHaveTextContent(t(text)));
      expect(within(card).getByRole('button', { name: t('tasks.buttons.verify') })).toBeEnabled();
      expect(within(card).queryByRole('button', { name: t('tasks.buttons.claim') })).not.toBeInTheDocument();
    },
  );

  it('the server refuses the id: shows its reason, keeps the id to correct, no status line', async () => {
    const refusal = 'This account has already completed the task for another member';
    stubApi({ '/elex/exchange/fetchMetiaTaskStatus': envelope(null, 1002, refusal) });
    const user = userEvent.setup();
    const card = renderTask(telegram());
    const field = within(card).getByLabelText(t('tasks.accountLabel.telegram'));
    await user.type(field, '123456789');
    await user.click(within(card).getByRole('button', { name: t('tasks.buttons.verify') }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(within(card).getByRole('status')).toBeEmptyDOMElement();
    expect(field).toHaveValue('123456789');
    expect(within(card).getByRole('button', { name: t('tasks.buttons.verify') })).toBeEnabled();
  });

  it('joined, not claimed: Claim', () => {
    const card = renderTask(telegram({ state: 'claim' }));
    expect(within(card).getByRole('button', { name: t('tasks.buttons.claim') })).toBeEnabled();
    expect(within(card).getByText(t('tasks.status.joined'))).toBeInTheDocument();
  });

  it('no bot configured: says it cannot be verified now and offers no Verify', () => {
    const card = renderTask(telegram({ verification: 'unconfigured' }));
    expect(within(card).getByText(t('tasks.status.unavailable'))).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: t('tasks.buttons.verify') })).not.toBeInTheDocument();
  });

  it('X: Follow, no points, and says why', () => {
    const card = renderTask(
      task({
        taskId: 'x',
        kind: 'x',
        group: 'social',
        points: 0,
        verification: 'none',
        link: 'https://x.com/elexcashback',
      }),
    );
    expect(within(card).getByRole('button', { name: t('tasks.buttons.follow') })).toBeEnabled();
    expect(within(card).getByText(t('tasks.noPoints'))).toBeInTheDocument();
    expect(within(card).getByText(t('tasks.xNote'))).toBeInTheDocument();
  });
});

describe('opening the app', () => {
  it('calls it failed when the page stays in front, not when the app takes over', () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    const failed = vi.fn();
    openApp('tg://resolve?domain=elexcashback', failed, navigate);
    expect(navigate).toHaveBeenCalledWith('tg://resolve?domain=elexcashback');
    vi.advanceTimersByTime(1_500);
    expect(failed).toHaveBeenCalledTimes(1);

    const opened = vi.fn();
    openApp('tg://resolve?domain=elexcashback', opened, navigate);
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(1_500);
    expect(opened).not.toHaveBeenCalled();
  });

  it('Discord: Join tries the app link first', () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const card = renderTask(
      task({
        taskId: 'discord',
        kind: 'discord',
        group: 'social',
        verification: 'bot',
        link: 'https://discord.com/invite/elexcashback',
        appLink: 'discord://-/invite/elexcashback',
      }),
    );
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    within(card)
      .getByRole('button', { name: t('tasks.buttons.join') })
      .click();
    expect(assign).toHaveBeenCalledWith('discord://-/invite/elexcashback');
    expect(open).not.toHaveBeenCalled();
    expect(within(card).getByRole('link', { name: new RegExp(t('tasks.openInBrowser')) })).toHaveAttribute(
      'href',
      'https://discord.com/invite/elexcashback',
    );
  });

  it('Join with an app link that no app takes: says to check the app is installed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const card = renderTask(telegram({ appLink: 'tg://resolve?domain=elexcashback' }));
    // jsdom cannot navigate to tg://; the attempt is what matters here.
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
    within(card)
      .getByRole('button', { name: t('tasks.buttons.join') })
      .click();
    expect(assign).toHaveBeenCalledWith('tg://resolve?domain=elexcashback');
    await vi.advanceTimersByTimeAsync(1_600);
    expect(await screen.findByText(msg('appOpenFailed'))).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: new RegExp(t('tasks.openInBrowser')) })).toHaveAttribute(
      'href',
      'https://t.me/elexcashback',
    );
  });
});
