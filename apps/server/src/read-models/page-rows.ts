/**
 * A page read in one statement as `(select 1) one left join lateral (<the page>)`: every row carries
 * the figures over the whole list (its count, its totals) beside its own columns, and an empty page is
 * a single row of nulls that carries them alone. Answers that first row, for the figures, and the
 * page's own rows (those whose key is not null).
 */
export function pageRows<T>(
  found: readonly T[],
  key: (row: T) => unknown,
): { first: T | undefined; rows: T[] } {
  return { first: found[0], rows: found.filter((row) => key(row) !== null) };
}
