import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEstimateCashback } from './api/estimate-cashback';
import {
  type Answers,
  estimateRequest,
  FIRST_ANSWERS,
  type Phase,
  STEPS,
  stepProblem,
} from './calculator-steps';

/** The calculator's state: the step or the result, the answers, the step's problem, and where focus goes. */
export function useCalculatorWizard() {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ kind: 'step', step: 'exchange' });
  const [answers, setAnswers] = useState<Answers>(FIRST_ANSWERS);
  const [error, setError] = useState<string | null>(null);
  const estimate = useEstimateCashback();
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

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase.kind !== 'step') return;
    const key = stepProblem(phase.step, answers);
    const problem = key === null ? null : t(`msg:${key}`);
    setError(problem);
    if (problem) return;
    const next = STEPS[stepIndex + 1];
    if (next) return setPhase({ kind: 'step', step: next });
    try {
      const result = await estimate.mutateAsync(estimateRequest(answers));
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

  const restart = () => {
    setError(null);
    setPhase({ kind: 'step', step: 'exchange' });
  };

  return {
    phase,
    answers,
    setAnswers,
    error,
    pending: estimate.isPending,
    headingRef,
    stepIndex,
    onSubmit,
    back,
    restart,
  };
}
