import { PATHS, State } from '@elex/contract';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../shared/api/api-client';
import { useExchangeList } from '../../shared/exchanges/exchange-list-query';
import { formatLocalTime } from '../../shared/i18n/intl-formats';
import { newSupportRequestHref } from '../../shared/navigation/support-paths';
import { memberResolutionKey, STATUS_CLASS } from '../../shared/support-labels';
import { LoadError } from '../../shared/ui/load-error';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { SupportThread } from '../../shared/ui/support-thread';
import { useSupportRequest } from './api/get-support-request';
import { ReplyForm } from './components/reply-form';
import './support.css';

/** /mypage/support/:id (issue 11): one request's thread, its status in words, and a reply form until it closes. */
export default function SupportThreadPage() {
  const { t } = useTranslation();
  const id = useParams().id ?? '';
  const request = useSupportRequest(id);
  const exchanges = useExchangeList();
  const exchangeName = (platId: number) =>
    exchanges.data?.find((entry) => entry.id === platId)?.name ?? `#${platId}`;
  const notFound =
    request.error instanceof ApiError &&
    request.error.kind === 'refused' &&
    request.error.state === State.NotFound;
  const data = request.data;
  const resolution = data ? memberResolutionKey(data) : null;

  return (
    <Page title={t('pages.supportThread.title', { id })}>
      <p>
        <Link to={PATHS.myPageSupport} className="support-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {t('support.backToList')}
        </Link>
      </p>
      {notFound ? (
        <p className="card muted">{t('support.notFound')}</p>
      ) : request.isError && !data ? (
        <LoadError isRetrying={request.isFetching} onRetry={() => void request.refetch()} />
      ) : !data ? (
        <Skeleton lines={5} />
      ) : (
        <>
          <dl className="card support-facts">
            <div>
              <dt>{t('support.kind')}</dt>
              <dd>{t(`support.kinds.${data.kind}`)}</dd>
            </div>
            {data.platId !== null && data.uid !== null ? (
              <div>
                <dt>{t('support.columns.uid')}</dt>
                <dd>{t('support.uidValue', { exchange: exchangeName(data.platId), uid: data.uid })}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('support.columns.status')}</dt>
              <dd>
                <span className={STATUS_CLASS[data.status]}>{t(`support.statuses.${data.status}`)}</span>
                <span className="status-reason">{t(`support.statusHints.${data.status}`)}</span>
              </dd>
            </div>
            {resolution ? (
              <div>
                <dt>{t('support.resolution')}</dt>
                <dd>{t(resolution)}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('support.openedAt')}</dt>
              <dd>{formatLocalTime(data.createdAt)}</dd>
            </div>
            {data.address ? (
              <div>
                <dt>{t('support.address')}</dt>
                <dd className="mono support-break">{data.address}</dd>
              </div>
            ) : null}
          </dl>
          <section aria-labelledby="support-messages-title" className="support-section">
            <h2 id="support-messages-title">{t('support.thread.title')}</h2>
            <SupportThread messages={data.messages} reader="member" formatTime={formatLocalTime} />
          </section>
          {data.status === 'closed' ? (
            <p className="card muted">
              {t('msg:supportClosed')} <Link to={newSupportRequestHref()}>{t('support.newRequest')}</Link>
            </p>
          ) : (
            <ReplyForm request={data} />
          )}
        </>
      )}
    </Page>
  );
}
