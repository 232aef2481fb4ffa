import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type CreateExportRequestSchema,
  EXPORT_LINK_SECONDS,
  type ExportKind,
  type ExportLink,
  State,
} from '@elex/contract';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { recordAudit } from '../admin/audit.service.js';
import type { ActionContext } from '../admin/catalog.service.js';
import { findOperator } from '../admin/operators.service.js';
import { tokenDigest } from '../auth/digests.js';
import { csvLines } from './csv-writer.js';
import {
  claimExportLink,
  type ExportKey,
  type ExportRange,
  exportHeader,
  insertExportLink,
  selectExportPage,
} from './exports.repository.js';

/**
 * The console's CSV exports (docs/operator-console.md, "Exports"). The console's calls carry the
 * session in a header, which a browser download cannot send; so `exports/create` (an operator call,
 * audited) answers a random one-time link that lives a minute, and the download behind it streams
 * the file page by page: a million rows never sit in memory, and a slow reader slows the reading.
 */

/** Rows per database page; each page becomes one chunk of the response. */
const EXPORT_PAGE_ROWS = 2000;

const DAY_MS = 24 * 60 * 60_000;

export function exportRange(from: string, to: string): ExportRange {
  const start = new Date(`${from}T00:00:00Z`);
  return { start, end: new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS) };
}

function exportFileName(kind: ExportKind, from: string, to: string): string {
  return `elex-${kind}-${from}-${to}.csv`;
}

export async function createExportLink(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  context: ActionContext,
  input: z.output<typeof CreateExportRequestSchema>,
): Promise<ExportLink> {
  const operatorId = context.actor.userId;
  if (operatorId === null) throw new AppError(State.Forbidden, 'forbidden');
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + EXPORT_LINK_SECONDS * 1000);
  await deps.db.transaction(async (tx) => {
    await insertExportLink(tx, {
      tokenHash: tokenDigest(token),
      operatorId,
      kind: input.kind,
      fromDay: input.from,
      toDay: input.to,
      createdAt: now,
      expiresAt,
    });
    await recordAudit(tx, {
      actor: context.actor,
      action: 'export.create',
      target: `export:${input.kind}`,
      after: { kind: input.kind, from: input.from, to: input.to },
      at: now,
      requestId: context.requestId,
    });
  });
  return {
    url: `/elex/admin/exports/download/${token}`,
    fileName: exportFileName(input.kind, input.from, input.to),
    expiresAt: expiresAt.toISOString(),
  };
}

export interface OpenedExport {
  fileName: string;
  body: Readable;
}

/**
 * Takes a link for its one download: unknown, used or expired answers 'exportLinkInvalid', and so
 * does a link whose operator lost the role since.
 */
export async function openExport(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  token: string,
  options: { pageRows?: number } = {},
): Promise<OpenedExport> {
  const link = await claimExportLink(deps.db, tokenDigest(token), deps.clock.now());
  if (!link || !(await findOperator(deps.db, link.operatorId))) {
    throw new AppError(State.NotFound, 'exportLinkInvalid');
  }
  const kind = link.kind as ExportKind;
  const range = exportRange(link.fromDay, link.toDay);
  return {
    fileName: exportFileName(kind, link.fromDay, link.toDay),
    // One chunk in flight: the next page is read only once the socket took the last one.
    body: Readable.from(exportChunks(deps.db, kind, range, options.pageRows ?? EXPORT_PAGE_ROWS), {
      objectMode: true,
      highWaterMark: 1,
    }),
  };
}

/**
 * The file as text chunks: a byte order mark (spreadsheets then read UTF-8, Chinese and Korean
 * included), the header, then one chunk per page. Stopping the reader stops the reading.
 */
export async function* exportChunks(
  db: Executor,
  kind: ExportKind,
  range: ExportRange,
  pageRows: number,
): AsyncGenerator<string> {
  yield `\uFEFF${await csvLines([[...exportHeader(kind)]])}`;
  let after: ExportKey | null = null;
  for (;;) {
    const page = await selectExportPage(db, kind, range, after, pageRows);
    if (page.rows.length > 0) yield await csvLines(page.rows);
    if (!page.next) return;
    after = page.next;
  }
}

// Housekeeping prunes expired links through this service (docs/architecture.md, "Boundaries").
export { deleteExportLinksExpiredBefore } from './exports.repository.js';
