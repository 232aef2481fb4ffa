import type { SupportRequestSummary } from '@elex/contract';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useExchangeList } from '../../shared/exchanges/exchange-list-query';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { formatLocalTime } from '../../shared/i18n/intl-formats';
import { newSupportRequestHref, supportRequestHref } from '../../shared/navigation/support-paths';
import { STATUS_CLASS } from '../../shared/support-labels';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { useSupportRequests } from './api/get-support-requests';
import './support.css';

const PAGE_SIZE = 20;

/** /mypage/support (issue 11): the member's requests, latest activity first, and a way to open one. */
export default function SupportListPage() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const [page, setPage] = useState(1);
  const requests = useSupportRequests(page, PAGE_SIZE);
  const exchanges = useExchangeList();
  const about = (request: SupportRequestSummary) =>
    request.platId !== null && request.uid !== null
      ? t('support.uidValue', {
          exchange:
            exchanges.data?.find((entry) => entry.id === request.platId)?.name ?? `#${request.platId}`,
          uid: request.uid,
        })
      : '—';
  const title = (request: SupportRequestSummary) =>
    t('support.requestTitle', { id: request.id, kind: t(`support.kinds.${request.kind}`) });

  return (
    <Page title={t('pages.support.title')} intro={t('pages.support.intro')} wide>
      <div className="actions-row support-actions">
        <Link to={newSupportRequestHref()} className="button button-primary">
          <MessageSquarePlus size={18} aria-hidden="true" />
          {t('support.newRequest')}
        </Link>
      </div>
      {requests.isError && !requests.data ? (
        <LoadError isRetrying={requests.isFetching} onRetry={() => void requests.refetch()} />
      ) : !requests.data ? (
        <Skeleton lines={3} />
      ) : requests.data.records.length === 0 ? (
        <p className="card muted">{t('support.empty')}</p>
      ) : isWide ? (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">{t('pages.support.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('support.columns.request')}</th>
                <th scope="col">{t('support.columns.uid')}</th>
                <th scope="col">{t('support.columns.status')}</th>
                <th scope="col">{t('support.columns.lastActivity')}</th>
              </tr>
            </thead>
            <tbody>
              {requests.data.records.map((request) => (
                <tr key={request.id}>
                  {/* The title wraps: unbroken, a long zh or ko kind pushed the last column out of a 1024 px view. */}
                  <td className="wrap">
                    <Link to={supportRequestHref(request.id)}>{title(request)}</Link>
                  </td>
                  <td>{about(request)}</td>
                  <td>
                    <span className={STATUS_CLASS[request.status]}>
                      {t(`support.statuses.${request.status}`)}
                    </span>
                  </td>
                  <td>{formatLocalTime(request.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <ul className="card entry-list" aria-label={t('pages.support.title')}>
          {requests.data.records.map((request) => (
            <li key={request.id}>
              <p>
                <Link className="entry-title" to={supportRequestHref(request.id)}>
                  {title(request)}
                </Link>
                <br />
                {request.uid ? (
                  <>
                    <span className="entry-detail">{about(request)}</span>
                    <br />
                  </>
                ) : null}
                <span className="entry-detail">{formatLocalTime(request.updatedAt)}</span>
              </p>
              <span className={STATUS_CLASS[request.status]}>{t(`support.statuses.${request.status}`)}</span>
            </li>
          ))}
        </ul>
      )}
      {requests.data ? (
        <Pager
          page={page}
          pageSize={PAGE_SIZE}
          total={requests.data.total}
          onPage={setPage}
          label={t('pages.support.title')}
        />
      ) : null}
    </Page>
  );
}
