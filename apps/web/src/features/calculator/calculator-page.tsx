import { CALCULATOR } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import { useOpenExchangeList } from '../../shared/exchanges/exchange-list-query';
import { formatInteger } from '../../shared/exchanges/format';
import { Page } from '../../shared/ui/page';
import { CalculatorForm } from './components/calculator-form';
import { CalculatorLoading } from './components/calculator-loading';
import { CalculatorResult } from './components/calculator-result';
import { CalculatorStepper } from './components/calculator-stepper';
import { useCalculatorWizard } from './use-calculator-wizard';
import './calculator.css';

/** spec section 2: four steps, a loading state, then the estimated 30-day and 6-month cashback. */
export default function CalculatorPage() {
  const { t } = useTranslation();
  const list = useOpenExchangeList();
  const wizard = useCalculatorWizard();
  const { phase, headingRef } = wizard;

  return (
    <Page title={t('pages.calculator.title')} intro={t('pages.calculator.intro')}>
      <p className="analysed-users">
        {t('calculator.analysedUsers', { count: formatInteger(String(CALCULATOR.analysedUsers)) })}
      </p>
      <CalculatorStepper phase={phase} stepIndex={wizard.stepIndex} />

      {wizard.pending ? (
        <CalculatorLoading headingRef={headingRef} />
      ) : phase.kind === 'result' ? (
        <CalculatorResult
          headingRef={headingRef}
          phase={phase}
          exchanges={list.data ?? []}
          onRestart={wizard.restart}
        />
      ) : (
        <CalculatorForm
          step={phase.step}
          stepIndex={wizard.stepIndex}
          answers={wizard.answers}
          onAnswers={wizard.setAnswers}
          error={wizard.error}
          list={list}
          headingRef={headingRef}
          onSubmit={wizard.onSubmit}
          onBack={wizard.back}
        />
      )}
    </Page>
  );
}
