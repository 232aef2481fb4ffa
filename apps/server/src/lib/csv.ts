import fs from 'node:fs';
import { Readable } from 'node:stream';
import { because, type Explained, explained } from './reasons.js';

/**
 * Reads a CSV file whose first line names its columns (any order, any letter case), with csv-parse:
 * quotes, a UTF-8 byte order mark, CRLF and blank lines are handled; every row is checked for its
 * field count. Reports every problem with its line number instead of stopping at the first one;
 * only a broken quote ends the reading (the rest of the file cannot be split into fields reliably).
 */
export interface CsvRow {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  values: Record<string, string>;
}

export interface CsvProblem extends Explained {
  line: number;
  field: string;
}

/** A file's path, or its bytes (an upload from the operator console): both are read the same way. */
export type CsvSource = string | Buffer;

/**
 * Reads the file one row at a time, for files too large to hold: yields each well-formed row and
 * each problem in file order, so memory stays flat whatever the file's size.
 */
export async function* streamCsv(
  file: CsvSource,
  columns: readonly string[],
  onProgress?: (bytesRead: number, bytesTotal: number) => void,
): AsyncGenerator<CsvRow | CsvProblem> {
  // csv-parse is loaded by the first import, not at start (docs/decisions.md, "Cold start").
  const { CsvError, Parser } = await import('csv-parse');
  /**
   * Each record with the line it ended on, read from the parser's `info` when the record is pushed:
   * the moment the `info` option builds its per-record copy of every statistic, which took almost half
   * of csv-parse's time on a figures file (issue 14).
   */
  class NumberedParser extends Parser {
    override push(record: unknown, encoding?: BufferEncoding): boolean {
      return super.push(record === null ? null : { line: this.info.lines, record }, encoding);
    }
  }
  const total = typeof file === 'string' ? fs.statSync(file).size : file.length;
  const input = typeof file === 'string' ? fs.createReadStream(file) : Readable.from([file]);
  let bytesRead = 0;
  input.on('data', (chunk: Buffer | string) => {
    bytesRead += chunk.length;
    onProgress?.(bytesRead, total);
  });
  const parser = input.pipe(
    new NumberedParser({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true }),
  );
  let header: string[] | undefined;
  let problemCount = 0;
  try {
    for await (const { line, record } of parser as AsyncIterable<{ line: number; record: string[] }>) {
      if (!header) {
        header = record.map((name) => name.toLowerCase());
        const wrong = headerProblems(header, columns, line);
        problemCount += wrong.length;
        yield* wrong;
        if (wrong.length > 0) break;
        continue;
      }
      if (record.length !== header.length) {
        problemCount += 1;
        yield {
          line,
          field: 'row',
          ...explained(because('importFieldCount', { expected: header.length, found: record.length })),
        };
        continue;
      }
      const values: Record<string, string> = {};
      for (let index = 0; index < header.length; index += 1)
        values[header[index] as string] = record[index] ?? '';
      yield { line, values };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as { lines?: number }).lines ?? 0;
    problemCount += 1;
    yield { line, field: 'file', ...explained(because('importUnreadable', { error: error.message })) };
  } finally {
    input.destroy();
  }
  if (!header && problemCount === 0) {
    yield { line: 1, field: 'file', ...explained(because('importEmpty', { header: columns.join(',') })) };
  }
}

function headerProblems(header: readonly string[], columns: readonly string[], line: number): CsvProblem[] {
  const problems: CsvProblem[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (!columns.includes(name)) {
      problems.push({
        line,
        field: name || '(empty)',
        ...explained(because('importUnknownColumn', { header: columns.join(',') })),
      });
    } else if (seen.has(name)) {
      problems.push({ line, field: name, ...explained(because('importColumnTwice')) });
    }
    seen.add(name);
  }
  for (const name of columns) {
    if (!seen.has(name)) problems.push({ line, field: name, ...explained(because('importMissingColumn')) });
  }
  return problems;
}
