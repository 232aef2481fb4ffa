import {
  CALCULATOR,
  type CashbackEstimateResponse,
  DECIMALS,
  type ExchangeDictionaryEntry,
  fromScaled,
  LEVERAGE,
  leverageSchema,
  seedUsdtSchema,
  TRADE_FREQUENCIES,
  TRADES_PER_DAY_TENTHS,
  type TradeFrequency,
  toScaled,
} from '@elex/contract';
import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, Calculator, RotateCcw } from 'lucide-react';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isExchangeListUnavailable, useOpenExchangeList } from '../../shared/exchanges/exchange-dictionary';
import { ExchangeListLoadError } from '../../shared/exchanges/exchange-list-load-error';
import { ExchangeLogo } from '../../shared/exchanges/exchange-logo';
import { formatDecimal, formatInteger, formatPercent, formatUsdt } from '../../shared/exchanges/format';
import { exchangeDetailHref } from '../../shared/exchanges/paths';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { estimateCashback } from './api/estimate-cashback';
import './calculator.css';

const ComparisonChart = lazy(() => import('./components/comparison-chart'));

const STEPS = ['exchange', 'leverage', 'seed', 'frequency'] as const;
type Step = (typeof STEPS)[number];

interface Answers {
  platId: number | null;
  leverage: string;
  seed: string;
  frequency: TradeFrequency | null;
}

type Phase =
  | { kind: 'step'; step: Step }
  | { kind: 'result'; answers: Answers; estimate: CashbackEstimateResponse };

/** The mean of the maker and the taker fee, exact (one more decimal than the fees carry). */
function meanFee(exchange: ExchangeDictionaryEntry): string {
  const sum =
    toScaled(exchange.limitPrice, DECIMALS.feePercent) + toScaled(exchange.marketPrice, DECIMALS.feePercent);
  return fromScaled((sum * 10n) / 2n, DECIMALS.feePercent + 1);
}

/** spec section 2: four steps, a loading state, then the estimated 30-day and 6-month cashback. */
export default function CalculatorPage() {
  const { t } = useTranslation();
  const list = useOpenExchangeList();
  const exchanges = list.data ?? [];
  const [phase, setPhase] = useState<Phase>({ kind: 'step', step: 'exchange' });
  const [answers, setAnswers] = useState<Answers>({
    platId: null,
    leverage: '10',
    seed: '',
    frequency: null,
  });
  const [error, setError] = useState<string | null>(null);
  const estimate = useMutation({ mutationFn: estimateCashback });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  // Each new step or the result takes focus, so a screen reader announces where the user is.
  const phaseKey = phase.kind === 'step' ? phase.step : 'result';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the phase and the pending state are what should move focus
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [phaseKey, estimate.isPending]);

  const stepIndex = phase.kind === 'step' ? STEPS.indexOf(phase.step) : STEPS.length;

  /** Checks the current step with the contract's rules; answers the message to show, or null. */
  const check = (step: Step): string | null => {
    if (step === 'exchange') return answers.platId === null ? t('msg:exchangeRequired') : null;
    if (step === 'leverage') {
      const result = leverageSchema.safeParse(answers.leverage.trim());
      return result.success ? null : t(`msg:${result.error.issues[0]?.message ?? 'leverageRange'}`);
    }
    if (step === 'seed') {
      const result = seedUsdtSchema.safeParse(answers.seed);
      return result.success ? null : t(`msg:${result.error.issues[0]?.message ?? 'seedInvalid'}`);
    }
    return answers.frequency === null ? t('msg:frequencyRequired') : null;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase.kind !== 'step') return;
    const problem = check(phase.step);
    setError(problem);
    if (problem) return;
    const next = STEPS[stepIndex + 1];
    if (next) return setPhase({ kind: 'step', step: next });
    try {
      const result = await estimate.mutateAsync({
        platId: answers.platId ?? 0,
        leverage: leverageSchema.parse(answers.leverage.trim()),
        seed: answers.seed,
        frequency: answers.frequency ?? 'onceOrLess',
      });
      setPhase({ kind: 'result', answers, estimate: result });
    } catch {
      // The API client showed the reason; the answers stay for another try.
    }
  };

  const back = () => {
    setError(null);
    const previous = STEPS[stepIndex - 1];
    if (previous) setPhase({ kind: 'step', step: previous });
  };

  return (
    <Page title={t('pages.calculator.title')} intro={t('pages.calculator.intro')}>
      <p className="analysed-users">
        {t('calculator.analysedUsers', { count: formatInteger(String(CALCULATOR.analysedUsers)) })}
      </p>
      <ol className="stepper" aria-label={t('calculator.stepsLabel')}>
        {STEPS.map((step, index) => (
          <li key={step} aria-current={phase.kind === 'step' && phase.step === step ? 'step' : undefined}>
            <span className="stepper-number" aria-hidden="true">
              {index + 1}
            </span>
            {t(`calculator.stepNames.${step}`)}
            {index < stepIndex ? <span className="visually-hidden"> {t('calculator.stepDone')}</span> : null}
          </li>
        ))}
      </ol>

      {estimate.isPending ? (
        <div className="card calculator-loading" role="status">
          <h2 ref={headingRef} tabIndex={-1}>
            {t('calculator.loading')}
          </h2>
          {/* The card is the live region; the shimmer is decoration. */}
          <div className="skeleton" aria-hidden="true">
            <div className="skeleton-line" />
            <div className="skeleton-line" />
            <div className="skeleton-line" />
          </div>
        </div>
      ) : phase.kind === 'result' ? (
        <CalculatorResult
          headingRef={headingRef}
          phase={phase}
          exchanges={exchanges}
          onRestart={() => {
            setError(null);
            setPhase({ kind: 'step', step: 'exchange' });
          }}
        />
      ) : (
        <form className="card calculator-form" noValidate onSubmit={(event) => void onSubmit(event)}>
          <fieldset className="calculator-step" aria-describedby={error ? 'calculator-error' : undefined}>
            <legend>
              <h2 ref={headingRef} tabIndex={-1} className="calculator-question">
                {t('calculator.stepCounter', { index: stepIndex + 1, total: STEPS.length })}{' '}
                {t(`calculator.questions.${phase.step}`)}
              </h2>
            </legend>

            {phase.step === 'exchange' ? (
              list.isPending ? (
                <Skeleton lines={3} />
              ) : isExchangeListUnavailable(list) ? (
                <ExchangeListLoadError list={list} />
              ) : (
                <div className="choice-grid">
                  {exchanges.map((exchange) => (
                    <label key={exchange.id} className="choice-card">
                      <input
                        type="radio"
                        name="exchange"
                        value={exchange.id}
                        checked={answers.platId === exchange.id}
                        onChange={() => setAnswers({ ...answers, platId: exchange.id })}
                      />
                      <ExchangeLogo logo={exchange.logo} name={exchange.name} size={28} decorative />
                      <span>{exchange.name}</span>
                    </label>
                  ))}
                </div>
              )
            ) : null}

            {phase.step === 'leverage' ? (
              <div className="field">
                <label htmlFor="calculator-leverage">{t('calculator.leverageLabel')}</label>
                <div className="leverage-row">
                  <input
                    type="range"
                    min={LEVERAGE.min}
                    max={LEVERAGE.max}
                    value={Number(answers.leverage) || LEVERAGE.min}
                    aria-label={t('calculator.leverageSlider')}
                    onChange={(event) => setAnswers({ ...answers, leverage: event.target.value })}
                  />
                  <input
                    id="calculator-leverage"
                    className="leverage-input"
                    type="number"
                    inputMode="numeric"
                    min={LEVERAGE.min}
                    max={LEVERAGE.max}
                    step={1}
                    value={answers.leverage}
                    aria-invalid={error ? true : undefined}
                    onChange={(event) => setAnswers({ ...answers, leverage: event.target.value })}
                  />
                </div>
                <p className="muted field-hint">{t('calculator.leverageHint', LEVERAGE)}</p>
              </div>
            ) : null}

            {phase.step === 'seed' ? (
              <div className="field">
                <label htmlFor="calculator-seed">{t('calculator.seedLabel')}</label>
                <div className="input-with-unit">
                  <input
                    id="calculator-seed"
                    inputMode="decimal"
                    autoComplete="off"
                    value={answers.seed}
                    placeholder={t('calculator.seedPlaceholder')}
                    aria-invalid={error ? true : undefined}
                    onChange={(event) => setAnswers({ ...answers, seed: event.target.value })}
                  />
                  <span className="input-unit" aria-hidden="true">
                    {t('calculator.usdt')}
                  </span>
                </div>
                <p className="muted field-hint">{t('calculator.seedHint')}</p>
              </div>
            ) : null}

            {phase.step === 'frequency' ? (
              <div className="choice-list">
                {TRADE_FREQUENCIES.map((frequency) => (
                  <label key={frequency} className="choice-card choice-wide">
                    <input
                      type="radio"
                      name="frequency"
                      value={frequency}
                      checked={answers.frequency === frequency}
                      onChange={() => setAnswers({ ...answers, frequency })}
                    />
                    <span>{t(`calculator.frequencies.${frequency}`)}</span>
                  </label>
                ))}
              </div>
            ) : null}

            {error ? (
              <p id="calculator-error" className="field-error" role="alert">
                {error}
              </p>
            ) : null}
          </fieldset>

          <div className="calculator-actions">
            {stepIndex > 0 ? (
              <button type="button" className="button button-ghost" onClick={back}>
                <ArrowLeft size={18} aria-hidden="true" />
                {t('calculator.back')}
              </button>
            ) : (
              <span />
            )}
            <button type="submit" className="button button-primary">
              {phase.step === 'frequency' ? (
                <>
                  <Calculator size={18} aria-hidden="true" />
                  {t('calculator.calculate')}
                </>
              ) : (
                <>
                  {t('calculator.next')}
                  <ArrowRight size={18} aria-hidden="true" />
                </>
              )}
            </button>
          </div>
        </form>
      )}
    </Page>
  );
}

function CalculatorResult({
  phase,
  exchanges,
  headingRef,
  onRestart,
}: {
  phase: Extract<Phase, { kind: 'result' }>;
  exchanges: readonly ExchangeDictionaryEntry[];
  headingRef: React.RefObject<HTMLHeadingElement | null>;
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
        {exchange ? (
          <p className="formula">
            {t('calculator.formula', {
              trades: formatDecimal(fromScaled(BigInt(TRADES_PER_DAY_TENTHS[frequency]), 1), 1),
              days: CALCULATOR.resultDays,
              seed: formatUsdt(seed),
              leverage,
              fee: formatPercent(meanFee(exchange)),
              cashRate: formatPercent(exchange.cashRate),
              result: formatUsdt(estimate.monthly),
            })}
          </p>
        ) : null}
        <p className="muted small-print">{t('calculator.disclaimer')}</p>
      </div>

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
