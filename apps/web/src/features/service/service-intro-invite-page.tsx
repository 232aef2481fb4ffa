import { PATHS } from '@elex/contract';
import { Gift, Share2, UserPlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsLoggedIn } from '../../shared/hooks/use-is-logged-in';
import { SERVICE_VALUES } from '../../shared/service-values';
import { Page } from '../../shared/ui/page';
import { ServiceNav, useSections } from './service-nav';
import './service.css';

const ICONS = [Share2, UserPlus, Gift];

/** /serviceIntroInvite: the invite programme. Reward values live on the member's invite page. */
export default function ServiceIntroInvitePage() {
  const { t } = useTranslation();
  const isLoggedIn = useIsLoggedIn();
  const steps = useSections('service.invite.steps', SERVICE_VALUES);
  const rules = useSections('service.invite.rules', SERVICE_VALUES);
  return (
    <Page title={t('pages.serviceIntroInvite.title')} intro={t('pages.serviceIntroInvite.intro')}>
      <ServiceNav />
      <ol className="card-grid">
        {steps.map((step, index) => {
          const Icon = ICONS[index] ?? Gift;
          return (
            <li key={step.title} className="card">
              <Icon size={22} aria-hidden="true" className="accent" />
              <h2>{step.title}</h2>
              <p className="muted">{step.body}</p>
            </li>
          );
        })}
      </ol>
      <div className="article">
        {rules.map((rule) => (
          <section key={rule.title}>
            <h2>{rule.title}</h2>
            <p>{rule.body}</p>
          </section>
        ))}
      </div>
      <div className="service-actions">
        <Link to={isLoggedIn ? PATHS.myPageMakeFriend : PATHS.register} className="button button-primary">
          {isLoggedIn ? t('service.invite.ctaMember') : t('service.invite.ctaVisitor')}
        </Link>
      </div>
    </Page>
  );
}
