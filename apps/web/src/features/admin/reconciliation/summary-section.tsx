import { RECONCILIATION, type ReconciliationFigures } from '@elex/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { Skeleton } from '../../../shared/ui/skeleton';
import { useReconciliationSummary } from '../api/reconciliation';
import { LoadError } from '../components/load-error';
import { ScrollRegion } from '../components/scroll-region';
import { formatAmount, formatDay } from '../format';

/** The money columns, in the order of the identity (docs/operator-console.md, "Reconciliation"). */
const FIGURES = [
  'commission',
  'credited',
  'rewards',
  'margin',
  'awaitingSettlement',
  'unbound',
  'paidOut',
  'held',
] as const satisfies ReadonlyArray<keyof ReconciliationFigures>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The period form and the figures per exchange: a table on a wide screen, a card per exchange on a phone. */
export function SummarySection() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const [params, setParams] = useSearchParams();
  const from = DAY.test(params.get('from') ?? '') ? (params.get('from') as string) : undefined;
  const to = DAY.test(params.get('to') ?? '') ? (params.get('to') as string) : undefined;
  const summary = useReconciliationSummary({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  const [draft, setDraft] = useState<{ from: string; to: string } | null>(null);
  const shown = draft ?? { from: summary.data?.from ?? from ?? '', to: summary.data?.to ?? to ?? '' };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (shown.from) next.set('from', shown.from);
    if (shown.to) next.set('to', shown.to);
    setParams(next);
    setDraft(null);
  };
  const figure = (figures: ReconciliationFigures, key: (typeof FIGURES)[number]) => (
    <>
      {formatAmount(figures[key])}
      {key === 'credited' && figures.creditedUnbound !== '0.000000' ? (
        <span className="status-reason">
          {t('admin.reconciliation.ofWhichUnbound', { amount: formatAmount(figures.creditedUnbound) })}
        </span>
      ) : null}
      {key === 'held' && figures.heldCount > 0 ? (
        <span className="status-reason">
          {t('admin.reconciliation.heldCount', { count: figures.heldCount })}
        </span>
      ) : null}
    </>
  );

  return (
    <section aria-labelledby="reconciliation-summary-title">
      <h2 id="reconciliation-summary-title" className="visually-hidden">
        {t('admin.reconciliation.tabs.summary')}
      </h2>
      <form className="filter-bar" onSubmit={submit}>
        <div className="inline-field">
          <label htmlFor="reconciliation-from">{t('admin.reconciliation.from')}</label>
          <input
            id="reconciliation-from"
            type="date"
            className="input"
            value={shown.from}
            onChange={(event) => setDraft({ ...shown, from: event.target.value })}
          />
        </div>
        <div className="inline-field">
          <label htmlFor="reconciliation-to">{t('admin.reconciliation.to')}</label>
          <input
            id="reconciliation-to"
            type="date"
            className="input"
            value={shown.to}
            onChange={(event) => setDraft({ ...shown, to: event.target.value })}
          />
        </div>
        <button type="submit" className="button button-primary">
          {t('admin.reconciliation.show')}
        </button>
      </form>
      <p className="muted">{t('admin.reconciliation.periodHint', { days: RECONCILIATION.maxDays })}</p>
      {summary.isError && !summary.data ? (
        <LoadError onRetry={() => void summary.refetch()} />
      ) : !summary.data ? (
        <Skeleton lines={4} />
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {t('admin.reconciliation.period', {
              from: formatDay(summary.data.from),
              to: formatDay(summary.data.to),
            })}
          </p>
          {isWide ? (
            <ScrollRegion label={t('admin.reconciliation.tabs.summary')} pinnedFirstColumn>
              <table className="data-table admin-compact reconciliation-table">
                <thead>
                  <tr>
                    <th scope="col">{t('admin.reconciliation.exchange')}</th>
                    {FIGURES.map((key) => (
                      <th key={key} scope="col" className="numeric">
                        {t(`admin.reconciliation.figures.${key}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {summary.data.exchanges.map((row) => (
                    <tr key={row.platId}>
                      <th scope="row">{row.name}</th>
                      {FIGURES.map((key) => (
                        <td key={key} className="numeric">
                          {figure(row, key)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">{t('admin.reconciliation.total')}</th>
                    {FIGURES.map((key) => (
                      <td key={key} className="numeric">
                        {figure(summary.data.totals, key)}
                      </td>
                    ))}
                  </tr>
                </tfoot>
              </table>
            </ScrollRegion>
          ) : (
            <ul className="reconciliation-cards" aria-label={t('admin.reconciliation.tabs.summary')}>
              {[
                ...summary.data.exchanges,
                { ...summary.data.totals, platId: 0, name: t('admin.reconciliation.total') },
              ].map((row) => (
                <li key={row.platId} className="card">
                  <h3>{row.name}</h3>
                  <dl className="reconciliation-figures">
                    {FIGURES.map((key) => (
                      <div key={key}>
                        <dt>{t(`admin.reconciliation.figures.${key}`)}</dt>
                        <dd>{figure(row, key)}</dd>
                      </div>
                    ))}
                  </dl>
                </li>
              ))}
            </ul>
          )}
          <p className="muted">{t('admin.reconciliation.identity')}</p>
        </>
      )}
    </section>
  );
}
