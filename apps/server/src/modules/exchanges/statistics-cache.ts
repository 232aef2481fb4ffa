import type { Executor } from '../../db/client.js';
import { type CashbackStatistics, cashbackStatistics } from './cashback-statistics.js';
import {
  lockPublicStatistics,
  selectPublicStatistics,
  storePublicStatistics,
} from './exchanges.repository.js';
import { figuresFromStore, figuresToStore } from './stored-statistics.js';

/**
 * The public cashback statistics never keep a request waiting (issue 14): each process keeps the last
 * figures per database and serves them; once they are older than the TTL a request starts one refresh
 * in the background and is answered with the last figures meanwhile. A failed refresh keeps the last
 * figures and is tried again.
 *
 * The processes of one database share the work: the figures are stored in `public_statistics`, and a
 * refresh first takes the database's lock on them. Who gets it reads the stored figures and takes
 * them when another process computed them less than a TTL ago, else computes and stores them; who
 * finds the lock held keeps its last figures and looks again a little later. So the window is ranked
 * about once per TTL whatever the number of processes, and a process that starts serves the stored
 * figures at once when they are fresh. Only a first request that finds none fresh (or one after the
 * listed exchanges changed) waits, for the lock and then the computation, shared by every request of
 * its process that comes meanwhile.
 */
export const STATISTICS_TTL_MS = 30_000;
/** How soon a process looks again after finding another one computing the figures. */
export const STATISTICS_RETRY_MS = 2_000;

interface Entry {
  /** The listed exchanges the figures are for. */
  key: string;
  platIds: number[];
  value: CashbackStatistics;
  version: number;
  /** The end of the window the figures were computed for, by whichever process computed them. */
  computedAt: number;
  /** No refresh before then: another process was computing. */
  retryAt: number;
  refreshing: Promise<void> | null;
}

interface Figures {
  value: CashbackStatistics;
  computedAt: number;
}

const entries = new WeakMap<object, Entry>();
const first = new WeakMap<object, { key: string; done: Promise<Entry> }>();
let versions = 0;

const keyOf = (platIds: readonly number[]) => [...platIds].sort((a, b) => a - b).join(',');

/** The stored figures for these exchanges when computed less than a TTL before `now` (by its clock). */
async function freshStored(db: Executor, key: string, now: Date): Promise<Figures | undefined> {
  const row = await selectPublicStatistics(db);
  if (!row || row.exchanges !== key) return undefined;
  const age = now.getTime() - row.computedAt.getTime();
  // A row from a clock ahead of ours is not taken as fresh: it would be served until our clock caught up.
  if (age < 0 || age >= STATISTICS_TTL_MS) return undefined;
  const value = figuresFromStore(row.figures);
  return value && { value, computedAt: row.computedAt.getTime() };
}

/**
 * Under the database's lock on the figures: the stored ones when fresh (unless `force`), else computed
 * now and stored. Undefined when `wait` is false and another process holds the lock.
 */
function computeShared(
  db: Executor,
  platIds: readonly number[],
  now: Date,
  options: { wait: boolean; force: boolean },
): Promise<Figures | undefined> {
  const key = keyOf(platIds);
  return db.transaction(async (tx) => {
    if (!(await lockPublicStatistics(tx, options.wait))) return undefined;
    const stored = options.force ? undefined : await freshStored(tx, key, now);
    if (stored) return stored;
    const value = await cashbackStatistics(tx, platIds, now);
    await storePublicStatistics(tx, { exchanges: key, computedAt: now, figures: figuresToStore(value) });
    return { value, computedAt: now.getTime() };
  });
}

/** Figures for these exchanges: the last ones at once, or the first ones when there are none. */
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
  const done = (async () => {
    const figures =
      (await freshStored(db, key, now)) ??
      ((await computeShared(db, platIds, now, { wait: true, force: false })) as Figures);
    const created: Entry = {
      key,
      platIds: [...platIds],
      value: figures.value,
      version: ++versions,
      computedAt: figures.computedAt,
      retryAt: 0,
      refreshing: null,
    };
    entries.set(db, created);
    return created;
  })();
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
  const time = now.getTime();
  if (time - entry.computedAt >= STATISTICS_TTL_MS && time >= entry.retryAt && !entry.refreshing) {
    void renew(db, entry, now, false);
  }
  return entry;
}

/**
 * Recomputes the figures now, whatever another process stored (tests await it); while a background
 * refresh runs, waits for that one instead.
 */
export function refreshStatistics(db: Executor, now: Date): Promise<void> {
  const entry = entries.get(db);
  if (!entry) return Promise.resolve();
  return entry.refreshing ?? renew(db, entry, now, true);
}

function renew(db: Executor, entry: Entry, now: Date, force: boolean): Promise<void> {
  entry.refreshing = computeShared(db, entry.platIds, now, { wait: force, force })
    .then(
      (figures) => {
        if (entries.get(db) !== entry) return;
        if (!figures) {
          entry.retryAt = now.getTime() + STATISTICS_RETRY_MS;
          return;
        }
        entry.value = figures.value;
        entry.version = ++versions;
        entry.computedAt = figures.computedAt;
      },
      // The last figures stay; the next request after the TTL tries again.
      () => {},
    )
    .finally(() => {
      entry.refreshing = null;
    });
  return entry.refreshing;
}
