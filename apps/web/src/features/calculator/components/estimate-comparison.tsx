import { CALCULATOR, type CashbackEstimateResponse } from '@elex/contract';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatUsdt } from '../../../shared/exchanges/format';
import { Skeleton } from '../../../shared/ui/skeleton';

const ComparisonChart = lazy(() => import('./comparison-chart'));

/** The same answers at every partner: the chart, and the table that is its accessible form. */
export function EstimateComparison({ estimate }: { estimate: CashbackEstimateResponse }) {
  const { t } = useTranslation();
  return (
    <figure className="card comparison" aria-labelledby="comparison-title">
      <figcaption>
        <h3 id="comparison-title">{t('calculator.compareTitle')}</h3>
        <p className="muted">{t('calculator.compareBody')}</p>
      </figcaption>
      <Suspense fallback={<Skeleton lines={5} />}>
        <ComparisonChart comparisons={estimate.comparisons} chosenPlatId={estimate.platId} />
      </Suspense>
      <details className="comparison-table">
        <summary>{t('calculator.compareTable')}</summary>
        <table className="catalog-table">
          <thead>
            <tr>
              <th scope="col">{t('exchanges.columns.exchange')}</th>
              <th scope="col">{t('calculator.monthly', { days: CALCULATOR.resultDays })}</th>
            </tr>
          </thead>
          <tbody>
            {estimate.comparisons.map((row) => (
              <tr key={row.platId}>
                <th scope="row">{row.platname}</th>
                <td>{t('exchanges.usdtAmount', { amount: formatUsdt(row.monthly) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
