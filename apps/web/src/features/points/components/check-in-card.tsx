import { CalendarCheck, Flame } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api/api-client';
import { formatInteger } from '../../../shared/exchanges/format';
import { LoadError } from '../../../shared/ui/load-error';
import { Skeleton } from '../../../shared/ui/skeleton';
import { toast } from '../../../shared/ui/toast';
import { useSignHistory } from '../api/get-sign-history';
import { useCheckIn } from '../api/sign';
import { MonthCalendar } from './month-calendar';

/** Daily check-in: the button ('Check in', then 'Already Checked In'), streak, points per day, calendar. */
export function CheckInCard() {
  const { t } = useTranslation();
  const [month, setMonth] = useState<string | undefined>(undefined);
  const history = useSignHistory(month);
  const checkIn = useCheckIn();
  const data = history.data;
  // The check-in just made counts for its own day only: after midnight the new day's answer decides.
  const isSigned = data?.isSignToday === true || (checkIn.isSuccess && checkIn.data.day === data?.today);

  const onCheckIn = () =>
    checkIn.mutate(undefined, {
      onSuccess: () => toast.success(t('msg:checkInSuccessful')),
      onError: (error) => {
        // A refusal says why ('Already Checked In'); anything else is the spec's 'Check-in failed'.
        if (error instanceof ApiError && error.kind === 'session') return;
        toast.error(
          error instanceof ApiError && error.kind === 'refused' ? error.message : t('msg:checkInFailed'),
        );
      },
    });

  return (
    <section className="card checkin-card" aria-labelledby="checkin-title">
      <div className="checkin-head">
        <h2 id="checkin-title">
          <CalendarCheck size={20} aria-hidden="true" className="accent" /> {t('points.checkInTitle')}
        </h2>
        {data ? (
          <p className="muted checkin-per-day">
            {t('points.perDay', { points: formatInteger(String(data.pointsPerDay)) })}
          </p>
        ) : null}
      </div>
      {data ? (
        <>
          <div className="checkin-actions">
            <p className="checkin-streak">
              <Flame size={18} aria-hidden="true" className="accent" />
              <span>{t('points.streak')}</span>
              <strong>{data.streak}</strong>
            </p>
            <button
              type="button"
              className="button button-primary"
              disabled={isSigned || checkIn.isPending}
              onClick={onCheckIn}
            >
              {isSigned ? t('msg:alreadyCheckedIn') : t('points.checkIn')}
            </button>
          </div>
          <MonthCalendar
            month={data.month}
            today={data.today}
            signedDays={data.signedDays}
            onMonth={(next) => setMonth(next === data.today.slice(0, 7) ? undefined : next)}
          />
          <p className="small-print muted">{t('points.dayNote')}</p>
        </>
      ) : history.isError ? (
        <LoadError isRetrying={history.isFetching} onRetry={() => void history.refetch()} />
      ) : (
        <Skeleton lines={4} />
      )}
    </section>
  );
}
