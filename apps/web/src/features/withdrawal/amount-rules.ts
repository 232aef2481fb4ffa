import { DECIMALS, toScaled, usdtAmountSchema, WITHDRAWAL } from '@elex/contract';

/**
 * The amount rules of the withdrawal form, in exact micro-USDT (never a float): at least 50 USDT
 * (spec), at most what the chosen UID can withdraw (its cashback plus the event rewards). The server
 * checks the same under its locks; the page says it first.
 */
export type AmountProblem =
  | { key: 'requiredInformation' | 'amountInvalid' }
  | { key: 'withdrawalBelowMinimum'; values: { minimum: string; shortfall: string } }
  | { key: 'withdrawalOverBalance'; values: { available: string } };

const micro = (value: string) => toScaled(value, DECIMALS.usdt);

/** "12.500000" -> "12.50", "0.123400" -> "0.1234": two decimals at least, no zeros after them. */
export function displayUsdt(value: string | bigint): string {
  const scaled = typeof value === 'bigint' ? value : micro(value);
  const whole = scaled / 1_000_000n;
  const fraction = (scaled % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** How much is still needed to reach the minimum (0 once reached). */
export function shortfallOf(withdrawable: string): bigint {
  const missing = WITHDRAWAL.minimumMicroUsdt - micro(withdrawable);
  return missing > 0n ? missing : 0n;
}

/** The first rule the typed amount breaks, or null when it may be sent. */
export function checkAmount(amount: string, withdrawable: string): AmountProblem | null {
  const parsed = usdtAmountSchema.safeParse(amount);
  if (!parsed.success) {
    return {
      key: parsed.error.issues[0]?.message === 'amountInvalid' ? 'amountInvalid' : 'requiredInformation',
    };
  }
  const value = micro(parsed.data);
  if (value < WITHDRAWAL.minimumMicroUsdt) {
    return {
      key: 'withdrawalBelowMinimum',
      values: {
        minimum: WITHDRAWAL.minimumUsdt,
        shortfall: displayUsdt(WITHDRAWAL.minimumMicroUsdt - value),
      },
    };
  }
  if (value > micro(withdrawable)) {
    return { key: 'withdrawalOverBalance', values: { available: displayUsdt(withdrawable) } };
  }
  return null;
}
