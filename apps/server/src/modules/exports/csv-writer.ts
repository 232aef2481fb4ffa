import { neutraliseCsvCell } from '@elex/contract';

/**
 * CSV as RFC 4180 says (csv-stringify: fields with a comma, quote or line break are quoted, quotes
 * doubled, CRLF between records), safe to open in a spreadsheet: each cell goes through the contract's
 * `neutraliseCsvCell` (a formula sign first, after leading spaces too, gets an apostrophe), the rule
 * the web's downloads use.
 */
export const neutraliseCell = neutraliseCsvCell;

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
