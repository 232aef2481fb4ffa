import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PointsLink } from '../../app/shell/points-link';
import { logIn, renderRoutes } from '../../test/helpers';
import { untilNextCheckInDay } from './api/check-in-day';
import PointPage from './point-page';
import { EMPTY_HISTORY, envelope, signHistory, stubApi, task, taskDetail } from './test-api';

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

/** The top bar's points icon and the page, as the shell shows them together. */
function renderPointPage() {
  logIn();
  return renderRoutes(
    [
      {
        element: (
          <>
            <PointsLink />
            <Outlet />
          </>
        ),
        children: [{ path: '/mypage/point', element: <PointPage /> }],
      },
    ],
    '/mypage/point',
  );
}

const redDot = () => screen.queryByRole('status', { name: t('nav.checkInDue') });

describe('/mypage/point check-in', () => {
  it('checks in: the button reads Already Checked In and the red dot goes without a reload', async () => {
    let signed = false;
    const api = stubApi({
      '/elex/user/isSignTody': () => envelope({ isSignToday: signed }),
      '/elex/activity/signHistory': () =>
        envelope(
          signHistory(
            signed ? { isSignToday: true, signedDays: ['2026-03-09', '2026-03-10'], streak: 2 } : {},
          ),
        ),
      '/elex/activity/sign': () => {
        signed = true;
        return envelope(
          { day: '2026-03-10', pointsEarned: 10, streak: 2, points: 130 },
          0,
          'Check-in successful',
        );
      },
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    const user = userEvent.setup();
    renderPointPage();

    const button = await screen.findByRole('button', { name: t('points.checkIn') });
    await waitFor(() => expect(redDot()).toBeInTheDocument());
    expect(screen.getByText(t('points.perDay', { points: 10 }))).toBeInTheDocument();
    const calendar = screen.getByRole('table', {
      name: t('points.calendarCaption', { month: 'March 2026' }),
    });
    expect(within(calendar).getByText('9').closest('td')).toHaveTextContent(t('points.checkedIn'));
    expect(within(calendar).getByText('10').closest('td')).toHaveAttribute('aria-current', 'date');

    await user.click(button);

    expect(await screen.findByText(i18next.t('msg:checkInSuccessful'))).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: i18next.t('msg:alreadyCheckedIn') })).toBeDisabled();
    expect(redDot()).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(calendar).getByText('10').closest('td')).toHaveTextContent(t('points.checkedIn')),
    );
    expect(api.count('/elex/activity/sign')).toBe(1);
  });

  it('says Check-in failed when the call does not go through, and the button stays', async () => {
    stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: false }),
      '/elex/activity/signHistory': envelope(signHistory()),
      '/elex/activity/sign': () => Promise.reject(new TypeError('Failed to fetch')),
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    const user = userEvent.setup();
    renderPointPage();
    await user.click(await screen.findByRole('button', { name: t('points.checkIn') }));
    expect(await screen.findByText(i18next.t('msg:checkInFailed'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('points.checkIn') })).toBeEnabled();
    expect(redDot()).toBeInTheDocument();
  });

  it('already checked in elsewhere: the refusal counts as done and the dot goes', async () => {
    stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: false }),
      '/elex/activity/signHistory': envelope(signHistory()),
      '/elex/activity/sign': envelope(null, 1002, 'Already Checked In'),
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    const user = userEvent.setup();
    renderPointPage();
    await waitFor(() => expect(redDot()).toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: t('points.checkIn') }));
    await waitFor(() => expect(redDot()).not.toBeInTheDocument());
  });

  it('shows a day already done as Already Checked In, and the balances and history', async () => {
    stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: true }),
      '/elex/activity/signHistory': envelope(signHistory({ isSignToday: true, signedDays: ['2026-03-10'] })),
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope({
        ...EMPTY_HISTORY,
        total: 2,
        entries: [
          {
            id: '2',
            currency: 'points',
            amount: 100,
            reason: 'task',
            reference: 'tradeTier1',
            task: { kind: 'tradingVolume', threshold: '10000.000000' },
            createdAt: '2026-03-10T08:00:00.000Z',
          },
          {
            id: '1',
            currency: 'points',
            amount: 10,
            reason: 'checkIn',
            reference: '2026-03-10',
            task: null,
            createdAt: '2026-03-10T07:00:00.000Z',
          },
        ],
      }),
    });
    renderPointPage();
    expect(await screen.findByRole('button', { name: i18next.t('msg:alreadyCheckedIn') })).toBeDisabled();
    expect(redDot()).not.toBeInTheDocument();
    const history = await screen.findByRole('region', { name: t('points.historyTitle') });
    expect(
      within(history).getByText(t('tasks.names.tradingVolume', { volume: '10,000' })),
    ).toBeInTheDocument();
    expect(within(history).getByText(t('points.reasons.checkIn'))).toBeInTheDocument();
    expect(screen.getByText('120')).toBeInTheDocument();
  });
});

describe('/mypage/point across the end of the UTC day', () => {
  it('counts the time to just after the next 00:00 UTC', () => {
    expect(untilNextCheckInDay(Date.parse('2026-03-10T23:59:30Z'))).toBe(35_000);
    expect(untilNextCheckInDay(Date.parse('2026-03-11T00:00:00Z'))).toBe(86_405_000);
    expect(untilNextCheckInDay(Date.parse('2026-03-11T12:00:00Z'))).toBe(43_205_000);
  });

  it('an open page checked in before midnight offers the check-in again after it, and the red dot returns', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-03-10T23:59:30Z'));
    // The server's answers follow the (fake) clock, as its UTC day does.
    const day = () => new Date().toISOString().slice(0, 10);
    const signedDays = ['2026-03-09'];
    const api = stubApi({
      '/elex/user/isSignTody': () => envelope({ isSignToday: signedDays.includes(day()) }),
      '/elex/activity/signHistory': () =>
        envelope(
          signHistory({
            month: day().slice(0, 7),
            today: day(),
            signedDays: [...signedDays],
            isSignToday: signedDays.includes(day()),
          }),
        ),
      '/elex/activity/sign': () => {
        signedDays.push(day());
        return envelope({ day: day(), pointsEarned: 10, streak: 2, points: 130 }, 0, 'Check-in successful');
      },
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPointPage();

    await user.click(await screen.findByRole('button', { name: t('points.checkIn') }));
    expect(await screen.findByRole('button', { name: i18next.t('msg:alreadyCheckedIn') })).toBeDisabled();
    await waitFor(() => expect(redDot()).not.toBeInTheDocument());
    const asked = api.count('/elex/user/isSignTody');

    await act(() => vi.advanceTimersByTimeAsync(40_000));

    expect(await screen.findByRole('button', { name: t('points.checkIn') })).toBeEnabled();
    await waitFor(() => expect(redDot()).toBeInTheDocument());
    expect(api.count('/elex/user/isSignTody')).toBeGreaterThan(asked);
    // The calendar moved to the new day too.
    const calendar = screen.getByRole('table', {
      name: t('points.calendarCaption', { month: 'March 2026' }),
    });
    expect(within(calendar).getByText('11').closest('td')).toHaveAttribute('aria-current', 'date');
    expect(within(calendar).getByText('10').closest('td')).toHaveTextContent(t('points.checkedIn'));
  });

  it('does not ask again before the day ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-03-10T12:00:00Z'));
    const api = stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: true }),
      '/elex/activity/signHistory': envelope(signHistory({ isSignToday: true, signedDays: ['2026-03-10'] })),
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    renderPointPage();
    expect(await screen.findByRole('button', { name: i18next.t('msg:alreadyCheckedIn') })).toBeDisabled();
    const asked = api.count('/elex/activity/signHistory');
    await act(() => vi.advanceTimersByTimeAsync(6 * 3_600_000));
    expect(api.count('/elex/activity/signHistory')).toBe(asked);
  });
});

describe('/mypage/point when a call fails', () => {
  it('groups a task’s points like the balances: +1,000 points, not +1000', async () => {
    stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: false }),
      '/elex/activity/signHistory': envelope(signHistory({ pointsPerDay: 1500 })),
      '/elex/exchange/getExchangeTaskDetail': envelope(
        taskDetail([task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding', points: 1000 })]),
      ),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    renderPointPage();
    expect(await screen.findByText(t('tasks.pointsReward', { points: '1,000' }))).toBeInTheDocument();
    expect(await screen.findByText(t('points.perDay', { points: '1,500' }))).toBeInTheDocument();
  });

  it('shows the task list failure with a retry instead of a skeleton forever', async () => {
    let tasksUp = false;
    stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: false }),
      '/elex/activity/signHistory': envelope(signHistory()),
      '/elex/exchange/getExchangeTaskDetail': () => {
        if (!tasksUp) throw new TypeError('Failed to fetch');
        return envelope(taskDetail([task({ taskId: 'bindXme', kind: 'bindXme', group: 'binding' })]));
      },
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    const user = userEvent.setup();
    renderPointPage();

    const tasks = (await screen.findByRole('heading', { name: t('tasks.title') })).closest(
      'section',
    ) as HTMLElement;
    const alert = await within(tasks).findByRole('alert');
    expect(alert).toHaveTextContent(t('common.loadFailed'));
    expect(within(tasks).queryByRole('status')).not.toBeInTheDocument();

    tasksUp = true;
    await user.click(within(alert).getByRole('button', { name: t('common.retry') }));
    expect(await within(tasks).findByText(t('tasks.names.bindXme'))).toBeInTheDocument();
    expect(within(tasks).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the check-in failure with a retry, and the check-in once it loads', async () => {
    let historyUp = false;
    stubApi({
      '/elex/user/isSignTody': envelope({ isSignToday: false }),
      '/elex/activity/signHistory': () => {
        if (!historyUp) return envelope(null, 1500, 'Error', 500);
        return envelope(signHistory());
      },
      '/elex/exchange/getExchangeTaskDetail': envelope(taskDetail([])),
      '/elex/activity/pointsHistory': envelope(EMPTY_HISTORY),
    });
    const user = userEvent.setup();
    renderPointPage();

    const card = (await screen.findByRole('heading', { name: t('points.checkInTitle') })).closest(
      'section',
    ) as HTMLElement;
    const alert = await within(card).findByRole('alert');
    expect(within(card).queryByRole('button', { name: t('points.checkIn') })).not.toBeInTheDocument();

    historyUp = true;
    await user.click(within(alert).getByRole('button', { name: t('common.retry') }));
    expect(await within(card).findByRole('button', { name: t('points.checkIn') })).toBeEnabled();
  });
});
