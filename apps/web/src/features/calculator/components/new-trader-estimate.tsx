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
        {/* A speed-up rate capped down to the basic one is no speed-up: the note leaves it out. */}
        {compareDecimals(newTrader.speedUpCashRate, estimate.cashRate) > 0
          ? t('calculator.newTraderNote', {
              speedUpDays: newTrader.speedUpDays,
              speedUpRate: formatPercent(newTrader.speedUpCashRate),
              cashRate: formatPercent(estimate.cashRate),
              discountDays: newTrader.discountDays,
              discount: newTrader.discountPercent,
            })
          : t('calculator.newTraderDiscountNote', {
              discountDays: newTrader.discountDays,
              discount: newTrader.discountPercent,
            })}
      </p>
    </section>
  );
}
