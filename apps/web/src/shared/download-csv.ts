import { neutraliseCsvCell } from '@elex/contract';

/**
 * Builds a CSV file in the browser and offers it for download. Cells that a spreadsheet would run as a
 * formula (a formula sign = + - @, full-width or U+2212 first, after leading spaces too; a tab or a
 * carriage return first) are prefixed with an apostrophe by the contract's rule, the one the server's
 * exports use: exported data never executes.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (value: string) => {
    const safe = neutraliseCsvCell(value);
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n');
}

export function downloadCsv(fileName: string, csv: string) {
  // The byte-order mark lets spreadsheet programs read the UTF-8 (Chinese, Korean) correctly.
  const blob = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
