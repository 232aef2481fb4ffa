import { Coins, Zap } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../shared/exchanges/format';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { usePointsHistory } from './api/get-points-history';
import { useTaskDetail } from './api/get-task-detail';
import { CheckInCard } from './components/check-in-card';
import { PointsHistory } from './components/points-history';
import { TaskGroups } from './components/task-groups';
import './points.css';

/** /mypage/point: the balance, the daily check-in, the tasks in three groups and the points history. */
export default function PointPage() {
  const { t } = useTranslation();
  const balances = usePointsHistory(1, 10);
  const tasks = useTaskDetail();
  // Loading, or failed: the history below (the same call) shows the failure with its retry.
  const unknown = balances.isError ? '–' : '…';

  return (
    <Page title={t('pages.point.title')} intro={t('pages.point.intro')}>
      <div className="points-top">
        <section className="card points-balance" aria-labelledby="points-balance-title">
          <h2 id="points-balance-title" className="visually-hidden">
            {t('points.balanceTitle')}
          </h2>
          <dl className="stat-grid">
            <div className="stat">
              <dt>
                <Coins size={16} aria-hidden="true" /> {t('points.balance')}
              </dt>
              <dd>{balances.data ? formatInteger(String(balances.data.points)) : unknown}</dd>
            </div>
            <div className="stat">
              <dt>
                <Zap size={16} aria-hidden="true" /> {t('points.xme')}
              </dt>
              <dd>{balances.data ? formatInteger(String(balances.data.xmeEnergy)) : unknown}</dd>
            </div>
          </dl>
          <p className="small-print muted">{t('points.airdropNote')}</p>
        </section>
        <CheckInCard />
      </div>

      <section className="points-section" aria-labelledby="tasks-title">
        <h2 id="tasks-title">{t('tasks.title')}</h2>
        <p className="muted">{t('tasks.intro')}</p>
        {tasks.data ? (
          <TaskGroups detail={tasks.data} />
        ) : tasks.isError ? (
          <LoadError isRetrying={tasks.isFetching} onRetry={() => void tasks.refetch()} />
        ) : (
          <Skeleton lines={5} />
        )}
      </section>

      {/* Not a landmark of its own: the history table below is the labelled, scrollable region. */}
      <section className="points-section">
        <h2>{t('points.historyTitle')}</h2>
        <PointsHistory />
      </section>
    </Page>
  );
}
