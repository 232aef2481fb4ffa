import { Check, ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormat } from '../../../shared/i18n/intl-formats';

const DAY_MS = 86_400_000;

/** 'YYYY-MM' shifted by whole months (UTC). */
function shiftMonth(month: string, by: number): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + by);
  return date.toISOString().slice(0, 7);
}

/** A calendar cell: a UTC day, or padding before the 1st and after the last day (keyed by its place). */
type Cell = { key: string; day: string | null };

/** The month's days in weeks from Monday; padding fills the first and last week. */
function weeksOf(month: string): Cell[][] {
  const first = new Date(`${month}-01T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7;
  const cells: Cell[] = Array.from({ length: lead }, (_, index) => ({ key: `lead-${index}`, day: null }));
  for (let time = first.getTime(); new Date(time).toISOString().startsWith(month); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    cells.push({ key: day, day });
  }
  while (cells.length % 7 !== 0) cells.push({ key: `trail-${cells.length}`, day: null });
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** Monday to Sunday in the current language: narrow for the grid, long for screen readers. */
function weekdayNames(): Array<{ narrow: string; long: string }> {
  const monday = Date.UTC(2024, 0, 1);
  return Array.from({ length: 7 }, (_, index) => {
    const date = new Date(monday + index * DAY_MS);
    const name = (weekday: 'narrow' | 'long') => dateTimeFormat({ weekday, timeZone: 'UTC' }).format(date);
    return { narrow: name('narrow'), long: name('long') };
  });
}

function monthLabel(month: string): string {
  return dateTimeFormat({ year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

/** A month of check-ins (UTC days): checked days marked, today outlined, months to page through. */
export function MonthCalendar({
  month,
  today,
  signedDays,
  onMonth,
}: {
  month: string;
  today: string;
  signedDays: readonly string[];
  onMonth(month: string): void;
}) {
  const { t } = useTranslation();
  const signed = new Set(signedDays);
  const isCurrentMonth = month >= today.slice(0, 7);
  return (
    <div className="checkin-calendar">
      <div className="checkin-calendar-head">
        <button
          type="button"
          className="icon-button"
          aria-label={t('points.previousMonth')}
          onClick={() => onMonth(shiftMonth(month, -1))}
        >
          <ChevronLeft size={18} aria-hidden="true" />
        </button>
        <p className="checkin-calendar-month" aria-live="polite">
          {monthLabel(month)}
        </p>
        <button
          type="button"
          className="icon-button"
          aria-label={t('points.nextMonth')}
          disabled={isCurrentMonth}
          onClick={() => onMonth(shiftMonth(month, 1))}
        >
          <ChevronRight size={18} aria-hidden="true" />
        </button>
      </div>
      <table>
        <caption className="visually-hidden">
          {t('points.calendarCaption', { month: monthLabel(month) })}
        </caption>
        <thead>
          <tr>
            {weekdayNames().map((name) => (
              <th key={name.long} scope="col" abbr={name.long}>
                {name.narrow}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(month).map((week) => (
            <tr key={week[0]?.key}>
              {week.map(({ key, day }) =>
                day === null ? (
                  <td key={key} />
                ) : (
                  <td
                    key={key}
                    className={
                      [signed.has(day) ? 'checked' : '', day === today ? 'today' : ''].join(' ').trim() ||
                      undefined
                    }
                    aria-current={day === today ? 'date' : undefined}
                  >
                    <span className="checkin-day">{Number(day.slice(8))}</span>
                    {signed.has(day) ? (
                      <>
                        <Check size={12} aria-hidden="true" className="checkin-mark" />
                        <span className="visually-hidden">{t('points.checkedIn')}</span>
                      </>
                    ) : null}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
