import { CASHBACK, type ExchangeDictionaryEntry } from '@elex/contract';
import { ArrowRight, Zap } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ExchangeListLoadError } from '../../shared/exchanges/exchange-list-load-error';
import { useOpenExchangeList } from '../../shared/exchanges/exchange-list-query';
import { ExchangeLogo } from '../../shared/exchanges/exchange-logo';
import { ExchangeTags } from '../../shared/exchanges/exchange-tags';
import { formatPercent, formatScore } from '../../shared/exchanges/format';
import { exchangeDetailHref } from '../../shared/exchanges/paths';
import { SignupDialog } from '../../shared/exchanges/signup-dialog';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import './exchanges.css';

/** /exchange: every partner with its key figures and a sign-up call to action. */
export default function ExchangeListPage() {
  const { t } = useTranslation();
  const list = useOpenExchangeList();
  const [signup, setSignup] = useState<ExchangeDictionaryEntry | null>(null);
  const exchanges = list.data ?? [];

  return (
    <Page title={t('pages.exchange.title')} intro={t('pages.exchange.intro')} wide>
      {list.isPending ? (
        <Skeleton lines={8} />
      ) : exchanges.length === 0 ? (
        <ExchangeListLoadError list={list} />
      ) : (
        <ul className="exchange-grid">
          {exchanges.map((exchange) => (
            <li key={exchange.id} className="card exchange-card">
              <div className="exchange-card-head">
                <ExchangeLogo logo={exchange.logo} name={exchange.name} size={48} decorative />
                <div>
                  <h2 className="exchange-card-name">
                    <Link to={exchangeDetailHref(exchange.id)}>{exchange.name}</Link>
                  </h2>
                  <p className="muted">{t('exchanges.scoreLong', { score: formatScore(exchange.score) })}</p>
                </div>
              </div>
              <ExchangeTags marks={exchange.mark} />
              <dl className="figure-grid">
                <div>
                  <dt>{t('exchanges.columns.cashRate')}</dt>
                  <dd className="figure-strong">{formatPercent(exchange.cashRate)}</dd>
                </div>
                <div>
                  <dt>{t('exchanges.speedUpShort', { weeks: CASHBACK.speedUpWeeks })}</dt>
                  <dd>
                    <Zap size={14} aria-hidden="true" className="accent" />{' '}
                    {formatPercent(exchange.speedUpCashRate)}
                  </dd>
                </div>
                <div>
                  <dt>{t('exchanges.columns.limitPrice')}</dt>
                  <dd>{formatPercent(exchange.limitPrice)}</dd>
                </div>
                <div>
                  <dt>{t('exchanges.columns.marketPrice')}</dt>
                  <dd>{formatPercent(exchange.marketPrice)}</dd>
                </div>
              </dl>
              <p className="discount-note">
                {t('exchanges.signup.discount', {
                  percent: exchange.newUserDiscountPercent,
                  days: exchange.newUserDiscountDays,
                })}
              </p>
              <div className="exchange-card-actions">
                <button type="button" className="button button-primary" onClick={() => setSignup(exchange)}>
                  {t('exchanges.signupCta', { name: exchange.name })}
                </button>
                <Link to={exchangeDetailHref(exchange.id)} className="button button-ghost">
                  {t('exchanges.detailsCta')}
                  <span className="visually-hidden"> {exchange.name}</span>
                  <ArrowRight size={16} aria-hidden="true" />
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small-print">{t('exchanges.feesNote')}</p>
      <SignupDialog exchange={signup} onClose={() => setSignup(null)} />
    </Page>
  );
}
