import { PATHS } from '@elex/contract';
import { BadgePercent, Calculator, Eye, LineChart, Link2, ShieldCheck, Store, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SERVICE_VALUES } from '../../shared/service-values';
import { Page } from '../../shared/ui/page';
import { ServiceNav, useSections } from './service-nav';
import './service.css';

const STEP_ICONS = [Store, Link2, LineChart, BadgePercent, Wallet];
const WHY_ICONS = [Eye, ShieldCheck, Wallet];

/** /serviceIntro: how cashback works, from signing up at an exchange to withdrawing USDT. */
export default function ServiceIntroPage() {
  const { t } = useTranslation();
  const steps = useSections('service.intro.steps', SERVICE_VALUES);
  const why = useSections('service.intro.why', SERVICE_VALUES);
  return (
    <Page title={t('pages.serviceIntro.title')} intro={t('pages.serviceIntro.intro')}>
      <ServiceNav />
      <section aria-labelledby="service-steps-title">
        <h2 id="service-steps-title">{t('service.intro.stepsTitle')}</h2>
        <ol className="timeline">
          {steps.map((step, index) => {
            const Icon = STEP_ICONS[index] ?? BadgePercent;
            return (
              <li key={step.title} className="timeline-item">
                <span className="timeline-marker" aria-hidden="true">
                  <Icon size={18} />
                </span>
                <div>
                  <h3>{step.title}</h3>
                  <p>{step.body}</p>
                </div>
              </li>
            );
          })}
        </ol>
      </section>
      <section aria-labelledby="service-why-title" className="service-why">
        <h2 id="service-why-title">{t('service.intro.whyTitle')}</h2>
        <ul className="card-grid">
          {why.map((item, index) => {
            const Icon = WHY_ICONS[index] ?? Eye;
            return (
              <li key={item.title} className="card">
                <Icon size={22} aria-hidden="true" className="accent" />
                <h3>{item.title}</h3>
                <p className="muted">{item.body}</p>
              </li>
            );
          })}
        </ul>
      </section>
      <div className="service-actions">
        <Link to={PATHS.calculator} className="button button-primary">
          <Calculator size={18} aria-hidden="true" />
          {t('service.intro.ctaCalculator')}
        </Link>
        <Link to={PATHS.exchange} className="button button-ghost">
          {t('service.intro.ctaPartners')}
        </Link>
        <Link to={PATHS.serviceIntroMore} className="button button-ghost">
          {t('service.intro.ctaMore')}
        </Link>
      </div>
    </Page>
  );
}
