/**
 * Builds a CSV file in the browser and offers it for download. Cells that a spreadsheet would run as a
 * formula (=, +, -, @, a tab or a carriage return first, or the full-width ＝ ＋ － ＠ East-Asian input types)
 * are prefixed with an apostrophe: exported data never executes.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (value: string) => {
    const safe =
      /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value)
        ? `'${value}`
        : value;
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
