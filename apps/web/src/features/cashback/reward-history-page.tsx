import { Download } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv, toCsv } from '../../shared/download-csv';
import { formatCashback } from '../../shared/exchanges/format';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { formatLocalTime } from '../../shared/i18n/intl-formats';
import { useMyInfo } from '../../shared/queries/get-my-info';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { ADJUSTMENTS_PAGE_SIZE, fetchAdjustmentPage, useAdjustments } from './api/get-adjustments';
import { fetchRewardPage, useRewardRecords } from './api/get-reward-records';
import { AdjustmentsSection } from './components/adjustments-section';
import { fetchAllPages } from './fetch-all-pages';
import { rewardsStatement } from './statement-csv';
import './cashback.css';

const PAGE_SIZE = 20;

/** /mypage/rewardHistory: event rewards (invite bonuses ...) with their total and a CSV export. */
export default function RewardHistoryPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const rewards = useRewardRecords(page, PAGE_SIZE);
  const info = useMyInfo();
  const [exporting, setExporting] = useState(false);
  // The same query as the adjustments section below (one request): corrections alone make a file too.
  const adjustments = useAdjustments({ account: 'rewards' }, 1, ADJUSTMENTS_PAGE_SIZE);
  const isWide = useIsWide();
  const kind = (value: string) => t(`cashback.rewardKinds.${value}`, { defaultValue: value });

  const exportCsv = async () => {
    setExporting(true);
    try {
      // Our team's corrections too, as rows of their own with the reason: the total above counts
      // them, so the file adds up to it (found in review).
      const [rewardsWalk, adjustmentsWalk] = await Promise.all([
        fetchAllPages(fetchRewardPage),
        fetchAllPages(fetchAdjustmentPage({ account: 'rewards' })),
      ]);
      const { header, rows } = rewardsStatement(t, rewardsWalk.records, adjustmentsWalk.records);
      downloadCsv('rewards.csv', toCsv(header, rows));
      if (!rewardsWalk.complete || !adjustmentsWalk.complete) {
        const total = rewardsWalk.total + adjustmentsWalk.total;
        toast.warning(t('cashback.exportPartial', { count: rows.length, total }));
      }
    } catch {
      toast.error(t('msg:error'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Page title={t('pages.rewardHistory.title')} intro={t('pages.rewardHistory.intro')} wide>
      <dl className="card stat reward-total">
        <dt>{t('cashback.totalReward')}</dt>
        <dd>
          {/* A failed summary says nothing rather than "loading" forever; the list below offers a retry. */}
          {info.data ? formatCashback(info.data.totalReward) : info.isError ? '—' : '…'}{' '}
          <span className="unit">{t('cashback.usdt')}</span>
        </dd>
      </dl>
      <div className="filter-bar">
        <button
          type="button"
          className="button button-ghost"
          onClick={exportCsv}
          disabled={exporting || !(rewards.data?.total || adjustments.data?.total)}
        >
          <Download size={16} aria-hidden="true" />
          {t('cashback.exportCsv')}
        </button>
      </div>
      {rewards.data ? (
        rewards.data.records.length === 0 ? (
          <p className="card muted">{t('cashback.noRewards')}</p>
        ) : (
          <>
            {!isWide ? (
              // A phone's list (issue 15): the amount, the last column, sat off-screen at 390 px.
              <ul className="card entry-list" aria-label={t('pages.rewardHistory.title')}>
                {rewards.data.records.map((record) => (
                  <li key={record.id}>
                    <div>
                      <p className="entry-title">{kind(record.kind)}</p>
                      {record.source ? <p className="entry-detail">{record.source}</p> : null}
                      <p className="entry-detail">{formatLocalTime(record.createdAt)}</p>
                    </div>
                    <p className="entry-amount">{formatCashback(record.amount)}</p>
                  </li>
                ))}
              </ul>
            ) : (
              <div className="table-scroll">
                <table className="data-table">
                  <caption className="visually-hidden">{t('pages.rewardHistory.title')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('cashback.time')}</th>
                      <th scope="col">{t('cashback.rewardKind')}</th>
                      <th scope="col">{t('cashback.rewardSource')}</th>
                      <th scope="col" className="numeric">
                        {t('cashback.amount')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rewards.data.records.map((record) => (
                      <tr key={record.id}>
                        <td>{formatLocalTime(record.createdAt)}</td>
                        <td>{kind(record.kind)}</td>
                        <td>{record.source ?? '—'}</td>
                        <td className="numeric strong">{formatCashback(record.amount)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pager page={page} pageSize={PAGE_SIZE} total={rewards.data.total} onPage={setPage} />
          </>
        )
      ) : rewards.isError ? (
        <LoadError isRetrying={rewards.isFetching} onRetry={() => void rewards.refetch()} />
      ) : (
        <Skeleton lines={4} />
      )}
      <AdjustmentsSection account="rewards" />
    </Page>
  );
}
