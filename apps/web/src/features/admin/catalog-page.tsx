import { FEE_CHECK_MAX_AGE_DAYS, PLACEHOLDER_REFERRAL_CODE } from '@elex/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { catalogQuery, useCatalog } from './api/get-catalog';
import { AddExchangeButton, ExchangeStatusBadge } from './components/exchange-lifecycle';
import { LoadError } from './components/load-error';
import { ScrollRegion } from './components/scroll-region';
import { SignupStatus } from './components/signup-status';
import { formatDay } from './format';
import { type CatalogLaunchChecks, catalogLaunchChecks, hasLaunchChecks } from './launch-checks';

/** The partners an operator must still fix before launch, one line per kind of problem. */
function LaunchChecks({ checks }: { checks: CatalogLaunchChecks }) {
  const { t, i18n } = useTranslation();
  if (!hasLaunchChecks(checks)) return null;
  const names = (list: string[]) =>
    new Intl.ListFormat(i18n.language, { style: 'long', type: 'conjunction' }).format(list);
  const lines = [
    checks.placeholderCode.length > 0
      ? t('admin.catalog.checks.placeholderCode', {
          code: PLACEHOLDER_REFERRAL_CODE,
          names: names(checks.placeholderCode),
        })
      : null,
    checks.missingTemplate.length > 0
      ? t('admin.catalog.checks.missingTemplate', { names: names(checks.missingTemplate) })
      : null,
    checks.feesUnchecked.length > 0
      ? t('admin.catalog.checks.feesUnchecked', { names: names(checks.feesUnchecked) })
      : null,
    checks.feesStale.length > 0
      ? t('admin.catalog.checks.feesStale', { days: FEE_CHECK_MAX_AGE_DAYS, names: names(checks.feesStale) })
      : null,
  ].filter((line): line is string => line !== null);
  return (
    <section className="card notice launch-checks" aria-labelledby="launch-checks-title">
      <h2 id="launch-checks-title">{t('admin.catalog.checks.title')}</h2>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

/** /admin/catalog: what still needs fixing, then the partners in catalog order; each opens its editor. */
export default function CatalogPage() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const catalog = useCatalog();
  const client = useQueryClient();
  // Launch checks concern what traders can see: a retired partner is off the lists.
  const offered = catalog.data?.exchanges.filter((exchange) => exchange.status !== 'retired') ?? [];
  return (
    <Page title={t('admin.catalog.title')} intro={t('admin.catalog.intro')} wide>
      <p className="admin-actions">
        <AddExchangeButton onCreated={() => client.invalidateQueries({ queryKey: catalogQuery.queryKey })} />
      </p>
      {catalog.isError && !catalog.data ? <LoadError onRetry={() => void catalog.refetch()} /> : null}
      {catalog.data ? <LaunchChecks checks={catalogLaunchChecks(offered, new Date())} /> : null}
      {!catalog.data ? (
        catalog.isError ? null : (
          <Skeleton lines={6} />
        )
      ) : isWide ? (
        <ScrollRegion label={t('admin.catalog.title')}>
          <table className="data-table admin-compact admin-fit admin-catalog-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.catalog.position')}</th>
                <th scope="col">{t('admin.catalog.name')}</th>
                <th scope="col">{t('admin.lifecycle.status')}</th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.score')}
                </th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.cashRate')}
                </th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.fees')}
                </th>
                <th scope="col">{t('admin.catalog.signupLink')}</th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.activities')}
                </th>
                <th scope="col">{t('admin.catalog.feesCheckedOn')}</th>
                <th scope="col">{t('admin.catalog.updatedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {catalog.data.exchanges.map((exchange) => (
                <tr key={exchange.platId}>
                  <td className="numeric">{exchange.position}</td>
                  <td>
                    <span className="admin-exchange">
                      <img src={exchange.logo} alt="" width={24} height={24} />
                      <Link to={`/admin/catalog/${exchange.platId}`}>{exchange.name}</Link>
                    </span>
                  </td>
                  <td>
                    <ExchangeStatusBadge status={exchange.status} />
                  </td>
                  <td className="numeric">{exchange.score}</td>
                  <td className="numeric">{exchange.cashRate}%</td>
                  <td className="numeric">
                    <span className="admin-stacked">{exchange.limitPrice}% /</span>
                    <span className="admin-stacked">{exchange.marketPrice}%</span>
                  </td>
                  <td className="admin-signup">
                    <SignupStatus exchange={exchange} />
                  </td>
                  <td className="numeric">{exchange.activities.length}</td>
                  <td className="admin-day">
                    {exchange.feesCheckedOn
                      ? formatDay(exchange.feesCheckedOn)
                      : t('admin.catalog.notChecked')}
                  </td>
                  {/* The day is enough beside the others; the editor shows the time. */}
                  <td className="admin-day">{formatDay(exchange.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <ul className="card entry-list admin-catalog-list">
          {catalog.data.exchanges.map((exchange) => (
            <li key={exchange.platId}>
              <span className="admin-exchange">
                <img src={exchange.logo} alt="" width={28} height={28} />
                <Link className="entry-title" to={`/admin/catalog/${exchange.platId}`}>
                  {exchange.name}
                </Link>
              </span>
              <ExchangeStatusBadge status={exchange.status} />
              <SignupStatus exchange={exchange} />
              <span className="entry-amount">{exchange.cashRate}%</span>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
