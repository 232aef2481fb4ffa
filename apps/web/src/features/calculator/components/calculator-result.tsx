import {
  CALCULATOR,
  type ExchangeDictionaryEntry,
  fromScaled,
  leverageSchema,
  seedUsdtSchema,
  TRADES_PER_DAY_TENTHS,
} from '@elex/contract';
import { ArrowRight, RotateCcw } from 'lucide-react';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDecimal, formatInteger, formatPercent, formatUsdt } from '../../../shared/exchanges/format';
import { exchangeDetailHref } from '../../../shared/exchanges/paths';
import type { Phase } from '../calculator-steps';
import { meanFee } from '../mean-fee';
import { EstimateComparison } from './estimate-comparison';
import { NewTraderEstimate, regularFromDay } from './new-trader-estimate';

/** The estimate: the 30-day and 6-month figures with their formula, the answers, the comparison. */
export function CalculatorResult({
  phase,
  exchanges,
  headingRef,
  onRestart,
}: {
  phase: Extract<Phase, { kind: 'result' }>;
  exchanges: readonly ExchangeDictionaryEntry[];
  headingRef: RefObject<HTMLHeadingElement | null>;
  onRestart(): void;
}) {
  const { t } = useTranslation();
  const { answers, estimate } = phase;
  const exchange = exchanges.find((entry) => entry.id === estimate.platId);
  const frequency = answers.frequency ?? 'onceOrLess';
  const seed = seedUsdtSchema.parse(answers.seed);
  // As a number, whatever was typed ("020", "20.0" and "2e1" all pass the rule and mean 20).
  const leverage = formatInteger(String(leverageSchema.parse(answers.leverage.trim())));
  const exchangeName = exchange?.name ?? '';
  return (
    <section className="calculator-result" aria-labelledby="calculator-result-title">
      <div className="card result-hero">
        <h2 id="calculator-result-title" ref={headingRef} tabIndex={-1}>
          {t('calculator.resultTitle', { name: exchangeName })}
        </h2>
        <div className="result-figures">
          <div>
            <p className="muted">{t('calculator.monthly', { days: CALCULATOR.resultDays })}</p>
            <p className="result-figure">
              {t('exchanges.usdtAmount', { amount: formatUsdt(estimate.monthly) })}
            </p>
          </div>
          <div>
            <p className="muted">{t('calculator.sixMonths', { months: CALCULATOR.longTermMonths })}</p>
            <p className="result-figure result-figure-secondary">
              {t('exchanges.usdtAmount', { amount: formatUsdt(estimate.sixMonths) })}
            </p>
          </div>
        </div>
        <p className="muted small-print">
          {t('calculator.regularNote', {
            days: CALCULATOR.resultDays,
            discountDays: regularFromDay(estimate),
          })}
        </p>
        {exchange ? (
          <p className="formula">
            {t('calculator.formula', {
              trades: formatDecimal(fromScaled(BigInt(TRADES_PER_DAY_TENTHS[frequency]), 1), 1),
              days: CALCULATOR.resultDays,
              seed: formatUsdt(seed),
              leverage,
              // The rates the server computed with (a VIP level's fees when the volume reaches one),
              // not the dictionary's, which may be older than the estimate.
              fee: formatPercent(meanFee(estimate)),
              cashRate: formatPercent(estimate.cashRate),
              result: formatUsdt(estimate.monthly),
            })}
          </p>
        ) : null}
        {estimate.commissionShare !== null ? (
          <p className="muted small-print">
            {t('calculator.commissionCapNote', { rate: formatPercent(estimate.commissionShare) })}
          </p>
        ) : null}
        {estimate.vipLevel ? (
          <p className="muted small-print">{t('calculator.vipLevelNote', { level: estimate.vipLevel })}</p>
        ) : null}
        <p className="muted small-print">{t('calculator.disclaimer')}</p>
      </div>

      <NewTraderEstimate estimate={estimate} />

      <div className="card">
        <h3>{t('calculator.summaryTitle')}</h3>
        <dl className="figure-grid summary-grid">
          <div>
            <dt>{t('calculator.stepNames.exchange')}</dt>
            <dd>{exchangeName}</dd>
          </div>
          <div>
            <dt>{t('calculator.stepNames.leverage')}</dt>
            <dd>{t('calculator.leverageValue', { leverage })}</dd>
          </div>
          <div>
            <dt>{t('calculator.stepNames.seed')}</dt>
            <dd>{t('exchanges.usdtAmount', { amount: formatUsdt(seed) })}</dd>
          </div>
          <div>
            <dt>{t('calculator.stepNames.frequency')}</dt>
            <dd>{t(`calculator.frequencies.${frequency}`)}</dd>
          </div>
        </dl>
      </div>

      <EstimateComparison estimate={estimate} />

      <div className="calculator-actions">
        <button type="button" className="button button-ghost" onClick={onRestart}>
          <RotateCcw size={18} aria-hidden="true" />
          {t('calculator.restart')}
        </button>
        {exchange ? (
          <Link to={exchangeDetailHref(exchange.id)} className="button button-primary">
            {t('calculator.signupAt', { name: exchange.name })}
            <ArrowRight size={18} aria-hidden="true" />
          </Link>
        ) : null}
      </div>
    </section>
  );
}
