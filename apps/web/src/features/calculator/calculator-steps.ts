import {
  type CashbackEstimateRequest,
  type CashbackEstimateResponse,
  leverageSchema,
  seedUsdtSchema,
  type TradeFrequency,
} from '@elex/contract';

/** The calculator's four questions, the answers to them and their checks, as plain data and functions. */
export const STEPS = ['exchange', 'leverage', 'seed', 'frequency'] as const;
export type Step = (typeof STEPS)[number];

export interface Answers {
  platId: number | null;
  leverage: string;
  seed: string;
  frequency: TradeFrequency | null;
}

export type Phase =
  | { kind: 'step'; step: Step }
  | { kind: 'result'; answers: Answers; estimate: CashbackEstimateResponse };

export const FIRST_ANSWERS: Answers = { platId: null, leverage: '10', seed: '', frequency: null };

/** Checks one step with the contract's rules; answers the key (in `msg:`) of the message to show, or null. */
export function stepProblem(step: Step, answers: Answers): string | null {
  if (step === 'exchange') return answers.platId === null ? 'exchangeRequired' : null;
  if (step === 'leverage') {
    const result = leverageSchema.safeParse(answers.leverage.trim());
    return result.success ? null : (result.error.issues[0]?.message ?? 'leverageRange');
  }
  if (step === 'seed') {
    const result = seedUsdtSchema.safeParse(answers.seed);
    return result.success ? null : (result.error.issues[0]?.message ?? 'seedInvalid');
  }
  return answers.frequency === null ? 'frequencyRequired' : null;
}

/** The request of checked answers (every step passed `stepProblem`). */
export function estimateRequest(answers: Answers): CashbackEstimateRequest {
  return {
    platId: answers.platId ?? 0,
    leverage: leverageSchema.parse(answers.leverage.trim()),
    seed: answers.seed,
    frequency: answers.frequency ?? 'onceOrLess',
  };
}
