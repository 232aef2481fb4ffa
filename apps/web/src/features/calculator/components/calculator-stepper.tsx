import { useTranslation } from 'react-i18next';
import { type Phase, STEPS } from '../calculator-steps';

/** The four steps as a numbered list: the current one marked, the ones behind said to be done. */
export function CalculatorStepper({ phase, stepIndex }: { phase: Phase; stepIndex: number }) {
  const { t } = useTranslation();
  return (
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
  );
}
