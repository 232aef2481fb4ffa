import { PATHS } from '@elex/contract';
import { ChevronRight, Link2, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { useExchangeList } from '../../../shared/exchanges/exchange-list-query';
import { ExchangeLogo } from '../../../shared/exchanges/exchange-logo';
import { formatCashback } from '../../../shared/exchanges/format';
import { useTranslation } from '../../../shared/i18n/use-translation';
import { useMyInfo } from '../../../shared/queries/get-my-info';
import { LoadError } from '../../../shared/ui/load-error';
import { Skeleton } from '../../../shared/ui/skeleton';

const linkDetailHref = (platId: number, uid: string) =>
  `${PATHS.exchangeLinkDetail}?${new URLSearchParams({ platId: String(platId), UID: uid })}`;

/**
 * Home for members (spec section 2): the bind prompt when nothing is bound; otherwise total rewards
 * and cumulative cashback, the withdraw button, the rewards link, the bound exchanges and an add link.
 */
export function MemberSummary() {
  const { t } = useTranslation();
  const info = useMyInfo();
  const exchanges = useExchangeList();
  const exchangeOf = (platId: number) => exchanges.data?.find((entry) => entry.id === platId);

  if (info.isPending) return <Skeleton lines={4} />;
  if (!info.data) return <LoadError isRetrying={info.isFetching} onRetry={() => void info.refetch()} />;

  if (info.data.exchangeBinds.length === 0) {
    return (
      <section className="card bind-prompt" aria-labelledby="bind-prompt-title">
        <Link2 size={28} aria-hidden="true" className="accent" />
        <div>
          <h2 id="bind-prompt-title">{t('homeMember.bindPromptTitle')}</h2>
          <p className="muted">{t('homeMember.bindPromptBody')}</p>
        </div>
        <Link to={PATHS.uidLinking} className="button button-primary">
          {t('homeMember.bindPromptCta')}
        </Link>
      </section>
    );
  }

  return (
    <section className="member-summary" aria-labelledby="member-summary-title">
      <h2 id="member-summary-title" className="visually-hidden">
        {t('homeMember.title')}
      </h2>
      <div className="card member-totals">
        <dl className="stat-grid">
          <div className="stat">
            <dt>{t('homeMember.totalReward')}</dt>
            <dd>
              {formatCashback(info.data.totalReward)} <span className="unit">{t('cashback.usdt')}</span>
            </dd>
          </div>
          <div className="stat">
            <dt>{t('homeMember.totalRebate')}</dt>
            <dd>
              {formatCashback(info.data.totalRebate)} <span className="unit">{t('cashback.usdt')}</span>
            </dd>
          </div>
        </dl>
        <div className="actions-row">
          <Link to={PATHS.withdrawal} className="button button-primary">
            {t('homeMember.withdraw')}
          </Link>
          <Link to={PATHS.myPageRewardHistory} className="button button-ghost">
            {t('homeMember.rewards')}
          </Link>
        </div>
      </div>
      <h3 className="section-title">{t('homeMember.boundTitle')}</h3>
      <ul className="bound-list">
        {info.data.exchangeBinds.map((bind) => {
          const exchange = exchangeOf(bind.platId);
          return (
            <li key={`${bind.platId}:${bind.uid}`}>
              <Link to={linkDetailHref(bind.platId, bind.uid)} className="card bound-row">
                {exchange ? (
                  <ExchangeLogo logo={exchange.logo} name={exchange.name} size={36} decorative />
                ) : null}
                <span className="bound-name">
                  <span className="strong">{exchange?.name ?? `#${bind.platId}`}</span>
                  <span className="muted mono">{t('homeMember.uid', { uid: bind.uid })}</span>
                </span>
                <span className="bound-balance">
                  {formatCashback(bind.balance)} <span className="unit">{t('cashback.usdt')}</span>
                </span>
                <ChevronRight size={18} aria-hidden="true" className="menu-chevron" />
              </Link>
            </li>
          );
        })}
        <li>
          <Link to={PATHS.uidLinking} className="card bound-row bound-add">
            <Plus size={20} aria-hidden="true" />
            <span>{t('homeMember.addExchange')}</span>
          </Link>
        </li>
      </ul>
    </section>
  );
}
