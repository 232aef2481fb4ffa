/**
 * A CSV cell made safe to open in a spreadsheet (OWASP, "CSV Injection"): one rule for the server's
 * exports (csv-writer.ts) and the web's downloads (download-csv.ts). A cell a spreadsheet would read
 * as a formula gets a leading apostrophe:
 * - its first character is a tab or a carriage return;
 * - or its first character that is not white space (spaces, the no-break and ideographic spaces,
 *   tabs, line breaks) is a formula sign: = + - @, their full-width forms ＝ ＋ － ＠ (U+FF1D, U+FF0B,
 *   U+FF0D, U+FF20, which East-Asian input types and some spreadsheets read as the ASCII ones), or the
 *   MINUS SIGN − (U+2212, which some spreadsheets take as a minus). Spreadsheets skip leading spaces
 *   before a formula on import, so " =1+1" counts as one.
 * A plain number (a negative amount, ASCII digits and one ASCII minus) cannot be a formula and stays a
 * number.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\u00a0\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\u2212])/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function neutraliseCsvCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}
