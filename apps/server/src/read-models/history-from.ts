import { type SQL, sql } from 'drizzle-orm';

/**
 * Where a member's view of a bound UID starts: the latest moment an earlier holder of the UID deleted
 * their account before this binding began (null: the whole history). `binding` is the alias of an
 * `exchange_bindings` row in the statement. The same rule as bindings.repository's `historyFrom` and
 * myInfo's statement (cashback.repository), which read models cannot import.
 */
export function historyFromOf(binding: string): SQL {
  const b = sql.raw(binding);
  return sql`(select max(earlier.unbound_at) from exchange_bindings earlier
    where earlier.plat_id = ${b}.plat_id and earlier.uid = ${b}.uid
      and earlier.unbind_reason = 'accountDeleted' and earlier.unbound_at <= ${b}.bound_at)`;
}
