import type { Executor } from '../../db/client.js';
import { type CashbackStatistics, cashbackStatistics } from './cashback-statistics.js';

/**
 * The public cashback statistics never keep a request waiting (issue 14): each process keeps the last
 * figures per database and serves them; once they are older than the TTL a request starts one refresh
 * in the background and is answered with the last figures meanwhile. Only the very first request of a
 * process (or one after the listed exchanges changed) waits for a computation, shared by every
 * request that comes while it runs. A failed refresh keeps the last figures and is tried again.
 */
export const STATISTICS_TTL_MS = 30_000;

interface Entry {
  /** The listed exchanges the figures are for. */
  key: string;
  platIds: number[];
  value: CashbackStatistics;
  version: number;
  computedAt: number;
  refreshing: Promise<void> | null;
}

const entries = new WeakMap<object, Entry>();
const first = new WeakMap<object, { key: string; done: Promise<Entry> }>();
let versions = 0;

const keyOf = (platIds: readonly number[]) => [...platIds].sort((a, b) => a - b).join(',');

/** Figures for these exchanges: the last ones at once, or the first computation when there are none. */
export async function servedStatistics(
  db: Executor,
  platIds: readonly number[],
  now: Date,
): Promise<{ value: CashbackStatistics; version: number }> {
  const key = keyOf(platIds);
  const entry = entries.get(db);
  if (entry && entry.key === key) return latestStatistics(db, now) ?? entry;
  const pending = first.get(db);
  if (pending && pending.key === key) return pending.done;
  const done = cashbackStatistics(db, platIds, now).then((value) => {
    const created: Entry = {
      key,
      platIds: [...platIds],
      value,
      version: ++versions,
      computedAt: now.getTime(),
      refreshing: null,
    };
    entries.set(db, created);
    return created;
  });
  first.set(db, { key, done });
  try {
    return await done;
  } finally {
    if (first.get(db)?.done === done) first.delete(db);
  }
}

/** The last figures (undefined before the first), starting a background refresh when they are old. */
export function latestStatistics(
  db: Executor,
  now: Date,
): { value: CashbackStatistics; version: number } | undefined {
  const entry = entries.get(db);
  if (!entry) return undefined;
  if (now.getTime() - entry.computedAt >= STATISTICS_TTL_MS && !entry.refreshing) {
    void refreshStatistics(db, now);
  }
  return entry;
}

/** Recomputes the figures now (the background refresh; tests await it). */
export function refreshStatistics(db: Executor, now: Date): Promise<void> {
  const entry = entries.get(db);
  if (!entry) return Promise.resolve();
  if (entry.refreshing) return entry.refreshing;
  entry.refreshing = cashbackStatistics(db, entry.platIds, now)
    .then(
      (value) => {
        if (entries.get(db) !== entry) return;
        entry.value = value;
        entry.version = ++versions;
        entry.computedAt = now.getTime();
      },
      // The last figures stay; the next request after the TTL tries again.
      () => {},
    )
    .finally(() => {
      entry.refreshing = null;
    });
  return entry.refreshing;
}
