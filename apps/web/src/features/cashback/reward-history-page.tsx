import { Download } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv, toCsv } from '../../shared/download-csv';
import { formatUsdt } from '../../shared/exchanges/format';
import { currentLocale } from '../../shared/i18n/i18n';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { useMyInfo } from './api/get-my-info';
import { fetchRewardPage, useRewardRecords } from './api/get-reward-records';
import './cashback.css';

const PAGE_SIZE = 20;

/** /mypage/rewardHistory: event rewards (invite bonuses ...) with their total and a CSV export. */
export default function RewardHistoryPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const rewards = useRewardRecords(page, PAGE_SIZE);
  const info = useMyInfo();

  const exportCsv = async () => {
    try {
      const rows: string[][] = [];
      for (let next = 1; next <= 50; next += 1) {
        const result = await fetchRewardPage(next, 100);
        for (const record of result.records)
          rows.push([record.createdAt, record.kind, record.amount, record.source ?? '']);
        if (next * 100 >= result.total) break;
      }
      downloadCsv('rewards.csv', toCsv(['time', 'kind', 'amount', 'source'], rows));
    } catch {
      toast.error(t('msg:error'));
    }
  };

  return (
    <Page title={t('pages.rewardHistory.title')} intro={t('pages.rewardHistory.intro')} wide>
      <div className="card stat reward-total">
        <p className="muted">{t('cashback.totalReward')}</p>
        <p className="stat-value">
          {info.data ? formatUsdt(info.data.totalReward) : '…'}{' '}
          <span className="unit">{t('cashback.usdt')}</span>
        </p>
      </div>
      <div className="filter-bar">
        <button
          type="button"
          className="button button-ghost"
          onClick={exportCsv}
          disabled={!rewards.data?.total}
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
                      <td>
                        {new Date(record.createdAt).toLocaleString(currentLocale(), {
                          dateStyle: 'medium',
                          timeStyle: 'short',
                        })}
                      </td>
                      <td>{t(`cashback.rewardKinds.${record.kind}`, { defaultValue: record.kind })}</td>
                      <td>{record.source ?? '—'}</td>
                      <td className="numeric strong">{formatUsdt(record.amount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={rewards.data.total} onPage={setPage} />
          </>
        )
      ) : (
        <Skeleton lines={4} />
      )}
    </Page>
  );
}
