import type { ExportKind } from '@elex/contract';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { adminCall, type Caller } from '../admin/test-support.js';
import type { CashbackTestContext } from '../cashback/test-support.js';

/** Test helpers for the exports: make a link as an operator, fetch it, read the CSV. */

export async function exportLink(
  ctx: CashbackTestContext,
  operator: Caller,
  kind: ExportKind,
  from: string,
  to: string,
): Promise<string> {
  const answer = await adminCall(ctx, operator, 'exports/create', { kind, from, to });
  expect(answer).toMatchObject({ state: 0 });
  return answer.content.url as string;
}

export function fetchExport(ctx: CashbackTestContext, url: string, lang?: string) {
  return ctx.app.inject({ method: 'GET', url: lang ? `${url}?lang=${lang}` : url });
}

/** The file's records (header first), read back with the CSV parser the imports use. */
export function csvRecords(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return parse(body.slice(1), { relax_column_count: false }) as string[][];
}

/** Records as objects keyed by the header. */
function csvObjects(body: string): Array<Record<string, string>> {
  const [header, ...rows] = csvRecords(body);
  return rows.map((row) => Object.fromEntries((header ?? []).map((name, index) => [name, row[index] ?? ''])));
}

export async function downloadExport(
  ctx: CashbackTestContext,
  operator: Caller,
  kind: ExportKind,
  from: string,
  to: string,
): Promise<Array<Record<string, string>>> {
  const res = await fetchExport(ctx, await exportLink(ctx, operator, kind, from, to));
  expect(res.statusCode).toBe(200);
  return csvObjects(res.body);
}
