/**
 * Exact decimals from exchange answers. Exchanges send amounts as decimal strings with up to 8 or more
 * places ("0.00012345"), sometimes in Java's exponent form ("0E-8", "1.5E-7"), sometimes signed
 * (adjustments). No amount ever passes through a float: a string is read into an integer of 10^-18
 * units (atto), summed exactly, and brought to micro-USDT once per entry, truncated toward zero so we
 * never count more than the exchange paid (the dropped remainder is below one micro-USDT).
 */

const EXACT_SCALE = 18;
const ATTO_PER_MICRO = 10n ** BigInt(EXACT_SCALE - 6);
const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/** "12.5" -> 12_500000_000000_000000n. Throws RangeError on anything that is not a plain decimal. */
export function parseAtto(value: string | number): bigint {
  // A JSON number is what the exchange sent; its shortest round-trip text is the best reading of it.
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  const [, sign, whole = '', fraction = '', exponentText] = match ?? [];
  if (!match || (whole === '' && fraction === ''))
    throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  // Shift the point by the exponent: digits * 10^(exponent - fraction.length).
  const digits = BigInt(`${whole}${fraction}` || '0');
  const shift = EXACT_SCALE + exponent - fraction.length;
  let atto: bigint;
  if (shift >= 0) {
    atto = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    if (digits % divisor !== 0n) {
      throw new RangeError(`${JSON.stringify(value)} has more than ${EXACT_SCALE} decimals`);
    }
    atto = digits / divisor;
  }
  return sign === '-' ? -atto : atto;
}

/** Atto units -> micro-USDT, truncated toward zero. */
export function attoToMicro(atto: bigint): bigint {
  return atto / ATTO_PER_MICRO;
}

/** One decimal string straight to micro-USDT (truncated toward zero below one micro-USDT). */
export function toMicroUsdt(value: string | number): bigint {
  return attoToMicro(parseAtto(value));
}
