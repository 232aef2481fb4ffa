import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../../shared/ui/page';

/** A member opened the console: the server said 'forbidden', and so does the page. */
export function Forbidden() {
  const { t } = useTranslation();
  return (
    <Page title={t('admin.forbidden.title')} intro={t('admin.forbidden.intro')}>
      <div className="card pending-card">
        <ShieldAlert size={22} aria-hidden="true" />
        <p>
          <Link to="/">{t('admin.forbidden.home')}</Link>
        </p>
      </div>
    </Page>
  );
}
