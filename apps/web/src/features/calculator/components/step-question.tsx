import { type ExchangeDictionaryEntry, LEVERAGE, TRADE_FREQUENCIES } from '@elex/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isExchangeListUnavailable } from '../../../shared/exchanges/exchange-dictionary';
import { ExchangeListLoadError } from '../../../shared/exchanges/exchange-list-load-error';
import { ExchangeLogo } from '../../../shared/exchanges/exchange-logo';
import { Skeleton } from '../../../shared/ui/skeleton';
import type { Answers, Step } from '../calculator-steps';

interface QuestionProps {
  answers: Answers;
  onAnswers(answers: Answers): void;
  /** Whether the step's answer was refused (marks the input invalid). */
  invalid: boolean;
}

function ExchangeQuestion({
  answers,
  onAnswers,
  list,
}: QuestionProps & { list: UseQueryResult<ExchangeDictionaryEntry[]> }) {
  if (list.isPending) return <Skeleton lines={3} />;
  if (isExchangeListUnavailable(list)) return <ExchangeListLoadError list={list} />;
  return (
    <div className="choice-grid">
      {(list.data ?? []).map((exchange) => (
        <label key={exchange.id} className="choice-card">
          <input
            type="radio"
            name="exchange"
            value={exchange.id}
            checked={answers.platId === exchange.id}
            onChange={() => onAnswers({ ...answers, platId: exchange.id })}
          />
          <ExchangeLogo logo={exchange.logo} name={exchange.name} size={28} decorative />
          <span>{exchange.name}</span>
        </label>
      ))}
    </div>
  );
}

function LeverageQuestion({ answers, onAnswers, invalid }: QuestionProps) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor="calculator-leverage">{t('calculator.leverageLabel')}</label>
      <div className="leverage-row">
        <input
          type="range"
          min={LEVERAGE.min}
          max={LEVERAGE.max}
          value={Number(answers.leverage) || LEVERAGE.min}
          aria-label={t('calculator.leverageSlider')}
          onChange={(event) => onAnswers({ ...answers, leverage: event.target.value })}
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
          aria-invalid={invalid ? true : undefined}
          onChange={(event) => onAnswers({ ...answers, leverage: event.target.value })}
        />
      </div>
      <p className="muted field-hint">{t('calculator.leverageHint', LEVERAGE)}</p>
    </div>
  );
}

function SeedQuestion({ answers, onAnswers, invalid }: QuestionProps) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <label htmlFor="calculator-seed">{t('calculator.seedLabel')}</label>
      <div className="input-with-unit">
        <input
          id="calculator-seed"
          inputMode="decimal"
          autoComplete="off"
          value={answers.seed}
          placeholder={t('calculator.seedPlaceholder')}
          aria-invalid={invalid ? true : undefined}
          onChange={(event) => onAnswers({ ...answers, seed: event.target.value })}
        />
        <span className="input-unit" aria-hidden="true">
          {t('calculator.usdt')}
        </span>
      </div>
      <p className="muted field-hint">{t('calculator.seedHint')}</p>
    </div>
  );
}

function FrequencyQuestion({ answers, onAnswers }: QuestionProps) {
  const { t } = useTranslation();
  return (
    <div className="choice-list">
      {TRADE_FREQUENCIES.map((frequency) => (
        <label key={frequency} className="choice-card choice-wide">
          <input
            type="radio"
            name="frequency"
            value={frequency}
            checked={answers.frequency === frequency}
            onChange={() => onAnswers({ ...answers, frequency })}
          />
          <span>{t(`calculator.frequencies.${frequency}`)}</span>
        </label>
      ))}
    </div>
  );
}

/** The inputs of one step: the partner, the leverage, the seed or the trading frequency. */
export function StepQuestion({
  step,
  list,
  ...props
}: QuestionProps & { step: Step; list: UseQueryResult<ExchangeDictionaryEntry[]> }) {
  if (step === 'exchange') return <ExchangeQuestion list={list} {...props} />;
  if (step === 'leverage') return <LeverageQuestion {...props} />;
  if (step === 'seed') return <SeedQuestion {...props} />;
  return <FrequencyQuestion {...props} />;
}
