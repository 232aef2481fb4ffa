import { type SQL, sql } from 'drizzle-orm';
import type { Transaction } from './client.js';
import { rowsOf } from './rows.js';

/** A table of figures statement triggers keep, with the statement that computes it from scratch. */
export interface KeptTable {
  table: string;
  columns: string;
  fill: SQL;
  /** Rows the triggers leave that a rebuild drops without anything being off. */
  spent?: SQL;
  /**
   * What the table holds, as rows comparable with `fill`'s (default: its rows, less the spent ones): a
   * table of deltas (several rows a key) compares its sums per key.
   */
  holds?: SQL;
}

export interface RebuiltFigures {
  table: string;
  /** Rows it holds now. */
  rows: number;
  /** Rows the rebuild took out because they were wrong (a UID's status left at zero is not counted). */
  removed: number;
  /** Rows the rebuild put in that were not there as they are now: missing, or corrected. */
  added: number;
}

/**
 * Replaces what the triggers kept in one table by `fill`, in the caller's transaction (which holds the
 * locks that keep writers out meanwhile), and says how many rows were off.
 */
export async function rebuildKeptTable(tx: Transaction, figure: KeptTable): Promise<RebuiltFigures> {
  const table = sql.raw(figure.table);
  const columns = sql.raw(figure.columns);
  const holds =
    figure.holds ?? sql`select ${columns} from ${table} where not (${figure.spent ?? sql`false`})`;
  await tx.execute(sql`create temporary table kept_before on commit drop as ${holds}`);
  await tx.execute(sql`delete from ${table}`);
  await tx.execute(sql`insert into ${table} (${columns}) ${figure.fill}`);
  await tx.execute(sql`create temporary table kept_after on commit drop as ${holds}`);
  const [counts] = rowsOf<{ rows: string; removed: string; added: string }>(
    await tx.execute(sql`
      select (select count(*) from ${table}) as rows,
        (select count(*) from (select * from kept_before except all select * from kept_after) gone) as removed,
        (select count(*) from (select * from kept_after except all select * from kept_before) came) as added`),
  );
  await tx.execute(sql`drop table kept_before, kept_after`);
  return {
    table: figure.table,
    rows: Number(counts?.rows ?? 0),
    removed: Number(counts?.removed ?? 0),
    added: Number(counts?.added ?? 0),
  };
}
