import { IMPORT_KINDS, IMPORT_UPLOAD, type ImportKind } from '@elex/contract';
import { Upload } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../format';
import { ExchangeOptions } from './exchange-options';
import { ImportProgress } from './import-progress';
import { ImportResultPanel } from './import-result-panel';
import { useImportUpload } from './use-import-upload';

const COLUMNS: Record<ImportKind, string> = {
  referrals: 'uid,registered_at',
  rebates: 'uid,period_start,period_end,trading_volume,fee,commission',
};

/** The upload card: kind, partner and CSV file, the upload's progress and the server's result. */
export function ImportUploadForm() {
  const { t } = useTranslation();
  const { stage, busy, upload, reset } = useImportUpload();
  const [kind, setKind] = useState<ImportKind>('rebates');
  const [platId, setPlatId] = useState<number | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

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
    await upload(file, kind, platId);
  };

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
              <ExchangeOptions />
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
                reset();
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
      <ImportProgress stage={stage} />
      {stage.kind === 'done' ? <ImportResultPanel result={stage.result} fileName={stage.fileName} /> : null}
    </section>
  );
}
