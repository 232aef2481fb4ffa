import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { Outlet } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PointsLink } from '../../app/shell/points-link';
import { logIn, renderRoutes } from '../../test/helpers';
import PointPage from './point-page';
import { EMPTY_HISTORY, envelope, signHistory, stubApi, taskDetail } from './test-api';

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
