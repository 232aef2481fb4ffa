import type { ImportRunPage } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../../../shared/ui/pager';
import { Skeleton } from '../../../shared/ui/skeleton';
import { useImportRuns } from '../api/get-import-runs';
import { LoadError } from '../components/load-error';
import { ScrollRegion } from '../components/scroll-region';
import { formatAmount, formatBytes, formatTime } from '../format';
import { useExchangeNames } from '../use-exchange-names';

const RUNS_PAGE = 10;

function ImportRunRow({ run, exchangeName }: { run: ImportRunPage['rows'][number]; exchangeName: string }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td className="admin-when">
        {formatTime(run.startedAt)}
        {run.operator ? (
          <span className="status-reason admin-break">
            {t('admin.imports.byOperator', { operator: run.operator })}
          </span>
        ) : null}
      </td>
      <td className="admin-file">
        <span className="mono admin-break">{run.fileName}</span>
        <span className="status-reason">
          {exchangeName} · {t(`admin.imports.kinds.${run.kind}`)} · {formatBytes(run.sizeBytes)}
        </span>
      </td>
      <td className="wrap">
        <span className={`status status-${run.status === 'succeeded' ? 'completed' : 'failed'}`}>
          {t(`admin.imports.statuses.${run.status}`)}
        </span>
        {run.problemCount > 0 ? (
          <span className="status-reason">
            {t('admin.imports.problemCount', { count: run.problemCount })}
            {run.problems[0]
              ? ` — ${t('admin.imports.lineReason', { line: run.problems[0].line, reason: run.problems[0].reason })}`
              : ''}
          </span>
        ) : null}
        {run.noticeCount > 0 ? (
          <span className="status-reason">
            {t('msg:importRegistrationsDiffer', { count: run.noticeCount })}
            {run.notices[0]
              ? ` — ${t('admin.imports.lineReason', { line: run.notices[0].line, reason: run.notices[0].reason })}`
              : ''}
          </span>
        ) : null}
        {run.error ? <span className="status-reason">{run.error}</span> : null}
      </td>
      <td className="numeric">{run.rows}</td>
      <td className="numeric">{run.inserted}</td>
      <td className="numeric">{formatAmount(run.credited)}</td>
    </tr>
  );
}

/** The console's uploads, newest first, ten to a page. */
export function ImportRuns() {
  const { t } = useTranslation();
  const exchangeName = useExchangeNames();
  const [page, setPage] = useState(1);
  const runs = useImportRuns(page, RUNS_PAGE);
  return (
    <section className="card admin-section">
      <h2 id="import-runs-title">{t('admin.imports.runsTitle')}</h2>
      {runs.isError && !runs.data ? <LoadError onRetry={() => void runs.refetch()} /> : null}
      {!runs.data ? (
        runs.isError ? null : (
          <Skeleton lines={3} />
        )
      ) : runs.data.rows.length === 0 ? (
        <p className="muted">{t('admin.imports.noRuns')}</p>
      ) : (
        <>
          <ScrollRegion label={t('admin.imports.runsTitle')}>
            <table className="data-table admin-compact admin-fit">
              <thead>
                <tr>
                  <th scope="col">{t('admin.imports.whenBy')}</th>
                  <th scope="col">{t('admin.imports.fileExchange')}</th>
                  <th scope="col">{t('admin.imports.status')}</th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.rows')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.inserted')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('admin.imports.credited')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {runs.data.rows.map((run) => (
                  <ImportRunRow key={run.id} run={run} exchangeName={exchangeName(run.platId)} />
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <Pager
            page={page}
            pageSize={RUNS_PAGE}
            total={runs.data.total}
            onPage={setPage}
            label={t('admin.imports.runsTitle')}
          />
        </>
      )}
    </section>
  );
}
