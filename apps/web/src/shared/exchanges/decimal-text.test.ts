import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DecimalTextOptions, decimalText } from './decimal-text';

/**
 * decimalText writes what Intl.NumberFormat writes for a decimal string in Chinese, English and
 * Korean, for every option the app's formats use and random ones besides: the hand-written path must
 * never show a figure differently from the formatter it replaces.
 */
const LOCALES = ['zh', 'en', 'ko'] as const;

/** The options of shared/exchanges/format.ts. */
const USED: DecimalTextOptions[] = [
  { maximumFractionDigits: 4, roundingMode: 'trunc' },
  { minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'trunc' },
  { minimumFractionDigits: 2, maximumFractionDigits: 6, roundingMode: 'trunc' },
  { maximumFractionDigits: 0, roundingMode: 'trunc' },
  { minimumFractionDigits: 1, maximumFractionDigits: 1 },
  { maximumFractionDigits: 2, roundingMode: 'trunc' },
  { maximumFractionDigits: 6, roundingMode: 'trunc' },
];

const intl = (locale: string, value: string, options: DecimalTextOptions) =>
  new Intl.NumberFormat(locale, options).format(value as Intl.StringNumericLiteral);

/** A plain decimal: an optional minus, up to 20 integer digits (leading zeros too), an optional fraction. */
const decimal = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { nil: undefined }),
  )
  .map(
    ([minus, whole, fraction]) =>
      `${minus ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  );

const options = fc
  .record({
    minimumFractionDigits: fc.integer({ min: 0, max: 6 }),
    maximumFractionDigits: fc.integer({ min: 0, max: 8 }),
    roundingMode: fc.constantFrom('trunc' as const, 'halfExpand' as const, undefined),
  })
  .filter((o) => o.minimumFractionDigits <= o.maximumFractionDigits)
  .map(({ roundingMode, ...rest }) => (roundingMode ? { ...rest, roundingMode } : rest));

describe('decimal text', () => {
  it('is what Intl.NumberFormat writes, in the three languages, for the app’s options and edge values', () => {
    const values = [
      '0',
      '-0',
      '0.000000',
      '-0.001',
      '0.995',
      '9.95',
      '-9.95',
      '99.999999',
      '999.5',
      '1000',
      '1234.567800',
      '0007.50000',
      '12345678901234567890.123456',
      '7.',
      '0.0200',
      '40.00',
      '15000000',
    ];
    for (const locale of LOCALES)
      for (const option of USED)
        for (const value of values)
          expect(decimalText(value, option), `${locale} ${value}`).toBe(intl(locale, value, option));
  });

  it('is what Intl.NumberFormat writes for random decimals and options', () => {
    fc.assert(
      fc.property(decimal, options, fc.constantFrom(...LOCALES), (value, option, locale) => {
        expect(decimalText(value, option)).toBe(intl(locale, value, option));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves anything but a plain decimal to Intl', () => {
    for (const value of ['1e5', '+1', ' 1', '1,000', '', '.5', '-', '0x10', 'NaN'])
      expect(decimalText(value, { maximumFractionDigits: 2 })).toBeUndefined();
  });
});
