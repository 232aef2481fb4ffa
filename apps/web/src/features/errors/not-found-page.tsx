import { PATHS } from '@elex/contract';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { Page } from '../../shared/ui/page';
import './errors.css';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('notFound.title')} intro={t('notFound.body')}>
      <p className="big-code" aria-hidden="true">
        404
      </p>
      <Link to={PATHS.home} className="button button-primary">
        {t('notFound.backHome')}
      </Link>
    </Page>
  );
}
