/**
 * Decimal strings written as Chinese, English and Korean all write them ("1,234.56": a comma every
 * three digits, a point before the fraction, a hyphen-minus), exactly from the string, without
 * Intl.NumberFormat. The first number formatter a page makes loads the browser's number data: 35–90 ms
 * of main thread in Chromium on the bench's machine, four times that on a mid-range phone, in the
 * first visit of every page showing a figure (docs/decisions.md, "Figures written without
 * Intl.NumberFormat"). decimal-text.test.ts holds the output equal to Intl's for the three languages.
 */

export interface DecimalTextOptions {
  minimumFractionDigits?: number;
  maximumFractionDigits: number;
  /** Intl's modes of the same names: 'trunc' toward zero, 'halfExpand' half away from zero (Intl's default). */
  roundingMode?: 'trunc' | 'halfExpand';
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/**
 * The text of `value` with `options`, or undefined when `value` is not a plain decimal ("12", "-0.5",
 * "7."): the caller falls back to Intl for anything else (an exponent, a "+", spaces).
 */
export function decimalText(value: string, options: DecimalTextOptions): string | undefined {
  const match = PLAIN_DECIMAL.exec(value);
  if (!match) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const keep = options.maximumFractionDigits;
  const min = Math.min(options.minimumFractionDigits ?? 0, keep);
  // The kept digits as one string, the integer part first; rounding may carry into a new leading digit.
  let digits = whole + fraction.slice(0, keep).padEnd(keep, '0');
  if (options.roundingMode !== 'trunc' && (fraction[keep] ?? '0') >= '5') digits = plusOne(digits);
  const integer = digits.slice(0, digits.length - keep).replace(/^0+(?=\d)/, '');
  const decimals = digits
    .slice(digits.length - keep)
    .replace(/0+$/, '')
    .padEnd(min, '0');
  return `${sign}${grouped(integer)}${decimals ? `.${decimals}` : ''}`;
}

/** A string of digits plus one in its last place ("199" -> "200", "99" -> "100"). */
function plusOne(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i -= 1) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/** "1234567" -> "1,234,567". */
function grouped(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+$)/g, ',');
}
