import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../../shared/exchanges/format';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { formatLocalTime } from '../../../shared/i18n/intl-formats';
import { LoadError } from '../../../shared/ui/load-error';
import { Pager } from '../../../shared/ui/pager';
import { Skeleton } from '../../../shared/ui/skeleton';
import { usePointsHistory } from '../api/get-points-history';
import { useTaskName } from './task-card';

const PAGE_SIZE = 10;

/** The member's points entries, newest first: when, why and how much. */
export function PointsHistory() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const history = usePointsHistory(page, PAGE_SIZE);
  const taskName = useTaskName();
  const isWide = useIsWide();

  if (!history.data) {
    return history.isError ? (
      <LoadError isRetrying={history.isFetching} onRetry={() => void history.refetch()} />
    ) : (
      <Skeleton lines={3} />
    );
  }
  if (history.data.entries.length === 0) return <p className="card muted">{t('points.noHistory')}</p>;
  const amount = (entry: (typeof history.data.entries)[number]) =>
    `${entry.amount > 0 ? '+' : ''}${formatInteger(String(entry.amount))} ${t(`points.currencies.${entry.currency}`)}`;
  const reason = (entry: (typeof history.data.entries)[number]) =>
    t(`points.reasons.${entry.reason}`, { defaultValue: entry.reason });

  if (!isWide) {
    // A phone shows a list: the table's three columns do not fit 390 px without scrolling sideways.
    return (
      <>
        <ul className="card entry-list" aria-label={t('points.historyTitle')}>
          {history.data.entries.map((entry) => (
            <li key={entry.id}>
              <div>
                <p className="entry-title">{reason(entry)}</p>
                {entry.task ? (
                  <p className="entry-detail">{taskName(entry.task.kind, entry.task.threshold)}</p>
                ) : null}
                <p className="entry-detail">{formatLocalTime(entry.createdAt)}</p>
              </div>
              <p className={entry.amount > 0 ? 'entry-amount positive' : 'entry-amount'}>{amount(entry)}</p>
            </li>
          ))}
        </ul>
        <Pager page={page} pageSize={PAGE_SIZE} total={history.data.total} onPage={setPage} />
      </>
    );
  }
  return (
    <>
      {/* A region that scrolls sideways on small screens: focusable, so keyboards can scroll it. */}
      <div className="table-scroll" role="region" aria-label={t('points.historyTitle')} tabIndex={0}>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('points.columns.time')}</th>
              <th scope="col">{t('points.columns.reason')}</th>
              <th scope="col" className="numeric">
                {t('points.columns.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {history.data.entries.map((entry) => (
              <tr key={entry.id}>
                <td>{formatLocalTime(entry.createdAt)}</td>
                <td className="wrap">
                  <span>{reason(entry)}</span>
                  {entry.task ? (
                    <span className="status-reason">{taskName(entry.task.kind, entry.task.threshold)}</span>
                  ) : null}
                </td>
                <td className={entry.amount > 0 ? 'numeric strong positive' : 'numeric strong'}>
                  {amount(entry)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} pageSize={PAGE_SIZE} total={history.data.total} onPage={setPage} />
    </>
  );
}
