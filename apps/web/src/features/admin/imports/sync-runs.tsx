import type { SyncRunList } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '../../../shared/ui/skeleton';
import { useSyncRuns } from '../api/get-sync-runs';
import { LoadError } from '../components/load-error';
import { ScrollRegion } from '../components/scroll-region';
import { formatTime } from '../format';
import { useExchangeNames } from '../use-exchange-names';
import { ExchangeOptions } from './exchange-options';

function SyncRunRow({ run, exchangeName }: { run: SyncRunList['runs'][number]; exchangeName: string }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td>
        {formatTime(run.startedAt)}
        <span className="status-reason">
          {t(`admin.imports.triggers.${run.trigger}`, { defaultValue: run.trigger })}
        </span>
      </td>
      <td>{exchangeName}</td>
      <td>
        {formatTime(run.windowStart)} – {formatTime(run.windowEnd)}
      </td>
      <td className="wrap">
        <span
          className={`status status-${run.status === 'succeeded' ? 'completed' : run.status === 'failed' ? 'failed' : 'pending'}`}
        >
          {t(`admin.imports.syncStatuses.${run.status}`)}
        </span>
        {run.error ? <span className="status-reason">{run.error}</span> : null}
      </td>
      <td className="numeric">
        {run.segmentsDone}/{run.segmentsTotal}
      </td>
      <td className="numeric">{run.referralsInserted}</td>
      <td className="numeric">
        {run.rebatesInserted}
        {run.rebatesDuplicates > 0 ? (
          <span className="status-reason">
            {t('admin.imports.duplicates', { count: run.rebatesDuplicates })}
          </span>
        ) : null}
      </td>
      <td className="numeric">{run.rebatesSettled}</td>
    </tr>
  );
}

/** The partners' API syncs, newest first, fifty at a time, for one partner or all. */
export function SyncRuns() {
  const { t } = useTranslation();
  const exchangeName = useExchangeNames();
  const [platId, setPlatId] = useState<number | undefined>();
  const runs = useSyncRuns(platId);
  const rows = runs.data?.pages.flatMap((page) => page.runs) ?? [];
  return (
    <section className="card admin-section">
      <h2 id="sync-runs-title">{t('admin.imports.syncTitle')}</h2>
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('admin.imports.exchange')}</span>
          <select
            value={platId ?? ''}
            onChange={(event) => setPlatId(event.target.value ? Number(event.target.value) : undefined)}
          >
            <option value="">{t('admin.imports.allExchanges')}</option>
            <ExchangeOptions />
          </select>
        </label>
      </div>
      {runs.isError && !runs.data ? <LoadError onRetry={() => void runs.refetch()} /> : null}
      {!runs.data ? (
        runs.isError ? null : (
          <Skeleton lines={3} />
        )
      ) : rows.length === 0 ? (
        <p className="muted">{t('admin.imports.noSyncs')}</p>
      ) : (
        <>
          <ScrollRegion label={t('admin.imports.syncTitle')}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.imports.when')}</th>
                  <th scope="col">{t('admin.imports.exchange')}</th>
                  <th scope="col">{t('admin.imports.window')}</th>
                  <th scope="col">{t('admin.imports.status')}</th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.segments')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.referralsNew')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.rebatesNew')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.settled')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((run) => (
                  <SyncRunRow key={run.id} run={run} exchangeName={exchangeName(run.platId)} />
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {runs.hasNextPage ? (
            <div className="admin-actions">
              <button
                type="button"
                className="button button-ghost"
                disabled={runs.isFetchingNextPage}
                onClick={() => void runs.fetchNextPage()}
              >
                {t('admin.imports.loadMore')}
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
