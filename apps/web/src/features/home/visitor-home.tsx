import { HOME, PATHS } from '@elex/contract';
import { ArrowRight, BadgePercent, Link2, Wallet } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router';
import { whenFirstPainted } from '../../shared/after-first-paint';
import { deferredComponent, useDeferredComponent } from '../../shared/deferred-component';
import {
  isExchangeListUnavailable,
  useOpenExchangesOnFirstPaint,
} from '../../shared/exchanges/exchange-dictionary';
import { ExchangeListLoadError } from '../../shared/exchanges/exchange-list-load-error';
import { useIsLoggedIn } from '../../shared/hooks/use-is-logged-in';
import { useTranslation } from '../../shared/i18n/use-translation';
import { requestExchangeIndexEarly } from '../../shared/queries/exchange-index-request';
import { useQueryClientIfLoaded } from '../../shared/queries/query-client-source';
import { SERVICE_VALUES } from '../../shared/service-values';
import { Page } from '../../shared/ui/page';
import { ShowcaseSkeleton } from './components/showcase-skeleton';
import { UidSearchForm } from './components/uid-search-form';

// Its sliders and tabs show with the exchange list, so their code (and TanStack Query's) loads beside
// its request.
const exchangeShowcase = deferredComponent(() => import('./exchange-showcase'));

const STEPS = [
  { key: 'step1', Icon: BadgePercent },
  { key: 'step2', Icon: Link2 },
  { key: 'step3', Icon: Wallet },
] as const;

/**
 * The home page as a visitor sees it (spec section 2); a member's balances (`memberSummary`) come
 * first, above the search and the rankings.
 */
export function VisitorHome({ memberSummary }: { memberSummary?: ReactNode }) {
  const { t } = useTranslation();
  const isLoggedIn = useIsLoggedIn();
  const dictionary = useOpenExchangesOnFirstPaint();
  const ExchangeShowcase = useDeferredComponent(exchangeShowcase);
  const isQueryLoaded = useQueryClientIfLoaded() !== undefined;
  useEffect(() => {
    // Once TanStack Query is in, the showcase's query asks (or answers from its cache) at once.
    if (!isQueryLoaded) void whenFirstPainted().then(requestExchangeIndexEarly);
  }, [isQueryLoaded]);

  return (
    <Page title={t('home.title')} intro={t('home.heroLead')} wide>
      {memberSummary}
      {isExchangeListUnavailable(dictionary) ? (
        <ExchangeListLoadError list={dictionary} message={t('homePublic.searchUnavailable')} />
      ) : (
        <UidSearchForm exchanges={dictionary.data ?? []} />
      )}

      <section className="hero-banner" aria-labelledby="average-rebate">
        <p id="average-rebate" className="hero-figure">
          {t('home.averageRebate', { amount: HOME.averageMonthlyRebateUsd })}
        </p>
        <div className="hero-actions">
          <Link to={isLoggedIn ? PATHS.uidLinking : PATHS.register} className="button button-primary">
            {t('home.ctaRegister')}
          </Link>
          <Link to={PATHS.calculator} className="button button-ghost">
            {t('home.ctaCalculator')}
          </Link>
        </div>
      </section>

      {ExchangeShowcase ? <ExchangeShowcase pending={<ShowcaseSkeleton />} /> : <ShowcaseSkeleton />}

      <section className="steps" aria-labelledby="steps-title">
        <h2 id="steps-title">{t('home.stepsTitle')}</h2>
        <ol className="step-list">
          {STEPS.map(({ key, Icon }) => (
            <li key={key} className="card step">
              <Icon size={26} aria-hidden="true" className="accent" />
              <h3>{t(`home.${key}Title`)}</h3>
              <p>{t(`home.${key}Body`, SERVICE_VALUES)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="calculator-banner card" aria-labelledby="calculator-banner-title">
        <div>
          <h2 id="calculator-banner-title">{t('home.calculatorBannerTitle')}</h2>
          <p>{t('home.calculatorBannerBody')}</p>
        </div>
        <Link to={PATHS.calculator} className="button button-primary">
          {t('home.calculatorBannerCta')}
          <ArrowRight size={18} aria-hidden="true" />
        </Link>
      </section>
    </Page>
  );
}
