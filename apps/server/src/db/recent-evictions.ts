/**
 * The eviction sequence of each of the last `limit` keys named (members, UIDs), for MemberAnswers'
 * check that an answer read before a change is not kept after it. A key named again moves to the
 * newest place; past the limit the oldest is forgotten and its sequence becomes the floor every key
 * without an entry answers, so a forgotten eviction still refuses what was read before it.
 *
 * A Map in naming order rather than a preallocated LRU: sequences only grow, so the Map's first entry
 * is always the oldest, and nothing is allocated before a key is named (two LRUs of 50,000 and
 * 100,000 slots took some 30 ms of every start; docs/decisions.md, "Cold start, fourth pass").
 */
export class RecentEvictions<K> {
  readonly #at = new Map<K, number>();
  #forgottenUpTo = 0;

  constructor(private readonly limit: number) {}

  /** The sequence `key` was last evicted at, or the floor of the forgotten ones. */
  at(key: K): number {
    return this.#at.get(key) ?? this.#forgottenUpTo;
  }

  /** `key` evicted at `sequence`, which is at least every sequence recorded before it. */
  record(key: K, sequence: number): void {
    this.#at.delete(key);
    this.#at.set(key, sequence);
    if (this.#at.size <= this.limit) return;
    for (const [oldest, oldestAt] of this.#at) {
      this.#at.delete(oldest);
      this.#forgottenUpTo = Math.max(this.#forgottenUpTo, oldestAt);
      return;
    }
  }

  get size(): number {
    return this.#at.size;
  }
}
