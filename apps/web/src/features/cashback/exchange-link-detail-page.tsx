import { CASHBACK } from '@elex/contract';
import { Clock, LifeBuoy, ShieldAlert } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatCashback } from '../../shared/exchanges/format';
import { withdrawalHref } from '../../shared/exchanges/paths';
import { currentLocale } from '../../shared/i18n/i18n';
import { formatLocalTime } from '../../shared/i18n/intl-formats';
import { newSupportRequestHref } from '../../shared/navigation/support-paths';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useBindingDetail } from './api/get-binding-detail';
import { useRebatePager } from './api/get-rebate-records';
import { AdjustmentsSection } from './components/adjustments-section';
import { RebateTable } from './components/rebate-table';
import { useExchangeName } from './hooks';
import './cashback.css';

const DailyChart = lazy(() => import('./components/daily-chart'));
const PAGE_SIZE = 10;

/**
 * /exchangeLinkDetail?platId=&UID=: one bound UID's balance, totals, daily chart and records, and our
 * team's corrections of it (in the balance and totals, not in the records or chart).
 */
export default function ExchangeLinkDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const platId = Number(params.get('platId'));
  const uid = params.get('UID') ?? params.get('uid') ?? '';
  const exchangeName = useExchangeName();
  const detail = useBindingDetail(platId, uid);
  // Page by page after the previous page's `next`; another UID's page starts over from page 1.
  const { records, page, hasNext, onPage } = useRebatePager({ platId, uid }, PAGE_SIZE);

  return (
    <Page
      title={t('pages.exchangeLinkDetail.title')}
      intro={t('cashback.bindingIntro', { exchange: exchangeName(platId), uid })}
      wide
    >
      {detail.isPending ? (
        <Skeleton lines={5} />
      ) : detail.data ? (
        <>
          <dl className="stat-grid">
            <div className="card stat">
              <dt>{t('cashback.balance')}</dt>
              <dd>
                {formatCashback(detail.data.balance)} <span className="unit">{t('cashback.usdt')}</span>
              </dd>
            </div>
            <div className="card stat">
              <dt>{t('cashback.totalRebate')}</dt>
              <dd>
                {formatCashback(detail.data.totalRebate)} <span className="unit">{t('cashback.usdt')}</span>
              </dd>
            </div>
            <div className="card stat">
              <dt>{t('cashback.pending')}</dt>
              <dd>
                {formatCashback(detail.data.pendingRebate)} <span className="unit">{t('cashback.usdt')}</span>
              </dd>
            </div>
          </dl>
          {detail.data.frozen ? (
            <div className="card notice uid-hold-notice" role="status">
              <ShieldAlert size={18} aria-hidden="true" />
              <p>{t('msg:withdrawalFrozen')}</p>
              <Link to={newSupportRequestHref({ platId, uid })} className="button button-ghost">
                {t('cashback.contactSupport')}
              </Link>
            </div>
          ) : detail.data.heldUntil ? (
            <div className="card notice uid-hold-notice" role="status">
              <ShieldAlert size={18} aria-hidden="true" />
              <p>
                {t('cashback.heldUntil', {
                  date: new Date(detail.data.heldUntil).toLocaleDateString(currentLocale(), {
                    dateStyle: 'long',
                  }),
                })}
              </p>
              <Link
                to={newSupportRequestHref({ kind: 'ownership', platId, uid })}
                className="button button-ghost"
              >
                {t('cashback.sendScreenshot')}
              </Link>
            </div>
          ) : null}
          <p className="card notice data-delay">
            <Clock size={18} aria-hidden="true" />
            <span>
              {t('cashback.dataDelay', {
                hours: CASHBACK.dataSegmentHours,
                finalHours: CASHBACK.dataFinalHours,
              })}{' '}
              {detail.data.lastDataAt
                ? t('cashback.lastData', {
                    time: formatLocalTime(detail.data.lastDataAt),
                  })
                : t('cashback.noDataYet')}
            </span>
          </p>
          <section className="card" aria-labelledby="daily-title">
            <h2 id="daily-title">{t('cashback.dailyTitle')}</h2>
            {detail.data.daily.length > 0 ? (
              <>
                <p className="muted">{t('cashback.dailyHint')}</p>
                <Suspense fallback={<Skeleton lines={3} />}>
                  <DailyChart daily={detail.data.daily} />
                </Suspense>
                {/* The drawing is hidden from assistive technology; these are its figures. Hidden by a
                    wrapper: a table ignores the 1 px box, and 90 rows stretched the page ~1,500 px below
                    its footer (issue 15). */}
                <div className="visually-hidden">
                  <table>
                    <caption>{t('cashback.dailyTitle')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('cashback.tradingDay')}</th>
                        <th scope="col">{t('cashback.amount')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {detail.data.daily.map((point) => (
                        <tr key={point.day}>
                          <td>{point.day}</td>
                          <td>{formatCashback(point.amount)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            ) : (
              <p className="muted">{t('cashback.noRecords')}</p>
            )}
          </section>
          <div className="actions-row">
            <Link to={withdrawalHref(platId, uid)} className="button button-primary">
              {t('cashback.withdraw')}
            </Link>
            <Link
              to={newSupportRequestHref({ kind: 'missingCashback', platId, uid })}
              className="button button-ghost"
            >
              <LifeBuoy size={18} aria-hidden="true" />
              {t('cashback.reportProblem')}
            </Link>
          </div>
        </>
      ) : detail.isError ? (
        <LoadError isRetrying={detail.isFetching} onRetry={() => void detail.refetch()} />
      ) : null}
      <section aria-labelledby="records-title" className="records-section">
        <h2 id="records-title">{t('pages.records.title')}</h2>
        {records.data ? (
          <>
            <RebateTable records={records.data.records} exchangeName={exchangeName} />
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={records.data.total}
              hasNext={hasNext}
              onPage={onPage}
            />
          </>
        ) : records.isError ? (
          <LoadError isRetrying={records.isFetching} onRetry={() => void records.refetch()} />
        ) : (
          <Skeleton lines={3} />
        )}
      </section>
      {/* The balance and cumulative cashback above include these; the records and chart do not. */}
      <AdjustmentsSection key={`${platId}:${uid}`} account="cashback" platId={platId} uid={uid} />
    </Page>
  );
}
