import { AUDIT_ACTIONS } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useAuditLog } from './api/get-audit-log';
import { LoadError } from './components/load-error';
import { formatTime } from './format';

const PAGE_SIZE = 25;

const json = (value: unknown) =>
  value === null || value === undefined ? '—' : JSON.stringify(value, null, 2);

/** /admin/audit: every operator action, newest first: who, what, when, before and after. */
export default function AuditPage() {
  const { t } = useTranslation();
  const [action, setAction] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const log = useAuditLog(action, page, PAGE_SIZE);
  return (
    <Page title={t('admin.audit.title')} intro={t('admin.audit.intro')} wide>
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('admin.audit.action')}</span>
          <select
            value={action ?? ''}
            onChange={(event) => {
              setAction(event.target.value || undefined);
              setPage(1);
            }}
          >
            <option value="">{t('admin.audit.allActions')}</option>
            {AUDIT_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {t(`admin.audit.actions.${value.replace('.', '_')}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {log.isError && !log.data ? <LoadError onRetry={() => void log.refetch()} /> : null}
      {!log.data ? (
        log.isError ? null : (
          <Skeleton lines={5} />
        )
      ) : log.data.rows.length === 0 ? (
        <p className="card muted">{t('admin.audit.empty')}</p>
      ) : (
        <ol className="admin-audit">
          {log.data.rows.map((entry) => (
            <li key={entry.id} className="card">
              <div className="admin-audit-head">
                <p className="entry-title">
                  {t(`admin.audit.actions.${entry.action.replace('.', '_')}`, { defaultValue: entry.action })}
                </p>
                <p className="entry-detail">
                  <span className="mono">{entry.target}</span> · {entry.actor} · {formatTime(entry.at)}
                </p>
              </div>
              <details>
                <summary>{t('admin.audit.change')}</summary>
                <div className="admin-audit-diff">
                  <div>
                    <p className="muted">{t('admin.audit.before')}</p>
                    <pre>{json(entry.before)}</pre>
                  </div>
                  <div>
                    <p className="muted">{t('admin.audit.after')}</p>
                    <pre>{json(entry.after)}</pre>
                  </div>
                </div>
                {entry.requestId ? (
                  <p className="entry-detail">
                    {t('admin.audit.requestId')} <span className="mono">{entry.requestId}</span>
                  </p>
                ) : null}
              </details>
            </li>
          ))}
        </ol>
      )}
      {log.data ? (
        <Pager
          page={page}
          pageSize={PAGE_SIZE}
          total={log.data.total}
          onPage={setPage}
          label={t('admin.audit.title')}
        />
      ) : null}
    </Page>
  );
}
