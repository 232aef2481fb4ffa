import { PATHS } from '@elex/contract';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';

export function BrandLink() {
  const { t } = useTranslation();
  return (
    <Link to={PATHS.home} className="brand">
      <svg viewBox="0 0 64 64" width="28" height="28" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="#f5b83d" />
        <path d="M18 18h28v7H26v4h17v6H26v4h20v7H18z" fill="#0b0f17" />
      </svg>
      <span>{t('brand.name')}</span>
    </Link>
  );
}
