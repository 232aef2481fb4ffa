import { CALCULATOR, type CashbackEstimateResponse, compareDecimals } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { formatPercent, formatUsdt } from '../../../shared/exchanges/format';

/**
 * What a trader who signs up now gets in the first 30 days and 6 months (spec: speed-up cashback for 3
 * weeks, fees 20 % lower for 90 days), beside the regular figures: every account that earns cashback
 * was opened with our code, so every trader starts here (docs/calculator.md).
 */
export function NewTraderEstimate({ estimate }: { estimate: CashbackEstimateResponse }) {
  const { t } = useTranslation();
  const { newTrader } = estimate;
  // A speed-up rate capped down to the basic one is no speed-up; a partner may offer no discount.
  const speedUp = compareDecimals(newTrader.speedUpCashRate, estimate.cashRate) > 0;
  const discount = hasDiscount(estimate);
  // Neither: a new trader's figures are the regular ones, and a second box would only repeat them.
  if (!speedUp && !discount) return null;
  const speedUpTerms = {
    speedUpDays: newTrader.speedUpDays,
    speedUpRate: formatPercent(newTrader.speedUpCashRate),
    cashRate: formatPercent(estimate.cashRate),
  };
  const discountTerms = { discountDays: newTrader.discountDays, discount: newTrader.discountPercent };
  return (
    <section className="card" aria-labelledby="calculator-new-trader-title">
      <h3 id="calculator-new-trader-title">{t('calculator.newTraderTitle')}</h3>
      <dl className="figure-grid summary-grid">
        <div>
          <dt>{t('calculator.newTraderMonthly', { days: CALCULATOR.resultDays })}</dt>
          <dd>{t('exchanges.usdtAmount', { amount: formatUsdt(newTrader.monthly) })}</dd>
        </div>
        <div>
          <dt>{t('calculator.newTraderSixMonths', { months: CALCULATOR.longTermMonths })}</dt>
          <dd>{t('exchanges.usdtAmount', { amount: formatUsdt(newTrader.sixMonths) })}</dd>
        </div>
      </dl>
      <p className="muted small-print">
        {speedUp && discount
          ? t('calculator.newTraderNote', { ...speedUpTerms, ...discountTerms })
          : speedUp
            ? t('calculator.newTraderSpeedUpNote', speedUpTerms)
            : t('calculator.newTraderDiscountNote', discountTerms)}
      </p>
    </section>
  );
}

/** Whether the partner lowers a new trader's fees at all (an operator may set 0 % or 0 days). */
function hasDiscount({ newTrader }: CashbackEstimateResponse): boolean {
  return newTrader.discountPercent > 0 && newTrader.discountDays > 0;
}

/** The days after which a trader's figures are the regular ones: the discount's or the speed-up's. */
export function regularFromDay(estimate: CashbackEstimateResponse): number {
  const { newTrader } = estimate;
  return hasDiscount(estimate)
    ? Math.max(newTrader.discountDays, newTrader.speedUpDays)
    : newTrader.speedUpDays;
}
