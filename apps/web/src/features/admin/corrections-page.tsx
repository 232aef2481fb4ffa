import { CORRECTION_STATUSES, type CorrectionStatus } from '@elex/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useCorrections } from './api/corrections';
import { CorrectionsTable } from './components/corrections-table';
import { LoadError } from './components/load-error';
import { formatAmount } from './format';

const PAGE_SIZE = 20;
const TAB_KEY = { pending: 'pendingTab', posted: 'postedTab', rejected: 'rejectedTab' } as const;

/**
 * /admin/corrections: the approval queue (pending, oldest first) and the posted and rejected history.
 * Corrections are proposed from a member's page.
 */
export default function CorrectionsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<CorrectionStatus>('pending');
  const [page, setPage] = useState(1);
  const list = useCorrections({ status, page, pageSize: PAGE_SIZE });
  const threshold = list.data?.approvalThreshold;
  return (
    <Page
      title={t('admin.corrections.title')}
      intro={threshold ? t('admin.corrections.intro', { threshold: formatAmount(threshold) }) : undefined}
      wide
    >
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('admin.corrections.filter')}</span>
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as CorrectionStatus);
              setPage(1);
            }}
          >
            {CORRECTION_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.corrections.${TAB_KEY[value]}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.isError && !list.data ? <LoadError onRetry={() => void list.refetch()} /> : null}
      {!list.data ? (
        list.isError ? null : (
          <Skeleton lines={4} />
        )
      ) : list.data.rows.length === 0 ? (
        <p className="card muted">{t('admin.corrections.empty')}</p>
      ) : (
        <section className="card admin-section">
          <CorrectionsTable rows={list.data.rows} showMember />
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={list.data.total}
            onPage={setPage}
            label={t('admin.corrections.title')}
          />
        </section>
      )}
    </Page>
  );
}
