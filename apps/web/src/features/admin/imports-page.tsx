import { IMPORT_KINDS, IMPORT_UPLOAD, type ImportKind, type ImportResult } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX, Upload } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useCatalog } from './api/get-catalog';
import { useImportRuns } from './api/get-import-runs';
import { useSyncRuns } from './api/get-sync-runs';
import { uploadImport } from './api/upload-import';
import { LoadError } from './components/load-error';
import { ScrollRegion } from './components/scroll-region';
import { formatAmount, formatBytes, formatTime } from './format';
import { useExchangeNames } from './use-exchange-names';

const RUNS_PAGE = 10;

const COLUMNS: Record<ImportKind, string> = {
  referrals: 'uid,registered_at',
  rebates: 'uid,period_start,period_end,trading_volume,fee,commission',
};

type Stage =
  | { kind: 'idle' }
  | { kind: 'uploading'; sent: number; total: number }
  | { kind: 'processing' }
  | { kind: 'done'; result: ImportResult; fileName: string };

function ImportResultPanel({ result, fileName }: { result: ImportResult; fileName: string }) {
  const { t } = useTranslation();
  if (result.status === 'succeeded') {
    return (
      <div className="card admin-result admin-result-ok" role="status">
        <h3>
          <CircleCheck size={20} aria-hidden="true" />
          {t('admin.imports.succeeded', { fileName })}
        </h3>
        <p>
          {t('admin.imports.succeededDetail', {
            rows: result.rows,
            inserted: result.inserted,
            duplicates: result.duplicates,
            completed: result.settledCompleted,
            failed: result.settledFailed,
            credited: formatAmount(result.credited),
          })}
        </p>
      </div>
    );
  }
  const lines = new Set(result.problems.map((problem) => problem.line)).size;
  return (
    <div className="card admin-result admin-result-bad" role="alert">
      <h3>
        <CircleX size={20} aria-hidden="true" />
        {t('msg:importRejected', { lines })}
      </h3>
      <ScrollRegion label={t('admin.imports.problems')}>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col" className="numeric">
                {t('admin.imports.line')}
              </th>
              <th scope="col">{t('admin.imports.field')}</th>
              <th scope="col">{t('admin.imports.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {result.problems.map((problem) => (
              <tr key={`${problem.line}|${problem.field}|${problem.reason}`}>
                <td className="numeric">{problem.line}</td>
                <td className="mono">{problem.field}</td>
                <td className="wrap">{problem.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

function UploadForm() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const catalog = useCatalog();
  const [kind, setKind] = useState<ImportKind>('rebates');
  const [platId, setPlatId] = useState<number | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const busy = stage.kind === 'uploading' || stage.kind === 'processing';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (!file || platId === '') {
      setProblem(t('msg:requiredInformation'));
      return;
    }
    if (file.size > IMPORT_UPLOAD.maxBytes) {
      setProblem(t('msg:importTooLarge'));
      return;
    }
    const csv = await file.text();
    setStage({ kind: 'uploading', sent: 0, total: file.size });
    try {
      const result = await uploadImport({ kind, platId, fileName: file.name, csv }, (sent, total) =>
        setStage(sent >= total ? { kind: 'processing' } : { kind: 'uploading', sent, total }),
      );
      setStage({ kind: 'done', result, fileName: file.name });
      await client.invalidateQueries({ queryKey: ['admin', 'importRuns'] });
      await client.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
    } catch {
      // The API client showed the reason.
      setStage({ kind: 'idle' });
    }
  };

  const percent =
    stage.kind === 'uploading' && stage.total > 0 ? Math.round((stage.sent / stage.total) * 100) : 0;
  return (
    <section className="card admin-section">
      <h2 id="upload-title">{t('admin.imports.uploadTitle')}</h2>
      <form className="admin-form" noValidate onSubmit={submit}>
        <div className="admin-form-grid">
          <div className="field">
            <label htmlFor="import-kind">{t('admin.imports.kind')}</label>
            <select
              id="import-kind"
              value={kind}
              disabled={busy}
              onChange={(event) => setKind(event.target.value as ImportKind)}
            >
              {IMPORT_KINDS.map((value) => (
                <option key={value} value={value}>
                  {t(`admin.imports.kinds.${value}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="import-exchange">{t('admin.imports.exchange')}</label>
            <select
              id="import-exchange"
              value={platId}
              disabled={busy}
              onChange={(event) => setPlatId(event.target.value ? Number(event.target.value) : '')}
            >
              <option value="">{t('admin.imports.chooseExchange')}</option>
              {catalog.data?.exchanges.map((exchange) => (
                <option key={exchange.platId} value={exchange.platId}>
                  {exchange.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field admin-file-field">
            <label htmlFor="import-file">{t('admin.imports.file')}</label>
            <input
              id="import-file"
              type="file"
              accept=".csv,text/csv"
              disabled={busy}
              aria-describedby="import-columns"
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setStage({ kind: 'idle' });
              }}
            />
            <p id="import-columns" className="field-hint">
              {t('admin.imports.columns')} <code>{COLUMNS[kind]}</code>
            </p>
          </div>
        </div>
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="admin-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            <Upload size={16} aria-hidden="true" />
            {t('admin.imports.upload')}
          </button>
          {file ? (
            <span className="muted">
              {file.name} · {formatBytes(file.size)}
            </span>
          ) : null}
        </div>
      </form>
      {stage.kind === 'uploading' || stage.kind === 'processing' ? (
        <div className="admin-progress" aria-live="polite">
          <label htmlFor="import-progress">
            {stage.kind === 'uploading'
              ? t('admin.imports.uploading', { percent })
              : t('admin.imports.processing')}
          </label>
          {stage.kind === 'uploading' ? (
            <progress id="import-progress" max={100} value={percent} />
          ) : (
            <progress id="import-progress" />
          )}
        </div>
      ) : null}
      {stage.kind === 'done' ? <ImportResultPanel result={stage.result} fileName={stage.fileName} /> : null}
    </section>
  );
}

function ImportRuns() {
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
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.imports.when')}</th>
                  <th scope="col">{t('admin.imports.file')}</th>
                  <th scope="col">{t('admin.imports.exchange')}</th>
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
                  <th scope="col">{t('admin.imports.by')}</th>
                </tr>
              </thead>
              <tbody>
                {runs.data.rows.map((run) => (
                  <tr key={run.id}>
                    <td>{formatTime(run.startedAt)}</td>
                    <td>
                      <span className="mono">{run.fileName}</span>
                      <span className="status-reason">
                        {t(`admin.imports.kinds.${run.kind}`)} · {formatBytes(run.sizeBytes)}
                      </span>
                    </td>
                    <td>{exchangeName(run.platId)}</td>
                    <td className="wrap">
                      <span
                        className={`status status-${run.status === 'succeeded' ? 'completed' : 'failed'}`}
                      >
                        {t(`admin.imports.statuses.${run.status}`)}
                      </span>
                      {run.problemCount > 0 ? (
                        <span className="status-reason">
                          {t('admin.imports.problemCount', { count: run.problemCount })}
                          {run.problems[0]
                            ? ` — ${t('admin.imports.line')} ${run.problems[0].line}: ${run.problems[0].reason}`
                            : ''}
                        </span>
                      ) : null}
                      {run.error ? <span className="status-reason">{run.error}</span> : null}
                    </td>
                    <td className="numeric">{run.rows}</td>
                    <td className="numeric">{run.inserted}</td>
                    <td className="numeric">{formatAmount(run.credited)}</td>
                    <td>{run.operator ?? '—'}</td>
                  </tr>
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

function SyncRuns() {
  const { t } = useTranslation();
  const exchangeName = useExchangeNames();
  const catalog = useCatalog();
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
            {catalog.data?.exchanges.map((exchange) => (
              <option key={exchange.platId} value={exchange.platId}>
                {exchange.name}
              </option>
            ))}
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
                  <tr key={run.id}>
                    <td>
                      {formatTime(run.startedAt)}
                      <span className="status-reason">
                        {t(`admin.imports.triggers.${run.trigger}`, { defaultValue: run.trigger })}
                      </span>
                    </td>
                    <td>{exchangeName(run.platId)}</td>
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

/** /admin/imports: upload a roster or figures CSV (checked like the commands), the import and sync history. */
export default function ImportsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('admin.imports.title')} intro={t('admin.imports.intro')} wide>
      <UploadForm />
      <ImportRuns />
      <SyncRuns />
    </Page>
  );
}
