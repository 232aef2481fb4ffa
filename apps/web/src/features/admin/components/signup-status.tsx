import { type CatalogExchange, signupProblems } from '@elex/contract';
import { useTranslation } from 'react-i18next';

/** Whether traders can be offered this partner's sign-up link, and if not, why (catalog, dashboard). */
export function SignupStatus({
  exchange,
}: {
  exchange: Pick<CatalogExchange, 'referralCode' | 'signupUrlTemplate'>;
}) {
  const { t } = useTranslation();
  const problems = signupProblems(exchange);
  if (problems.length === 0)
    return <span className="status status-completed">{t('admin.catalog.signupReady')}</span>;
  return (
    <span className="status status-pending">
      {problems.map((problem) => t(`admin.catalog.signupProblems.${problem}`)).join(' · ')}
    </span>
  );
}
