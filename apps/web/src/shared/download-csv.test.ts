import { describe, expect, it } from 'vitest';
import { toCsv } from './download-csv';

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['line\nbreak', 'plain'],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",plain');
  });

  it('neutralises cells a spreadsheet would run as a formula, but keeps negative numbers', () => {
    expect(toCsv(['v'], [['=HYPERLINK("x")'], ['@SUM(A1)'], ['+1+2'], ['-12.5']])).toBe(
      'v\r\n"\'=HYPERLINK(""x"")"\r\n\'@SUM(A1)\r\n\'+1+2\r\n-12.5',
    );
  });

  it('neutralises the full-width = + - @ that East-Asian input types (U+FF1D, U+FF0B, U+FF0D, U+FF20)', () => {
    expect(toCsv(['v'], [['＝1+1'], ['＋1'], ['－12'], ['＠SUM(A1)'], ['Ａ＝1']])).toBe(
      "v\r\n'＝1+1\r\n'＋1\r\n'－12\r\n'＠SUM(A1)\r\nＡ＝1",
    );
  });

  it('neutralises a formula sign after leading spaces, and U+2212 MINUS SIGN', () => {
    expect(toCsv(['v'], [[' =1+1'], ['\u3000@x'], ['−1+1'], [' plain']])).toBe(
      "v\r\n' =1+1\r\n'\u3000@x\r\n'−1+1\r\n plain",
    );
  });
});
