import type { Executor } from './client.js';

/**
 * A drizzle query built once per database handle or transaction and then only executed (drizzle's
 * `.prepare()` with `sql.placeholder` values): building a select walks every column through drizzle's
 * entity checks, which was a quarter of the app's CPU for a one-statement member call (issue 14).
 * Keyed weakly, so a transaction's queries go with it.
 */
export function builtOnce<Q>(build: (db: Executor) => Q): (db: Executor) => Q {
  const built = new WeakMap<Executor, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
