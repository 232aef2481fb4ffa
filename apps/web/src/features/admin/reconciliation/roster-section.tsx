import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { Pager } from '../../../shared/ui/pager';
import { Skeleton } from '../../../shared/ui/skeleton';
import { useRoster } from '../api/reconciliation';
import { LoadError } from '../components/load-error';
import { ScrollRegion } from '../components/scroll-region';
import { formatTime } from '../format';
import { ExchangeSelect } from './exchange-select';
import { useReconciliationParams } from './use-exchange-choice';

const PAGE_SIZE = 50;
const PREFIX = /^[A-Za-z0-9_-]{0,32}$/;

/** An exchange's roster in UID order, searched by the start of a UID; who holds each UID now. */
export function RosterSection() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const { exchanges, platId, page, params, show, catalogReady } = useReconciliationParams();
  const prefix = params.get('q') ?? '';
  const valid = PREFIX.test(prefix);
  const roster = useRoster(
    { platId: platId ?? 0, uidPrefix: valid ? prefix : '', page, pageSize: PAGE_SIZE },
    platId !== undefined,
  );
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const typed = draft ?? prefix;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = typed.trim();
    if (!PREFIX.test(text)) {
      setProblem(t('admin.reconciliation.prefixInvalid'));
      return;
    }
    setProblem(null);
    setDraft(null);
    show({ q: text });
  };
  const source = (value: string) => t(`admin.reconciliation.sources.${value}`);
  const holder = (boundTo: string | null) => boundTo ?? t('admin.reconciliation.notBound');

  if (catalogReady && platId === undefined)
    return <p className="card muted">{t('admin.reconciliation.noExchanges')}</p>;
  return (
    <section aria-labelledby="reconciliation-roster-title">
      <h2 id="reconciliation-roster-title" className="visually-hidden">
        {t('admin.reconciliation.tabs.roster')}
      </h2>
      <form className="filter-bar" onSubmit={submit} noValidate>
        <ExchangeSelect
          id="roster-exchange"
          exchanges={exchanges}
          value={platId}
          onChange={(id) => show({ platId: id })}
        />
        <div className="inline-field">
          <label htmlFor="roster-uid">{t('admin.reconciliation.uidPrefix')}</label>
          <input
            id="roster-uid"
            className="input"
            value={typed}
            maxLength={32}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'roster-uid-error' : undefined}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary">
          {t('admin.reconciliation.search')}
        </button>
      </form>
      {problem ? (
        <p id="roster-uid-error" className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {roster.isError && !roster.data ? (
        <LoadError onRetry={() => void roster.refetch()} />
      ) : !roster.data ? (
        <Skeleton lines={4} />
      ) : (
        <>
          <p className="muted admin-count" aria-live="polite">
            {t('admin.reconciliation.rosterCount', { count: roster.data.total })}
          </p>
          {roster.data.rows.length === 0 ? (
            <p className="card muted">{t('admin.reconciliation.rosterEmpty')}</p>
          ) : isWide ? (
            <ScrollRegion label={t('admin.reconciliation.tabs.roster')} pinnedFirstColumn>
              <table className="data-table reconciliation-table">
                <thead>
                  <tr>
                    <th scope="col">{t('admin.reconciliation.columns.uid')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.boundTo')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.registeredAt')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.source')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.firstSeenAt')}</th>
                  </tr>
                </thead>
                <tbody>
                  {roster.data.rows.map((row) => (
                    <tr key={row.uid}>
                      <th scope="row" className="mono">
                        {row.uid}
                      </th>
                      <td>{holder(row.boundTo)}</td>
                      <td>{formatTime(row.registeredAt)}</td>
                      <td>
                        {source(row.source)}
                        <span className="status-reason">{row.sourceLabel}</span>
                      </td>
                      <td>{formatTime(row.firstSeenAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          ) : (
            <ul className="card entry-list" aria-label={t('admin.reconciliation.tabs.roster')}>
              {roster.data.rows.map((row) => (
                <li key={row.uid}>
                  <p>
                    <span className="entry-title mono">{row.uid}</span>
                    <br />
                    <span className="entry-detail">
                      {t('admin.reconciliation.columns.boundTo')}: {holder(row.boundTo)}
                    </span>
                    <br />
                    <span className="entry-detail">
                      {t('admin.reconciliation.columns.registeredAt')}: {formatTime(row.registeredAt)}
                    </span>
                    <br />
                    <span className="entry-detail">
                      {source(row.source)} · {row.sourceLabel}
                    </span>
                  </p>
                </li>
              ))}
            </ul>
          )}
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={roster.data.total}
            onPage={(next) => show({ page: next })}
            label={t('admin.reconciliation.tabs.roster')}
          />
        </>
      )}
    </section>
  );
}
