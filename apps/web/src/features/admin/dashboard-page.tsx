import { DASHBOARD_RANGES, type PartnerNotReady, SIGNUP_PROBLEMS } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { useDashboard } from './api/get-dashboard';
import { CashbackChart, MembersChart, PageViewsChart } from './components/dashboard-charts';
import { LoadError } from './components/load-error';
import { ScrollRegion } from './components/scroll-region';
import { formatAmount, formatCardAmount, formatDay } from './format';

/** Partners whose sign-up link production hides, one line per reason, each name leading to its editor. */
function PartnersNotReady({ partners }: { partners: PartnerNotReady[] }) {
  const { t } = useTranslation();
  if (partners.length === 0) return null;
  return (
    <section
      className="card notice launch-checks partners-not-ready"
      aria-labelledby="partners-not-ready-title"
    >
      <h2 id="partners-not-ready-title">{t('admin.dashboard.partnersNotReady')}</h2>
      <p>{t('admin.dashboard.partnersNotReadyIntro')}</p>
      <ul>
        {SIGNUP_PROBLEMS.map((problem) => {
          const named = partners.filter((partner) => partner.problems.includes(problem));
          if (named.length === 0) return null;
          return (
            <li key={problem}>
              {t(`admin.catalog.signupProblems.${problem}`)}:{' '}
              {named.map((partner, index) => (
                <span key={partner.platId}>
                  {index > 0 ? ', ' : null}
                  <Link to={`/admin/catalog/${partner.platId}`}>{partner.name}</Link>
                </span>
              ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * /admin: partners not ready for sign-ups, then sign-ups, bound UIDs, cashback accrued and paid per
 * day, pending withdrawals, page views.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const dashboard = useDashboard(days);
  const data = dashboard.data;

  return (
    <Page title={t('admin.dashboard.title')} intro={t('admin.dashboard.intro')} wide>
      <fieldset className="admin-range">
        <legend className="visually-hidden">{t('admin.dashboard.range')}</legend>
        {DASHBOARD_RANGES.map((range) => (
          <label key={range} className={`admin-range-option${range === days ? ' active' : ''}`}>
            <input
              type="radio"
              name="dashboard-range"
              value={range}
              checked={range === days}
              onChange={() => setDays(range)}
            />
            {t('admin.dashboard.lastDays', { count: range })}
          </label>
        ))}
      </fieldset>
      {dashboard.isError && !data ? <LoadError onRetry={() => void dashboard.refetch()} /> : null}
      {!data ? (
        dashboard.isError ? null : (
          <Skeleton lines={6} />
        )
      ) : (
        <>
          <PartnersNotReady partners={data.partnersNotReady} />
          <dl className="admin-stats">
            <div className="card admin-stat">
              <dt>{t('admin.dashboard.pendingWithdrawals')}</dt>
              <dd>
                {data.pendingWithdrawals.count}
                <span className="admin-stat-note">
                  {t('admin.common.usdt', { amount: formatCardAmount(data.pendingWithdrawals.amount) })}
                </span>
              </dd>
            </div>
            <div className="card admin-stat">
              <dt>{t('admin.dashboard.signUps')}</dt>
              <dd>
                {data.totals.signUps}
                <span className="admin-stat-note">
                  {t('admin.dashboard.membersInAll', { count: data.totals.members })}
                </span>
              </dd>
            </div>
            <div className="card admin-stat">
              <dt>{t('admin.dashboard.boundUids')}</dt>
              <dd>
                {data.totals.boundUids}
                <span className="admin-stat-note">
                  {t('admin.dashboard.liveBindings', { count: data.totals.liveBindings })}
                </span>
              </dd>
            </div>
            <div className="card admin-stat">
              <dt>{t('admin.dashboard.cashbackAccrued')}</dt>
              <dd>{t('admin.common.usdt', { amount: formatCardAmount(data.totals.cashbackAccrued) })}</dd>
            </div>
            <div className="card admin-stat">
              <dt>{t('admin.dashboard.cashbackPaid')}</dt>
              <dd>{t('admin.common.usdt', { amount: formatCardAmount(data.totals.cashbackPaid) })}</dd>
            </div>
          </dl>

          <div className="admin-two-columns admin-chart-grid">
            <section className="card">
              <h2>{t('admin.dashboard.membersChart')}</h2>
              <MembersChart
                days={data.days}
                labels={{ signUps: t('admin.dashboard.signUps'), boundUids: t('admin.dashboard.boundUids') }}
              />
            </section>
            <section className="card">
              <h2>{t('admin.dashboard.cashbackChart')}</h2>
              <CashbackChart
                days={data.days}
                labels={{
                  accrued: t('admin.dashboard.cashbackAccrued'),
                  paid: t('admin.dashboard.cashbackPaid'),
                }}
              />
            </section>
          </div>

          <section className="card admin-section">
            <h2>{t('admin.dashboard.pageViews')}</h2>
            {data.pageViews.length === 0 ? (
              <p className="muted">{t('admin.dashboard.noPageViews')}</p>
            ) : (
              <div className="admin-two-columns">
                <PageViewsChart pageViews={data.pageViews} label={t('admin.dashboard.views')} />
                <ScrollRegion label={t('admin.dashboard.pageViews')}>
                  <table className="data-table">
                    <thead>
                      <tr>
                        <th scope="col">{t('admin.dashboard.route')}</th>
                        <th scope="col" className="numeric">
                          {t('admin.dashboard.views')}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.pageViews.map((row) => (
                        <tr key={row.page}>
                          <td className="mono">{row.page}</td>
                          <td className="numeric">{row.views}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </ScrollRegion>
              </div>
            )}
          </section>

          <details className="card admin-section">
            <summary>{t('admin.dashboard.byDay')}</summary>
            <ScrollRegion label={t('admin.dashboard.byDay')}>
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t('admin.dashboard.day')}</th>
                    <th scope="col" className="numeric">
                      {t('admin.dashboard.signUps')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('admin.dashboard.boundUids')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('admin.dashboard.cashbackAccrued')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('admin.dashboard.cashbackPaid')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...data.days].reverse().map((day) => (
                    <tr key={day.day}>
                      <td>{formatDay(day.day)}</td>
                      <td className="numeric">{day.signUps}</td>
                      <td className="numeric">{day.boundUids}</td>
                      <td className="numeric">{formatAmount(day.cashbackAccrued)}</td>
                      <td className="numeric">{formatAmount(day.cashbackPaid)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </details>
        </>
      )}
    </Page>
  );
}
