import { EXCHANGE_UID_PATTERN, OPEN_REBATE_STATUSES, type OpenRebate } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsWide } from '../../../shared/hooks/use-is-wide';
import { Pager } from '../../../shared/ui/pager';
import { Skeleton } from '../../../shared/ui/skeleton';
import { toast } from '../../../shared/ui/toast';
import { resettle, useOpenRebates } from '../api/reconciliation';
import { LoadError } from '../components/load-error';
import { ScrollRegion } from '../components/scroll-region';
import { formatAmount, formatTime } from '../format';
import { ExchangeSelect } from './exchange-select';
import { useReconciliationParams } from './use-exchange-choice';

const PAGE_SIZE = 50;
type StatusFilter = (typeof OPEN_REBATE_STATUSES)[number];

/**
 * The records of an exchange not paid (pending or failed) with why, filtered by status and UID, and
 * the re-settle buttons: the exchange, or the UID filtered on. A button is disabled while its call
 * runs, and the server settles a record once whatever arrives twice.
 */
export function RebatesSection() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const client = useQueryClient();
  const { exchanges, platId, page, params, show, catalogReady } = useReconciliationParams();
  const askedStatus = params.get('status');
  const status = (OPEN_REBATE_STATUSES as readonly string[]).includes(askedStatus ?? '')
    ? (askedStatus as StatusFilter)
    : undefined;
  const askedUid = params.get('uid') ?? '';
  const uid = EXCHANGE_UID_PATTERN.test(askedUid) ? askedUid : undefined;
  const rebates = useOpenRebates(
    {
      platId: platId ?? 0,
      ...(status ? { status } : {}),
      ...(uid ? { uid } : {}),
      page,
      pageSize: PAGE_SIZE,
    },
    platId !== undefined,
  );
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [settling, setSettling] = useState(false);
  const typed = draft ?? uid ?? '';
  const exchangeName = exchanges.find((exchange) => exchange.platId === platId)?.name ?? '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = typed.trim();
    if (text !== '' && !EXCHANGE_UID_PATTERN.test(text)) {
      setProblem(t('msg:uidInvalid'));
      return;
    }
    setProblem(null);
    setDraft(null);
    show({ uid: text });
  };
  const settle = async (scope: { uid?: string }) => {
    if (platId === undefined || settling) return;
    setSettling(true);
    try {
      const result = await resettle({ platId, ...scope });
      toast.success(
        result.settled === 0
          ? t('admin.reconciliation.nothingDue')
          : t('admin.reconciliation.settled', {
              count: result.settled,
              completed: result.completed,
              failed: result.failed,
              credited: formatAmount(result.credited),
            }),
      );
      await client.invalidateQueries({ queryKey: ['admin', 'reconciliation'] });
      await client.invalidateQueries({ queryKey: ['admin', 'dashboard'] });
    } catch {
      // The API client showed the reason.
    } finally {
      setSettling(false);
    }
  };
  const reason = (row: OpenRebate) => (
    <>
      {t(`admin.reconciliation.reasons.${row.reason}`, {
        time: row.decidesAt ? formatTime(row.decidesAt) : '',
      })}
    </>
  );
  const period = (row: OpenRebate) => `${formatTime(row.periodStart)} – ${formatTime(row.periodEnd)}`;

  if (catalogReady && platId === undefined)
    return <p className="card muted">{t('admin.reconciliation.noExchanges')}</p>;
  return (
    <section aria-labelledby="reconciliation-rebates-title">
      <h2 id="reconciliation-rebates-title" className="visually-hidden">
        {t('admin.reconciliation.tabs.rebates')}
      </h2>
      <form className="filter-bar" onSubmit={submit} noValidate>
        <ExchangeSelect
          id="rebates-exchange"
          exchanges={exchanges}
          value={platId}
          onChange={(id) => show({ platId: id })}
        />
        <div className="inline-field">
          <label htmlFor="rebates-status">{t('admin.reconciliation.status')}</label>
          <select
            id="rebates-status"
            value={status ?? ''}
            onChange={(event) => show({ status: event.target.value })}
          >
            <option value="">{t('admin.reconciliation.statuses.all')}</option>
            {OPEN_REBATE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.reconciliation.statuses.${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="inline-field">
          <label htmlFor="rebates-uid">{t('admin.reconciliation.uid')}</label>
          <input
            id="rebates-uid"
            className="input"
            value={typed}
            maxLength={32}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'rebates-uid-error' : undefined}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-ghost">
          {t('admin.reconciliation.filter')}
        </button>
      </form>
      {problem ? (
        <p id="rebates-uid-error" className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="admin-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={settling || platId === undefined}
          onClick={() => void settle({})}
        >
          <RefreshCw size={16} aria-hidden="true" />
          {t('admin.reconciliation.settleExchange', { exchange: exchangeName })}
        </button>
        {uid ? (
          <button
            type="button"
            className="button button-ghost"
            disabled={settling}
            onClick={() => void settle({ uid })}
          >
            {t('admin.reconciliation.settleUid', { uid })}
          </button>
        ) : null}
      </div>
      <p className="muted">{t('admin.reconciliation.settleHint')}</p>
      {rebates.isError && !rebates.data ? (
        <LoadError onRetry={() => void rebates.refetch()} />
      ) : !rebates.data ? (
        <Skeleton lines={4} />
      ) : (
        <>
          <p className="muted admin-count" aria-live="polite">
            {t('admin.reconciliation.rebatesCount', { count: rebates.data.total })}
          </p>
          {rebates.data.rows.length === 0 ? (
            <p className="card muted">{t('admin.reconciliation.rebatesEmpty')}</p>
          ) : isWide ? (
            <ScrollRegion label={t('admin.reconciliation.tabs.rebates')} pinnedFirstColumn>
              <table className="data-table reconciliation-table">
                <thead>
                  <tr>
                    <th scope="col">{t('admin.reconciliation.columns.uid')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.reason')}</th>
                    <th scope="col" className="numeric">
                      {t('admin.reconciliation.columns.commission')}
                    </th>
                    <th scope="col">{t('admin.reconciliation.columns.period')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.boundTo')}</th>
                    <th scope="col">{t('admin.reconciliation.columns.receivedAt')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rebates.data.rows.map((row) => (
                    <tr key={row.id}>
                      <th scope="row" className="mono">
                        {row.uid}
                      </th>
                      <td className="wrap">
                        <span className={row.status === 'failed' ? 'danger' : undefined}>
                          {t(`admin.reconciliation.statuses.${row.status}`)}
                        </span>
                        <span className="status-reason">{reason(row)}</span>
                      </td>
                      <td className="numeric">{formatAmount(row.commission)}</td>
                      <td>{period(row)}</td>
                      <td>{row.boundTo ?? t('admin.reconciliation.notBound')}</td>
                      <td>{formatTime(row.receivedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          ) : (
            <ul className="card entry-list" aria-label={t('admin.reconciliation.tabs.rebates')}>
              {rebates.data.rows.map((row) => (
                <li key={row.id}>
                  <p>
                    <span className="entry-title mono">{row.uid}</span>
                    <br />
                    <span className="entry-detail">{reason(row)}</span>
                    <br />
                    <span className="entry-detail">
                      {t('admin.reconciliation.columns.commission')}: {formatAmount(row.commission)}
                    </span>
                    <br />
                    <span className="entry-detail">{period(row)}</span>
                  </p>
                  <span className={row.status === 'failed' ? 'danger' : undefined}>
                    {t(`admin.reconciliation.statuses.${row.status}`)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={rebates.data.total}
            onPage={(next) => show({ page: next })}
            label={t('admin.reconciliation.tabs.rebates')}
          />
        </>
      )}
    </section>
  );
}
