import { describe, expect, it } from 'vitest';
import { neutraliseCsvCell } from './csv-cell.js';

describe('neutraliseCsvCell', () => {
  it('leaves numbers and ordinary text alone', () => {
    for (const value of ['-60.000000', '12', 'Bitget', '', 'a=b', ' a=b', '  ', 'Ａ＝1', '1−2']) {
      expect(neutraliseCsvCell(value), JSON.stringify(value)).toBe(value);
    }
  });

  it('marks a formula sign first, after leading white space too, in ASCII, full-width and U+2212', () => {
    const marked = [
      '=1',
      '+1',
      '-1+1',
      '@x',
      '-',
      '\t1',
      '\r1',
      '＝1+1',
      '＋1',
      '－12',
      '＠SUM(A1)',
      '−1+1',
      '−12',
      ' =1+1',
      '   @SUM(A1)',
      '\u00a0+1',
      '\u3000＝1',
      '\n-2+3',
      ' -12',
    ];
    for (const value of marked) expect(neutraliseCsvCell(value), JSON.stringify(value)).toBe(`'${value}`);
  });
});
