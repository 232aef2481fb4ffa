import type { SyncRunList } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '../../../shared/ui/skeleton';
import { useSyncRuns } from '../api/get-sync-runs';
import { LoadError } from '../components/load-error';
import { ScrollRegion } from '../components/scroll-region';
import { formatTime, formatTimeRange } from '../format';
import { useExchangeNames } from '../use-exchange-names';
import { ExchangeOptions } from './exchange-options';

function SyncRunRow({ run, exchangeName }: { run: SyncRunList['runs'][number]; exchangeName: string }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td className="admin-when">
        {formatTime(run.startedAt)}
        <span className="status-reason">
          {exchangeName} · {t(`admin.imports.triggers.${run.trigger}`, { defaultValue: run.trigger })}
        </span>
        <span className="status-reason">
          {t('admin.imports.windowRange', { range: formatTimeRange(run.windowStart, run.windowEnd) })}
        </span>
      </td>
      <td className="wrap">
        <span
          className={`status status-${run.status === 'succeeded' ? 'completed' : run.status === 'failed' || run.segmentSkipped ? 'failed' : 'pending'}`}
        >
          {t(`admin.imports.syncStatuses.${run.segmentSkipped ? 'segmentSkipped' : run.status}`)}
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

/**
 * Segments an operator moved the sync past (`sync:skip`): listed above the runs whatever the page,
 * since each is data missing until someone pulls it with the command shown.
 */
function SkippedSegments({
  skipped,
  exchangeName,
}: {
  skipped: SyncRunList['skippedSegments'];
  exchangeName: (platId: number) => string;
}) {
  const { t } = useTranslation();
  if (skipped.length === 0) return null;
  return (
    <div>
      <h3 id="skipped-segments-title">{t('admin.imports.skippedTitle')}</h3>
      <p className="muted">{t('admin.imports.skippedHint')}</p>
      <ScrollRegion label={t('admin.imports.skippedTitle')}>
        <table className="data-table admin-compact admin-fit" aria-labelledby="skipped-segments-title">
          <thead>
            <tr>
              <th scope="col">{t('admin.imports.exchange')}</th>
              <th scope="col">{t('admin.imports.skippedSegment')}</th>
              <th scope="col">{t('admin.imports.skippedNote')}</th>
              <th scope="col">{t('admin.imports.status')}</th>
            </tr>
          </thead>
          <tbody>
            {skipped.map((segment) => (
              <tr key={segment.runId}>
                <td>{exchangeName(segment.platId)}</td>
                <td className="admin-when">{formatTimeRange(segment.from, segment.to)}</td>
                <td className="wrap">
                  {segment.note}
                  <span className="status-reason">{formatTime(segment.skippedAt)}</span>
                </td>
                <td className="wrap">
                  {segment.pulledByRunId === null ? (
                    <>
                      <span className="status status-failed">{t('admin.imports.skippedNotPulled')}</span>
                      <span className="status-reason">
                        {t('admin.imports.skippedPull')}:{' '}
                        <code className="admin-break">{segment.pullCommand}</code>
                      </span>
                    </>
                  ) : (
                    <span className="status status-completed">
                      {t('admin.imports.skippedPulledBy', { id: segment.pulledByRunId })}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
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
      {runs.data?.pages[0] ? (
        <SkippedSegments skipped={runs.data.pages[0].skippedSegments} exchangeName={exchangeName} />
      ) : null}
      {!runs.data ? (
        runs.isError ? null : (
          <Skeleton lines={3} />
        )
      ) : rows.length === 0 ? (
        <p className="muted">{t('admin.imports.noSyncs')}</p>
      ) : (
        <>
          <ScrollRegion label={t('admin.imports.syncTitle')}>
            <table className="data-table admin-compact admin-fit">
              <thead>
                <tr>
                  <th scope="col">{t('admin.imports.syncRun')}</th>
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
