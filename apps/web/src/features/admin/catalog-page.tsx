import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { useCatalog } from './api/get-catalog';
import { LoadError } from './components/load-error';
import { ScrollRegion } from './components/scroll-region';
import { formatTime } from './format';

/** /admin/catalog: the partners in catalog order; each opens its editor. */
export default function CatalogPage() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const catalog = useCatalog();
  return (
    <Page title={t('admin.catalog.title')} intro={t('admin.catalog.intro')} wide>
      {catalog.isError && !catalog.data ? <LoadError onRetry={() => void catalog.refetch()} /> : null}
      {!catalog.data ? (
        catalog.isError ? null : (
          <Skeleton lines={6} />
        )
      ) : isWide ? (
        <ScrollRegion label={t('admin.catalog.title')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.catalog.position')}</th>
                <th scope="col">{t('admin.catalog.name')}</th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.score')}
                </th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.cashRate')}
                </th>
                <th scope="col" className="numeric">
                  {t('admin.catalog.fees')}
                </th>
                <th scope="col">{t('admin.catalog.activities')}</th>
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
                  <td className="numeric">{exchange.score}</td>
                  <td className="numeric">{exchange.cashRate}%</td>
                  <td className="numeric">
                    {exchange.limitPrice}% / {exchange.marketPrice}%
                  </td>
                  <td>{exchange.activities.length}</td>
                  <td>{exchange.feesCheckedOn ?? t('admin.catalog.notChecked')}</td>
                  <td>{formatTime(exchange.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <ul className="card entry-list">
          {catalog.data.exchanges.map((exchange) => (
            <li key={exchange.platId}>
              <span className="admin-exchange">
                <img src={exchange.logo} alt="" width={28} height={28} />
                <Link className="entry-title" to={`/admin/catalog/${exchange.platId}`}>
                  {exchange.name}
                </Link>
              </span>
              <span className="entry-amount">{exchange.cashRate}%</span>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
