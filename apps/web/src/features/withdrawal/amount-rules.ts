import {
  DECIMALS,
  toScaled,
  usdtAmountSchema,
  WITHDRAWAL,
  type WithdrawalAmountProblem,
  withdrawalAmountProblem,
} from '@elex/contract';

/**
 * The amount rules of the withdrawal form, in exact micro-USDT (never a float): at least 50 USDT
 * (spec), at most what the chosen UID can withdraw (its cashback plus the event rewards). The server
 * checks the same under its locks; the page says it first.
 */
export type AmountProblem = { key: 'requiredInformation' | 'amountInvalid' } | WithdrawalAmountProblem;

const micro = (value: string) => toScaled(value, DECIMALS.usdt);

/** How much is still needed to reach the minimum (0 once reached). */
export function shortfallOf(withdrawable: string): bigint {
  const missing = WITHDRAWAL.minimumMicroUsdt - micro(withdrawable);
  return missing > 0n ? missing : 0n;
}

/** The first rule the typed amount breaks, or null when it may be sent (the contract's rule). */
export function checkAmount(amount: string, withdrawable: string): AmountProblem | null {
  const parsed = usdtAmountSchema.safeParse(amount);
  if (!parsed.success) {
    return {
      key: parsed.error.issues[0]?.message === 'amountInvalid' ? 'amountInvalid' : 'requiredInformation',
    };
  }
  return withdrawalAmountProblem(micro(parsed.data), micro(withdrawable));
}
