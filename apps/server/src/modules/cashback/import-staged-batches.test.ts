import { eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { testOperatorActor } from '../../test/ops-command.js';
import { runCsvImport } from '../admin/imports.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { rebates } from './cashback.tables.js';
import { ingestReferrals } from './ingest.service.js';
import { importRebateFile, STAGING_BATCH } from './rebate-import.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp, DAY_MS, nextUid } from './test-support.js';

/**
 * A figures file is staged batch by batch (`json_to_recordset` on both engines; COPY was tried twice
 * and not kept: docs/decisions.md, "Staging by COPY on PostgreSQL, tried again"). A batch that fails
 * after earlier batches were staged leaves nothing, says what failed, and leaves the connection fit for
 * the next import; a line holding a tab, a backslash, \N or a quoted line break is named as the bad
 * line it is.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const HEADER = 'uid,period_start,period_end,trading_volume,fee,commission';
const HOUR_MS = DAY_MS / 24;
const dialect = new PgDialect();

/** STAGING_BATCH + 10 hourly lines of one UID in the roster: three staging batches' worth of rows. */
async function twoBatchFile(prefix: string) {
  ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
  const uid = nextUid(prefix);
  await ingestReferrals(
    ctx.deps,
    BITGET,
    [{ uid, registeredAt: new Date(Date.UTC(2025, 0, 1)) }],
    { kind: 'csv', label: 'roster.csv' },
    { settle: false },
  );
  const lines = [HEADER];
  for (let hour = 0; hour < STAGING_BATCH + 10; hour += 1) {
    const start = new Date(Date.UTC(2026, 0, 1) + hour * HOUR_MS);
    lines.push(`${uid},${start.toISOString()},${new Date(start.getTime() + HOUR_MS).toISOString()},100,2,1`);
  }
  return { uid, lines };
}

const storedOf = (uid: string) => ctx.db.select({ id: rebates.id }).from(rebates).where(eq(rebates.uid, uid));

describe('staging a figures file batch by batch', () => {
  it('a batch the database refuses after an earlier one was staged stores nothing and names the fault', async () => {
    const { uid, lines } = await twoBatchFile('CPYF');
    const refusedLine = STAGING_BATCH + 7;
    const csv = Buffer.from(`${lines.join('\n')}\n`);
    let staged = -1;
    const attempt = ctx.db.transaction(async (tx) => {
      // The database refuses one row of the second batch: a trigger on the staging table, put there
      // right after the import creates it (the only way a checked line can be refused there today).
      const execute = tx.execute.bind(tx);
      Object.assign(tx, {
        execute: async (query: Parameters<typeof execute>[0]) => {
          const result = await execute(query);
          const text = typeof query === 'string' ? query : dialect.sqlToQuery(query.getSQL()).sql;
          if (text.includes('create temporary table') && text.includes('rebate_import_rows')) {
            await execute(
              sql.raw(`
              create function pg_temp.refuse_row() returns trigger language plpgsql as $$
              begin
                if new.line = ${refusedLine} then
                  raise exception 'refused by the database: line %', new.line using errcode = '22P02';
                end if;
                return new;
              end $$`),
            );
            await execute(
              sql.raw(`
              create trigger refuse_row before insert on rebate_import_rows
              for each row execute function pg_temp.refuse_row()`),
            );
          }
          if (text.includes('select count(*) as problems')) {
            const [row] = rowsOf<{ n: number | string }>(
              await execute(sql`select count(*) as n from rebate_import_rows`),
            );
            staged = Number(row?.n);
          }
          return result;
        },
      });
      return importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'refused.csv' });
    });
    await expect(attempt).rejects.toSatisfy((error: Error) =>
      new RegExp(`refused by the database: line ${refusedLine}`).test(
        `${error.message} ${String(error.cause ?? '')}`,
      ),
    );
    // It stopped in staging: the file-wide checks never ran.
    expect(staged).toBe(-1);
    expect(await storedOf(uid)).toEqual([]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);

    // The connection the failed batch ran on went back to the pool fit for use: the same file imports.
    const again = await ctx.db.transaction((tx) =>
      importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'again.csv' }),
    );
    expect(again).toMatchObject({ rows: STAGING_BATCH + 10, inserted: STAGING_BATCH + 10 });
    expect(await storedOf(uid)).toHaveLength(STAGING_BATCH + 10);
  });

  it('names a second-batch line holding a tab, a backslash, \\N or a quoted line break as not a UID, and stores nothing', async () => {
    const { uid, lines } = await twoBatchFile('CPYE');
    // Line n of the file is lines[n - 1]; all after the first batch was written.
    const odd = {
      [STAGING_BATCH + 2]: `"${uid}\tX"`,
      [STAGING_BATCH + 4]: `${uid}\\X`,
      [STAGING_BATCH + 6]: '\\N',
      [STAGING_BATCH + 8]: `"${uid}\nX"`,
    };
    for (const [line, cell] of Object.entries(odd)) {
      const [, ...rest] = (lines[Number(line) - 1] as string).split(',');
      lines[Number(line) - 1] = [cell, ...rest].join(',');
    }
    const csv = Buffer.from(`${lines.join('\n')}\n`);
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'escapes.csv', source: csv, sizeBytes: csv.length },
    );
    expect(result).toMatchObject({ status: 'rejected', inserted: 0 });
    expect(result.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [STAGING_BATCH + 2, 'uid'],
      [STAGING_BATCH + 4, 'uid'],
      [STAGING_BATCH + 6, 'uid'],
      // The quoted break makes one record of two lines, named by the line it ends on (csv.test.ts).
      [STAGING_BATCH + 9, 'uid'],
    ]);
    expect(result.problems[0]?.reason).toBe(`not a UID (4 to 32 letters, digits, - or _) ("${uid}\\u0009X")`);
    expect(await storedOf(uid)).toEqual([]);
  });
});
