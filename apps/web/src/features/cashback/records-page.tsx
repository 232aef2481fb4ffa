import { REBATE_STATUSES, type RebateStatus } from '@elex/contract';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv, toCsv } from '../../shared/download-csv';
import { useExchangeList } from '../../shared/exchanges/exchange-list-query';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { ADJUSTMENTS_PAGE_SIZE, fetchAdjustmentPage, useAdjustments } from './api/get-adjustments';
import { fetchRebatePage, isCursorRefusal, useRebatePager } from './api/get-rebate-records';
import { AdjustmentsSection } from './components/adjustments-section';
import { RebateTable } from './components/rebate-table';
import { fetchAllAfter, fetchAllPages } from './fetch-all-pages';
import { useExchangeName } from './hooks';
import { recordsStatement } from './statement-csv';

const PAGE_SIZE = 20;

/**
 * /mypage/records: every cashback record, filtered by exchange and status, with a CSV export; under
 * them our team's corrections, of the chosen exchange's UIDs when one is chosen.
 */
export default function RecordsPage() {
  const { t } = useTranslation();
  const exchanges = useExchangeList();
  const exchangeName = useExchangeName();
  const [platId, setPlatId] = useState<number | undefined>();
  const [status, setStatus] = useState<RebateStatus | undefined>();
  const [exporting, setExporting] = useState(false);
  // Page by page after the previous page's `next`; another exchange or status starts over from page 1.
  const { records, page, hasNext, onPage } = useRebatePager({ platId, status }, PAGE_SIZE);
  // The same query as the adjustments section below (one request): corrections alone make a file too.
  // Both follow the exchange filter, as the records do.
  const adjustments = useAdjustments({ account: 'cashback', platId }, 1, ADJUSTMENTS_PAGE_SIZE);
  const canExport = Boolean(records.data?.total || (!status && adjustments.data?.total));

  const exportCsv = async () => {
    setExporting(true);
    try {
      // Every status, filtered here: a record that settles during the export would leave a list
      // filtered by the server and pass for the one that arrived meanwhile (docs/decisions.md).
      // Our team's corrections of the same UIDs too, as rows of their own with the reason, so the file
      // adds up to the cumulative cashback; they have no status, so a status filter leaves them out.
      const [walked, adjustmentsWalk] = await Promise.all([
        fetchAllAfter(
          // A refused cursor starts the walk over (fetchAllAfter) without a toast; twice, the catch says so.
          (after, pageSize) =>
            fetchRebatePage({ platId, pageSize, after }, after === undefined ? undefined : isCursorRefusal),
          isCursorRefusal,
        ),
        status ? undefined : fetchAllPages(fetchAdjustmentPage({ account: 'cashback', platId })),
      ]);
      const chosen = status ? walked.records.filter((record) => record.status === status) : walked.records;
      const corrections = adjustmentsWalk?.records ?? [];
      const missing =
        Math.max(0, walked.total - walked.records.length) +
        Math.max(0, (adjustmentsWalk?.total ?? 0) - corrections.length);
      const { header, rows } = recordsStatement(t, exchangeName, chosen, corrections);
      downloadCsv('cashback-records.csv', toCsv(header, rows));
      if (!walked.complete || (adjustmentsWalk && !adjustmentsWalk.complete)) {
        toast.warning(t('cashback.exportPartial', { count: rows.length, total: rows.length + missing }));
      }
    } catch (error) {
      // Refused twice: the list keeps changing under the walk (fetchAllAfter started over once).
      toast.error(isCursorRefusal(error) ? t('cashback.exportChanged') : t('msg:error'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Page title={t('pages.records.title')} intro={t('pages.records.intro')} wide>
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('cashback.exchange')}</span>
          <select
            value={platId ?? ''}
            onChange={(event) => {
              setPlatId(event.target.value ? Number(event.target.value) : undefined);
            }}
          >
            <option value="">{t('cashback.allExchanges')}</option>
            {exchanges.data?.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('cashback.status')}</span>
          <select
            value={status ?? ''}
            onChange={(event) => {
              setStatus((event.target.value || undefined) as RebateStatus | undefined);
            }}
          >
            <option value="">{t('cashback.allStatuses')}</option>
            {REBATE_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`cashback.statuses.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-ghost"
          onClick={exportCsv}
          disabled={exporting || !canExport}
        >
          <Download size={16} aria-hidden="true" />
          {t('cashback.exportCsv')}
        </button>
      </div>
      {records.data ? (
        <>
          <RebateTable records={records.data.records} exchangeName={exchangeName} />
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={records.data.total}
            hasNext={hasNext}
            onPage={onPage}
          />
        </>
      ) : records.isError ? (
        <LoadError isRetrying={records.isFetching} onRetry={() => void records.refetch()} />
      ) : (
        <Skeleton lines={4} />
      )}
      <AdjustmentsSection key={platId ?? 'all'} account="cashback" platId={platId} />
    </Page>
  );
}
