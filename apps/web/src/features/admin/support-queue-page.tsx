import {
  type AdminSupportRow,
  SUPPORT_KINDS,
  SUPPORT_STATUSES,
  type SupportKind,
  type SupportStatus,
} from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { STATUS_CLASS } from '../../shared/support-labels';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useSupportQueue } from './api/get-support-queue';
import { LoadError } from './components/load-error';
import { ScrollRegion } from './components/scroll-region';
import { formatTime } from './format';
import { useExchangeNames } from './use-exchange-names';

const PAGE_SIZE = 20;
const STATUS_FILTERS = ['active', ...SUPPORT_STATUSES] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T | undefined) =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;

/**
 * /admin/support?status=&kind=&page= (issue 11): the support queue, latest activity first; open and
 * answered requests by default. The filters live in the address, so the way back from a request
 * returns to the same view.
 */
export default function SupportQueuePage() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const exchangeName = useExchangeNames();
  const [params, setParams] = useSearchParams();
  const status = oneOf<StatusFilter>(STATUS_FILTERS, params.get('status'), 'active') as StatusFilter;
  const kind = oneOf<SupportKind>(SUPPORT_KINDS, params.get('kind'), undefined);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const queue = useSupportQueue({ status, ...(kind ? { kind } : {}), page, pageSize: PAGE_SIZE });

  const show = (next: { status?: StatusFilter; kind?: SupportKind | ''; page?: number }) => {
    const values = { status, kind: kind ?? '', page, ...next };
    const query = new URLSearchParams();
    if (values.status !== 'active') query.set('status', values.status);
    if (values.kind) query.set('kind', values.kind);
    if (values.page > 1) query.set('page', String(values.page));
    setParams(query);
  };
  const about = (row: AdminSupportRow) =>
    row.platId !== null && row.uid !== null
      ? t('support.uidValue', { exchange: exchangeName(row.platId), uid: row.uid })
      : '—';
  const statusLabel = (row: AdminSupportRow) => (
    <span className={STATUS_CLASS[row.status as SupportStatus]}>
      {t(`admin.support.statuses.${row.status}`)}
    </span>
  );
  const requestLink = (row: AdminSupportRow, className?: string) => (
    <Link to={`/admin/support/${row.id}`} className={className}>
      {t('admin.support.requestLink', { id: row.id, kind: t(`support.kinds.${row.kind}`) })}
    </Link>
  );

  return (
    <Page title={t('admin.support.title')} intro={t('admin.support.intro')} wide>
      <div className="filter-bar">
        <label className="inline-field">
          <span>{t('admin.support.status')}</span>
          <select
            value={status}
            onChange={(event) => show({ status: event.target.value as StatusFilter, page: 1 })}
          >
            {STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {t(`admin.support.statuses.${value}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('admin.support.kind')}</span>
          <select
            value={kind ?? ''}
            onChange={(event) => show({ kind: event.target.value as SupportKind | '', page: 1 })}
          >
            <option value="">{t('admin.support.allKinds')}</option>
            {SUPPORT_KINDS.map((value) => (
              <option key={value} value={value}>
                {t(`support.kinds.${value}`)}
              </option>
            ))}
          </select>
        </label>
        {queue.data ? (
          <p className="muted admin-count" aria-live="polite">
            {t('admin.support.count', { count: queue.data.total })}
          </p>
        ) : null}
      </div>
      {queue.isError && !queue.data ? (
        <LoadError onRetry={() => void queue.refetch()} />
      ) : !queue.data ? (
        <Skeleton lines={4} />
      ) : queue.data.rows.length === 0 ? (
        <p className="card muted">{t('admin.support.empty')}</p>
      ) : isWide ? (
        <ScrollRegion label={t('admin.support.title')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.support.columns.request')}</th>
                <th scope="col">{t('admin.support.columns.member')}</th>
                <th scope="col">{t('admin.support.columns.uid')}</th>
                <th scope="col">{t('admin.support.columns.status')}</th>
                <th scope="col">{t('admin.support.columns.lastActivity')}</th>
              </tr>
            </thead>
            <tbody>
              {queue.data.rows.map((row) => (
                <tr key={row.id}>
                  <td>{requestLink(row)}</td>
                  <td className="wrap">
                    {row.email ? <BreakableEmail email={row.email} /> : t('admin.members.deletedAccount')}
                  </td>
                  <td>{about(row)}</td>
                  <td>{statusLabel(row)}</td>
                  <td>{formatTime(row.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <ul className="card entry-list" aria-label={t('admin.support.title')}>
          {queue.data.rows.map((row) => (
            <li key={row.id}>
              <p>
                {requestLink(row, 'entry-title')}
                <br />
                <span className="entry-detail admin-break">
                  {row.email ?? t('admin.members.deletedAccount')}
                </span>
                {row.uid ? (
                  <>
                    <br />
                    <span className="entry-detail">{about(row)}</span>
                  </>
                ) : null}
                <br />
                <span className="entry-detail">{formatTime(row.updatedAt)}</span>
              </p>
              {statusLabel(row)}
            </li>
          ))}
        </ul>
      )}
      {queue.data ? (
        <Pager
          page={page}
          pageSize={PAGE_SIZE}
          total={queue.data.total}
          onPage={(next) => show({ page: next })}
          label={t('admin.support.title')}
        />
      ) : null}
    </Page>
  );
}

/** An e-mail that may wrap before its `@` when the table is short of room (1024 px in Korean), not mid-word. */
function BreakableEmail({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}
