/** Rows of a raw query on either driver (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Postgres takes at most 65,535 parameters a statement: multi-row inserts go in chunks. */
const INSERT_CHUNK = 1000;

export function chunks<T>(items: readonly T[], size = INSERT_CHUNK): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
