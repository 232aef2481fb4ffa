import { DECIMALS, type ExchangeDetailResponse, fromScaled, PATHS, State, toScaled } from '@elex/contract';
import { ExternalLink, Gauge, Link2, Trophy, Zap } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api/api-client';
import { ExchangeLogo } from '../../shared/exchanges/exchange-logo';
import { ExchangeTags } from '../../shared/exchanges/exchange-tags';
import {
  formatInteger,
  formatPercent,
  formatScore,
  formatUsdt,
  isZeroAmount,
} from '../../shared/exchanges/format';
import { uidLinkingHref } from '../../shared/exchanges/paths';
import { SignupDialog } from '../../shared/exchanges/signup-dialog';
import { formatDay } from '../../shared/i18n/intl-formats';
import { useExchangeDetail } from '../../shared/queries/get-exchange-detail';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import './exchanges.css';

/** The `id` query value as a platId, or null when it is not a positive whole number. */
function readPlatId(value: string | null): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

/** Example amounts for one order of 10,000 USDT: its fee and the cashback on it, exact. */
const EXAMPLE_ORDER_USDT = '10000';
function exampleOrder(feePercent: string, cashPercent: string) {
  const orderMicro = toScaled(EXAMPLE_ORDER_USDT, DECIMALS.usdt);
  const feeMicro = (orderMicro * toScaled(feePercent, DECIMALS.feePercent)) / 1_000_000n;
  const cashbackMicro = (feeMicro * toScaled(cashPercent, DECIMALS.cashPercent)) / 10_000n;
  return { fee: fromScaled(feeMicro, DECIMALS.usdt), cashback: fromScaled(cashbackMicro, DECIMALS.usdt) };
}

export default function ExchangeDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const platId = readPlatId(params.get('id'));
  const detail = useExchangeDetail(platId);
  // As on the home (exchange-showcase.tsx): the answer arrives through TanStack Query's store, which
  // React renders at once in one long task; deferred, the page renders as a transition in slices. The
  // deferred value may still be the exchange shown before the address changed: only this one's counts.
  const deferred = useDeferredValue(detail.data);
  const shown = deferred?.platId === platId ? deferred : undefined;
  const notFound =
    platId === null || (detail.error instanceof ApiError && detail.error.state === State.NotFound);

  if (notFound) {
    return (
      <Page title={t('pages.exchangeDetail.title')}>
        <div className="card load-error" role="alert">
          <p>{t('msg:exchangeNotFound')}</p>
          <Link to={PATHS.exchange} className="button button-ghost">
            {t('exchanges.backToList')}
          </Link>
        </div>
      </Page>
    );
  }
  if (detail.isError) {
    return (
      <Page title={t('pages.exchangeDetail.title')}>
        <div className="card load-error" role="alert">
          <p>{detail.error.message || t('homePublic.loadFailed')}</p>
          <button type="button" className="button button-ghost" onClick={() => void detail.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      </Page>
    );
  }
  if (!shown) {
    return (
      <Page title={t('pages.exchangeDetail.title')} intro={t('pages.exchangeDetail.intro')}>
        <Skeleton lines={10} />
      </Page>
    );
  }
  return <ExchangeDetail detail={shown} />;
}

function ExchangeDetail({ detail }: { detail: ExchangeDetailResponse }) {
  const { t } = useTranslation();
  const [signupOpen, setSignupOpen] = useState(false);
  const market = exampleOrder(detail.marketPrice, detail.cashRate);
  const signupExchange = {
    id: detail.platId,
    name: detail.platname,
    logo: detail.logo,
    signupUrl: detail.signupUrl,
    referralCode: detail.referralCode,
    newUserDiscountPercent: detail.newUserDiscountPercent,
    newUserDiscountDays: detail.newUserDiscountDays,
  };

  return (
    <Page title={t('exchanges.detail.title', { name: detail.platname })} wide>
      <section className="card detail-hero" aria-label={detail.platname}>
        <div className="detail-hero-main">
          <ExchangeLogo logo={detail.logo} name={detail.platname} size={64} decorative />
          <div>
            <p className="detail-score">
              <Gauge size={16} aria-hidden="true" className="accent" />
              {t('exchanges.scoreLong', { score: formatScore(detail.score) })}
            </p>
            <ExchangeTags marks={detail.mark} />
            <p className="discount-note">
              {t('exchanges.signup.discount', {
                percent: detail.newUserDiscountPercent,
                days: detail.newUserDiscountDays,
              })}
            </p>
          </div>
        </div>
        {detail.retired ? (
          <p className="notice" role="note">
            {t('msg:exchangeRetired')}
          </p>
        ) : (
          <div className="detail-hero-actions">
            <button type="button" className="button button-primary" onClick={() => setSignupOpen(true)}>
              {t('exchanges.signupCta', { name: detail.platname })}
            </button>
            <Link to={uidLinkingHref(detail.platId)} className="button button-ghost">
              <Link2 size={16} aria-hidden="true" />
              {t('exchanges.signup.bind')}
            </Link>
          </div>
        )}
      </section>

      <div className="detail-grid">
        <section className="card" aria-labelledby="fees-title">
          <h2 id="fees-title" className="card-title">
            {t('exchanges.detail.feesTitle')}
          </h2>
          <dl className="figure-grid">
            <div>
              <dt>{t('exchanges.detail.limitOrder')}</dt>
              <dd className="figure-strong">{formatPercent(detail.limitPrice)}</dd>
            </div>
            <div>
              <dt>{t('exchanges.detail.marketOrder')}</dt>
              <dd className="figure-strong">{formatPercent(detail.marketPrice)}</dd>
            </div>
          </dl>
          <p className="muted small-print">
            {detail.feesCheckedOn
              ? t('exchanges.detail.feesChecked', { date: formatDay(detail.feesCheckedOn) })
              : t('exchanges.detail.feesUnchecked')}
          </p>
        </section>

        <section className="card" aria-labelledby="cashback-title">
          <h2 id="cashback-title" className="card-title">
            {t('exchanges.detail.cashbackTitle')}
          </h2>
          <dl className="figure-grid">
            <div>
              <dt>{t('exchanges.detail.speedUp', { weeks: detail.speedUpWeeks })}</dt>
              <dd className="figure-strong">
                <Zap size={16} aria-hidden="true" className="accent" />{' '}
                {formatPercent(detail.speedUpCashRate)}
              </dd>
            </div>
            <div>
              <dt>{t('exchanges.detail.basic')}</dt>
              <dd className="figure-strong">{formatPercent(detail.cashRate)}</dd>
            </div>
          </dl>
          <p className="muted small-print">
            {t('exchanges.detail.example', {
              order: formatInteger(EXAMPLE_ORDER_USDT),
              fee: formatUsdt(market.fee),
              cashback: formatUsdt(market.cashback),
            })}
          </p>
        </section>

        <section className="card" aria-labelledby="average-title">
          <h2 id="average-title" className="card-title">
            {t('exchanges.detail.averageTitle')}
          </h2>
          {/* No figure yet is a plain sentence, not the big orange figure: it read like an error (issue 15). */}
          {isZeroAmount(detail.personAvg) ? (
            <p className="detail-average-empty">{t('exchanges.noCashbackYet')}</p>
          ) : (
            <p className="detail-average">
              {t('exchanges.usdtAmount', { amount: formatUsdt(detail.personAvg) })}
            </p>
          )}
          <p className="muted small-print">
            {t('exchanges.detail.averageBody', { days: detail.rankingDays })}
          </p>
        </section>
      </div>

      <section className="card detail-section" aria-labelledby="vip-title">
        <h2 id="vip-title" className="card-title">
          {t('exchanges.detail.vipTitle')}
        </h2>
        <p className="muted">
          {detail.vipTiers.length > 1
            ? t(`exchanges.detail.vipRule.${detail.vipRule}`)
            : t('exchanges.detail.vipRegularOnly', { name: detail.platname })}
        </p>
        {/* Scrolls sideways on a phone: focusable so a keyboard can scroll it too. */}
        <div className="catalog-scroll" role="region" aria-labelledby="vip-title" tabIndex={0}>
          <table className="catalog-table">
            <thead>
              <tr>
                <th scope="col">{t('exchanges.detail.vipLevel')}</th>
                <th scope="col">{t('exchanges.detail.vipVolume')}</th>
                <th scope="col">{t('exchanges.detail.vipAssets')}</th>
                <th scope="col">{t('exchanges.detail.limitOrder')}</th>
                <th scope="col">{t('exchanges.detail.marketOrder')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.vipTiers.map((tier) => (
                <tr key={tier.level}>
                  <th scope="row">{tier.level}</th>
                  <td>
                    {tier.volume30d === null
                      ? t('exchanges.detail.none')
                      : t('exchanges.detail.atLeast', {
                          amount: t('exchanges.usdtAmount', { amount: formatInteger(tier.volume30d) }),
                        })}
                  </td>
                  <td>
                    {tier.asset === null
                      ? t('exchanges.detail.none')
                      : t('exchanges.detail.atLeast', {
                          amount: `${formatInteger(tier.asset.amount)} ${tier.asset.symbol}`,
                        })}
                  </td>
                  <td>{formatPercent(tier.limitPrice)}</td>
                  <td>{formatPercent(tier.marketPrice)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card detail-section" aria-labelledby="ranking-30-title">
        <h2 id="ranking-30-title" className="card-title">
          <Trophy size={20} aria-hidden="true" className="accent" />{' '}
          {t('exchanges.detail.rankingTitle', { days: detail.rankingDays })}
        </h2>
        {detail.ranking.length === 0 ? (
          <p className="muted">{t('exchanges.detail.rankingEmpty')}</p>
        ) : (
          <div className="catalog-scroll" role="region" aria-labelledby="ranking-30-title" tabIndex={0}>
            <table className="catalog-table">
              <thead>
                <tr>
                  <th scope="col">{t('exchanges.columns.rank')}</th>
                  <th scope="col">{t('exchanges.detail.uid')}</th>
                  <th scope="col">{t('exchanges.detail.cashbackAmount')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.ranking.map((row) => (
                  <tr key={row.rank}>
                    <td className="rank-cell">{row.rank}</td>
                    <td className="mono">{row.uid}</td>
                    <td>{t('exchanges.usdtAmount', { amount: formatUsdt(row.amount) })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {detail.activities.length > 0 ? (
        <section className="card detail-section" aria-labelledby="detail-activities-title">
          <h2 id="detail-activities-title" className="card-title">
            {t('exchanges.detail.activitiesTitle')}
          </h2>
          <ul className="link-list">
            {detail.activities.map((activity) => (
              <li key={activity.activityUrl}>
                <a href={activity.activityUrl} target="_blank" rel="noopener noreferrer">
                  {activity.title}
                  <ExternalLink size={14} aria-hidden="true" />
                  <span className="visually-hidden"> {t('common.opensInNewWindow')}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <SignupDialog exchange={signupOpen ? signupExchange : null} onClose={() => setSignupOpen(false)} />
    </Page>
  );
}
