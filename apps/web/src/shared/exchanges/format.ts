import { numberFormat } from '../i18n/intl-formats';
import { type DecimalTextOptions, decimalText } from './decimal-text';

/**
 * Number formats for the catalog's decimal strings, written from the string itself (never a float
 * made from it), truncating instead of rounding up: a cashback figure is never shown larger than it is.
 */
type Decimal = `${number}` | string;

function format(value: Decimal, options: DecimalTextOptions): string {
  // A plain decimal is written without Intl (decimal-text.ts: the first NumberFormat of a page is slow);
  // anything else as Intl.NumberFormat reads a decimal string, exactly (ES2023 Intl.NumberFormat v3).
  return decimalText(value, options) ?? numberFormat(options).format(value as Intl.StringNumericLiteral);
}

/** "0.0200" -> "0.02%"; "40.00" -> "40%". */
export function formatPercent(value: Decimal): string {
  return `${format(value, { maximumFractionDigits: 4, roundingMode: 'trunc' })}%`;
}

/** "1234.567800" -> "1,234.56" (two decimals, truncated). */
export function formatUsdt(value: Decimal): string {
  return format(value, { minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'trunc' });
}

/**
 * "75.004000" -> "75.004", "75.000000" -> "75.00": every digit that counts, for a sum a member must
 * see exactly (what deleting the account forfeits); at least two decimals like the other amounts.
 */
export function formatUsdtExact(value: Decimal): string {
  return format(value, { minimumFractionDigits: 2, maximumFractionDigits: 6, roundingMode: 'trunc' });
}

/** "15000000" -> "15,000,000". */
export function formatInteger(value: Decimal): string {
  return format(value, { maximumFractionDigits: 0, roundingMode: 'trunc' });
}

/** 9.6 -> "9.6" (a rating, one decimal). */
export function formatScore(value: number): string {
  return format(String(value), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** "1.5" -> "1.5", "12.0" -> "12" (up to `digits` decimals, truncated). */
export function formatDecimal(value: Decimal, digits = 2): string {
  return format(value, { maximumFractionDigits: digits, roundingMode: 'trunc' });
}

/** "0.000000" -> true: an amount nothing has been paid into yet. */
export function isZeroAmount(value: Decimal): boolean {
  return /^0*(\.0*)?$/.test(value);
}

/**
 * A cashback figure: two decimals, except a non-zero amount under 0.01, which shows all six (truncated
 * to two it would read 0.00, as if nothing had been paid).
 */
export function formatCashback(value: string): string {
  if (!isZeroAmount(value) && /^-?0*\.00\d*$/.test(value)) return formatDecimal(value, 6);
  return formatUsdt(value);
}
