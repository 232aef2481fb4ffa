import type { ExchangeDictionaryEntry } from '@elex/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, Calculator } from 'lucide-react';
import type { FormEvent, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { type Answers, STEPS, type Step } from '../calculator-steps';
import { StepQuestion } from './step-question';

/** One step's form: the question as the focused heading, its inputs, the refusal, back and next. */
export function CalculatorForm({
  step,
  stepIndex,
  answers,
  onAnswers,
  error,
  list,
  headingRef,
  onSubmit,
  onBack,
}: {
  step: Step;
  stepIndex: number;
  answers: Answers;
  onAnswers(answers: Answers): void;
  error: string | null;
  list: UseQueryResult<ExchangeDictionaryEntry[]>;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onSubmit(event: FormEvent): Promise<void>;
  onBack(): void;
}) {
  const { t } = useTranslation();
  return (
    <form className="card calculator-form" noValidate onSubmit={(event) => void onSubmit(event)}>
      <fieldset className="calculator-step" aria-describedby={error ? 'calculator-error' : undefined}>
        <legend>
          <h2 ref={headingRef} tabIndex={-1} className="calculator-question">
            {t('calculator.stepCounter', { index: stepIndex + 1, total: STEPS.length })}{' '}
            {t(`calculator.questions.${step}`)}
          </h2>
        </legend>

        <StepQuestion
          step={step}
          list={list}
          answers={answers}
          onAnswers={onAnswers}
          invalid={Boolean(error)}
        />

        {error ? (
          <p id="calculator-error" className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>

      <div className="calculator-actions">
        {stepIndex > 0 ? (
          <button type="button" className="button button-ghost" onClick={onBack}>
            <ArrowLeft size={18} aria-hidden="true" />
            {t('calculator.back')}
          </button>
        ) : (
          <span />
        )}
        <button type="submit" className="button button-primary">
          {step === 'frequency' ? (
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
  );
}
