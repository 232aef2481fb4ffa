import { DECIMALS, fromScaled } from '@elex/contract';
import { formatUsdtExact } from '../../shared/exchanges/format';

/**
 * An amount on the withdrawal page, micro-USDT or a decimal string, grouped as the rest of the app
 * shows money and never rounded: "12345.678901" -> "12,345.678901", "60.000000" -> "60.00". The
 * contract's displayUsdt stays for what is typed into the amount (the max button) and for the server's
 * messages: a grouped figure is not an amount the form accepts.
 */
export function formatWithdrawalAmount(value: bigint | string): string {
  return formatUsdtExact(typeof value === 'bigint' ? fromScaled(value, DECIMALS.usdt) : value);
}
