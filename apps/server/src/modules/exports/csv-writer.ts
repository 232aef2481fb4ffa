/**
 * CSV as RFC 4180 says (csv-stringify: fields with a comma, quote or line break are quoted, quotes
 * doubled, CRLF between records), safe to open in a spreadsheet: a text cell starting with = + - @,
 * a tab or a carriage return would be read as a formula, so it gets a leading apostrophe (OWASP,
 * "CSV Injection"); so do their full-width forms ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20), which
 * East-Asian input types and some spreadsheets read as the ASCII ones. A plain number (a negative
 * amount) cannot be a formula and stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * Rows as CSV text, each ending with CRLF. csv-stringify is loaded by the first export, not at start
 * (docs/decisions.md, "Cold start"); after that the import is a resolved promise.
 */
export async function csvLines(rows: readonly (readonly string[])[]): Promise<string> {
  if (rows.length === 0) return '';
  const { stringify } = await import('csv-stringify/sync');
  return stringify(
    rows.map((row) => row.map(neutraliseCell)),
    { record_delimiter: 'windows', eof: true },
  );
}
