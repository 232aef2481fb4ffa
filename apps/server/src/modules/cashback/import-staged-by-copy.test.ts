import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyInto, copyRow } from '../../db/copy-in.js';
import { rowsOf } from '../../db/rows.js';
import { checkAllInvariants } from './cashback.check.js';
import { rebates } from './cashback.tables.js';
import { ingestReferrals } from './ingest.service.js';
import { importRebateFile, STAGING_BATCH } from './rebate-import.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp, DAY_MS, nextUid } from './test-support.js';

/**
 * A figures file is staged by COPY (issue 14): PostgreSQL's `COPY … FROM STDIN` through node-postgres,
 * PGlite's `COPY … FROM '/dev/blob'`, a bounded batch a statement, and no `json_to_recordset` batch
 * into the staging table. COPY text escapes what would end a field or a row, so any text round-trips.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

/** The texts the transaction's own connection is sent (node-postgres client or PGlite transaction). */
function recordStatements(tx: unknown): string[] {
  const client = (tx as { session: { client: { query: (...args: unknown[]) => unknown } } }).session.client;
  const texts: string[] = [];
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [first] = args;
    texts.push(typeof first === 'string' ? first : String((first as { text?: unknown }).text ?? ''));
    return query(...args);
  };
  return texts;
}

describe('staging a figures file', () => {
  it('writes the rows by COPY, a batch a statement, never as JSON batches', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const now = ctx.clock.now().getTime();
    // Dashes and underscores are the odd characters a UID may have (EXCHANGE_UID_PATTERN).
    const uids = Array.from({ length: 3 }, (_, n) => `${nextUid('Cp')}-_${n}`);
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt: new Date(now - 400 * DAY_MS) })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    const day = (daysAgo: number) => new Date(Date.UTC(2026, 9, 20) - daysAgo * DAY_MS);
    // More lines than a batch: two COPY statements.
    const perUid = Math.ceil((STAGING_BATCH + 1) / uids.length);
    const lines = uids.flatMap((uid) =>
      Array.from(
        { length: perUid },
        (_, n) => `${uid},${day(n + 3).toISOString()},${day(n + 2).toISOString()},100,2,1`,
      ),
    );
    const csv = Buffer.from(
      ['uid,period_start,period_end,trading_volume,fee,commission', ...lines, ''].join('\n'),
    );
    let statements: string[] = [];
    const result = await ctx.db.transaction(async (tx) => {
      statements = recordStatements(tx);
      return importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'copy.csv' });
    });
    expect(result.inserted).toBe(lines.length);
    const copies = statements.filter((text) => /^copy rebate_import_rows\b/i.test(text));
    expect(copies).toHaveLength(Math.ceil(lines.length / STAGING_BATCH));
    expect(copies[0]).toMatch(ctx.deps.databaseKind === 'pglite' ? /from '\/dev\/blob'$/ : /from stdin$/);
    expect(statements.filter((text) => /insert into rebate_import_rows/i.test(text))).toEqual([]);
    for (const uid of uids) {
      const stored = await ctx.db
        .select({ uid: rebates.uid })
        .from(rebates)
        .where(and(eq(rebates.platId, BITGET), eq(rebates.uid, uid)));
      expect(stored).toHaveLength(perUid);
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('round-trips tabs, newlines, carriage returns, backslashes, \\N and \\. and nulls', async () => {
    const values = [
      'tab\there',
      'new\nline',
      'carriage\rreturn',
      'back\\slash',
      '\\N',
      '\\.',
      '\\',
      'end\\',
      '',
      'ünïcødé 中文 한국어 ＝',
      ' spaces ',
      '"quoted",comma',
      null,
    ];
    const read = await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table copy_probe (n integer, value text) on commit drop`);
      const text = values.map((value, n) => copyRow([n, value])).join('');
      await copyInto(tx, ctx.deps.databaseKind, 'copy_probe', ['n', 'value'], text);
      return rowsOf<{ n: number; value: string | null }>(
        await tx.execute(sql`select n, value from copy_probe order by n`),
      );
    });
    expect(read.map((row) => row.value)).toEqual(values);
  });
});
