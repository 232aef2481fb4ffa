import { PATHS } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SERVICE_VALUES } from '../../shared/service-values';
import { Page } from '../../shared/ui/page';
import { ServiceNav, useSections } from './service-nav';
import './service.css';

/** /serviceIntroMore: fees, timing and payouts, with the figures of spec section 9. */
export default function ServiceIntroMorePage() {
  const { t } = useTranslation();
  const sections = useSections('service.more.sections', SERVICE_VALUES);
  const faq = useSections('service.more.faq', SERVICE_VALUES);
  return (
    <Page title={t('pages.serviceIntroMore.title')} intro={t('pages.serviceIntroMore.intro')}>
      <ServiceNav />
      <dl className="key-figures">
        {(['minimum', 'review', 'segments', 'lock'] as const).map((key) => (
          <div key={key} className="card">
            <dt>{t(`service.more.figures.${key}.label`)}</dt>
            <dd>{t(`service.more.figures.${key}.value`, SERVICE_VALUES)}</dd>
          </div>
        ))}
      </dl>
      <div className="article">
        {sections.map((section) => (
          <section key={section.title}>
            <h2>{section.title}</h2>
            <p>{section.body}</p>
          </section>
        ))}
      </div>
      <section aria-labelledby="faq-title" className="faq">
        <h2 id="faq-title">{t('service.more.faqTitle')}</h2>
        {faq.map((item) => (
          <details key={item.title} className="card faq-item">
            <summary>{item.title}</summary>
            <p>{item.body}</p>
          </details>
        ))}
      </section>
      <div className="service-actions">
        <Link to={PATHS.serviceIntroInvite} className="button button-ghost">
          {t('service.more.ctaInvite')}
        </Link>
      </div>
    </Page>
  );
}
