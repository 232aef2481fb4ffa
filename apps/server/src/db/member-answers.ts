import { LRUCache } from 'lru-cache';
import { type ChangeListener, type ChangeListenerOptions, listenForChanges } from './change-listener.js';
import type { DatabaseHandle } from './client.js';
import { MEMBER_CHANGES_CHANNEL } from './member-changes-channel.js';
import { RecentEvictions } from './recent-evictions.js';

/**
 * Answers about one member kept in this process (a session behind a token, the member's myInfo,
 * getSettings, profile, isSignTody, withdrawable, signHistory, task list, pending estimates
 * (expireRebate) and the first pages of their record, points, withdrawal, friend, reward, adjustment
 * and support request lists), so the hottest member calls do not ask the database each time
 * (issue 14). They are dropped when the database says the member changed: triggers NOTIFY
 * `elex_member_changed` with the members' ids at commit (migrations 0028_member_notify,
 * 0051_member_notify_profile, 0052_member_notify_withdrawable, 0053_member_notify_records,
 * 0054_member_notify_lists, 0056_member_notify_friends, 0058_member_notify_tasks and
 * 0059_member_notify_support), and with the `(plat_id, uid)` pairs touched by every trigger that names
 * a UID's holders (0055_member_notify_uids: an answer covering one of those UIDs goes too), and every
 * instance listens. While the listener is lost nothing is kept and every answer comes from the
 * database; when it listens again it starts empty. docs/decisions.md, "Member answers cached per
 * process, evicted by NOTIFY" and "Kept answers evicted by UID too (migration 0055)".
 */

/** A UID an answer covers: the exchange and the UID. */
interface CoveredUid {
  platId: number;
  uid: string;
}

/**
 * What `keepable` says before a load: whether its answer may be kept (no writer in flight whose
 * notification may not name the member), and the UIDs the answer covers (the member's live bindings
 * as read then): a notification naming one of them drops it, and one that arrives while it loads
 * keeps it from being kept.
 */
export interface KeepCheck {
  keep: boolean;
  uids: readonly CoveredUid[];
}

/** The key a UID is filed and evicted under: `<platId>:<uid>` (a plat id has no ':'). */
export const uidKey = (platId: number, uid: string) => `${platId}:${uid}`;

/** A notification on the channel, read: everything (`*`), or the members and UIDs (`uidKey`) named. */
export type MemberChange =
  | { all: true }
  | { all: false; members: readonly number[]; uids: readonly string[] };

const PLAT_ID = /^\d{1,10}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;

/**
 * Reads a payload of comma-separated tokens (migrations 0028 and 0055): a member's id (digits), a
 * UID `u<platId>:<uid>` (the UID as is: letters, digits, '-', '_') or `x<platId>:<hex of its UTF-8>`
 * (any other UID), or `*` (everything). A token of no such form is skipped.
 */
export function parseMemberChange(payload: string): MemberChange {
  const members: number[] = [];
  const uids: string[] = [];
  for (const part of payload.split(',')) {
    if (part === '*') return { all: true };
    const kind = part[0];
    if (kind === 'u' || kind === 'x') {
      const colon = part.indexOf(':');
      const platId = part.slice(1, colon);
      const spelled = part.slice(colon + 1);
      if (colon < 0 || !PLAT_ID.test(platId) || spelled === '') continue;
      if (kind === 'x' && !HEX.test(spelled)) continue;
      const uid = kind === 'u' ? spelled : Buffer.from(spelled, 'hex').toString('utf8');
      uids.push(uidKey(Number(platId), uid));
      continue;
    }
    const member = Number(part);
    if (Number.isSafeInteger(member)) members.push(member);
  }
  return { all: false, members, uids };
}

/** A kind of answer: its name and how many of them one process keeps at most (least recently used go). */
export interface AnswerKind<V> {
  readonly name: string;
  readonly max: number;
  /** When set, the kept answers' total size (`sizeOf` each) stays under this too. */
  readonly maxBytes?: number;
  readonly sizeOf?: (value: V) => number;
  /** Only carries V; never set. */
  readonly value?: V;
}

export function answerKind<V>(
  name: string,
  max: number,
  bytes?: { maxBytes: number; sizeOf: (value: V) => number },
): AnswerKind<V> {
  return bytes ? { name, max, ...bytes } : { name, max };
}

/**
 * `load()`'s answer about `member`, kept under `key` (the member's id unless given) while `answers` is
 * on, and read from the database every time when it is off (MEMBER_CACHE=off, operator commands). A
 * kept answer `stillValid` refuses (one past a time it changes at by itself, one read with other
 * in-process settings) is read again. `keepable`, asked before the load, may say the answer read next
 * is not to be kept (a writer in flight whose notification may not name this member): it is then
 * answered and read again next time; and it names the UIDs the answer covers, under which it is filed
 * too (see `KeepCheck`).
 */
export function keptForMember<V>(
  answers: MemberAnswers | undefined,
  kind: AnswerKind<V>,
  member: number,
  load: () => Promise<V>,
  options: {
    key?: string;
    stillValid?: (value: V) => boolean;
    keepable?: () => Promise<KeepCheck>;
  } = {},
): Promise<V> {
  const kept = answers?.of(kind);
  if (!kept) return load();
  const { keepable } = options;
  return kept.read(
    options.key ?? String(member),
    async () => {
      // Asked before the load's own statement: a writer that takes its lock after this sees what the
      // load saw, so its notification names this member. A writer without the lock whose statement
      // ran before the member bound a UID names the UID at its commit: the answer is filed under it.
      const check = keepable ? await keepable() : undefined;
      const value = await load();
      if (!check) return { member, value };
      return {
        member,
        value,
        keep: check.keep,
        uids: check.uids.map(({ platId, uid }) => uidKey(platId, uid)),
      };
    },
    options.stillValid,
  );
}

/** Pages 1 to this of a member's list are kept; deeper ones are read every time (memory stays bounded by what members look at first). */
const KEPT_PAGES = 3;

/**
 * A page of one of `member`'s lists: kept like `keptForMember` under the member and `request` (every
 * field that decides the answer, canonical: its JSON is the key) when it is among the first pages;
 * read from the database every time when deeper. `stillValid` and `keepable` as for `keptForMember`.
 */
export function keptPageForMember<V>(
  answers: MemberAnswers | undefined,
  kind: AnswerKind<V>,
  member: number,
  request: { page: number; pageSize: number; filter: readonly unknown[] },
  load: () => Promise<V>,
  options: { stillValid?: (value: V) => boolean; keepable?: () => Promise<KeepCheck> } = {},
): Promise<V> {
  if (request.page > KEPT_PAGES) return load();
  return keptForMember(answers, kind, member, load, {
    ...options,
    key: JSON.stringify([member, ...request.filter, request.page, request.pageSize]),
  });
}

/** The member an answer belongs to, and the answer. */
export interface Owned<V> {
  member: number;
  value: V;
  /** False: answered but not kept (`keepable` said no). */
  keep?: boolean;
  /** The UIDs (`uidKey`) the answer covers: filed under them too, and not kept if one changed while it loaded. */
  uids?: readonly string[];
}

/**
 * Members whose last eviction is remembered, so that an answer read from the database before a
 * member's change but arriving after its notification is not kept.
 */
const REMEMBERED_EVICTIONS = 50_000;
/** The same for UIDs: an import names thousands at once; one forgotten keeps nothing read meanwhile. */
const REMEMBERED_UID_EVICTIONS = 100_000;
/**
 * Read again after this long even when nothing said it changed: a change made with triggers off (a
 * restore, a replica's apply) shows by then. Changes made the normal way are seen at once.
 */
const KEPT_AT_MOST_MS = 10 * 60_000;

export class MemberAnswers {
  #listener: ChangeListener | undefined;
  readonly #caches = new Map<AnswerKind<unknown>, MemberAnswerCache<unknown>>();
  /** Counts evictions: a load remembers it at its start. */
  #sequence = 0;
  #clearedAt = 0;
  readonly #evictedAt = new RecentEvictions<number>(REMEMBERED_EVICTIONS);
  readonly #uidEvictedAt = new RecentEvictions<string>(REMEMBERED_UID_EVICTIONS);

  private constructor() {}

  /** Starts listening; answers once the first attempt is over (on failure it keeps trying, nothing kept meanwhile). */
  static async start(handle: DatabaseHandle, options: ChangeListenerOptions): Promise<MemberAnswers> {
    const answers = new MemberAnswers();
    answers.#listener = await listenForChanges(
      handle,
      MEMBER_CHANGES_CHANNEL,
      {
        message: (payload) => answers.#changed(payload),
        // Whatever was kept may have missed a change: start again from nothing, either way.
        listening: () => answers.#clear(),
        lost: () => answers.#clear(),
      },
      options,
    );
    return answers;
  }

  /** True while changes are heard: kept answers are served and new ones kept. */
  get usable(): boolean {
    return this.#listener?.listening === true;
  }

  /** How often the listener was lost since start. */
  get losses(): number {
    return this.#listener?.losses ?? 0;
  }

  of<V>(kind: AnswerKind<V>): MemberAnswerCache<V> {
    let cache = this.#caches.get(kind as AnswerKind<unknown>);
    if (!cache) {
      cache = new MemberAnswerCache<unknown>(this, kind as AnswerKind<unknown>);
      this.#caches.set(kind as AnswerKind<unknown>, cache);
    }
    return cache as MemberAnswerCache<V>;
  }

  async close(): Promise<void> {
    await this.#listener?.close();
    this.#clear();
  }

  /** @internal The sequence a load starts at. */
  get sequence(): number {
    return this.#sequence;
  }

  /** @internal Whether an answer of `member`, covering `uids` (`uidKey`), read since `sequence` may be kept. */
  mayKeep(member: number, sequence: number, uids: readonly string[] = []): boolean {
    if (!this.usable || this.#clearedAt > sequence) return false;
    if (this.#evictedAt.at(member) > sequence) return false;
    return uids.every((uid) => this.#uidEvictedAt.at(uid) <= sequence);
  }

  #changed(payload: string): void {
    const change = parseMemberChange(payload);
    if (change.all) {
      this.#clear();
      return;
    }
    this.#sequence += 1;
    for (const member of change.members) {
      this.#evictedAt.record(member, this.#sequence);
      for (const cache of this.#caches.values()) cache.evictMember(member);
    }
    for (const uid of change.uids) {
      this.#uidEvictedAt.record(uid, this.#sequence);
      for (const cache of this.#caches.values()) cache.evictUid(uid);
    }
  }

  #clear(): void {
    this.#sequence += 1;
    this.#clearedAt = this.#sequence;
    for (const cache of this.#caches.values()) cache.clear();
  }
}

/**
 * Answers of one kind, by key (a token's digest, a member's id), each belonging to one member and
 * covering some UIDs (maybe none).
 */
export class MemberAnswerCache<V> {
  readonly #entries: LRUCache<string, Owned<V>>;
  readonly #keysOf = new Map<number, Set<string>>();
  readonly #keysOfUid = new Map<string, Set<string>>();

  constructor(
    private readonly answers: MemberAnswers,
    kind: AnswerKind<V>,
  ) {
    const { maxBytes, sizeOf } = kind;
    this.#entries = new LRUCache<string, Owned<V>>({
      max: kind.max,
      ttl: KEPT_AT_MOST_MS,
      dispose: (entry, key) => this.#unindex(entry, key),
      // An answer larger than the whole bound is not kept (lru-cache refuses it).
      ...(maxBytes !== undefined && sizeOf
        ? { maxSize: maxBytes, sizeCalculation: (entry: Owned<V>) => Math.max(1, sizeOf(entry.value)) }
        : {}),
    });
  }

  /**
   * The kept answer for `key` if there is one and `stillValid` (when given) accepts it; otherwise
   * `load()`'s, kept for the next call unless its member or one of its UIDs changed, or the listener
   * was lost, while it loaded. `load` answers undefined for "none" (an unknown token): never kept. Kept values are
   * shared by every later caller, so callers do not change them.
   */
  async read(key: string, load: () => Promise<Owned<V>>, stillValid?: (value: V) => boolean): Promise<V>;
  async read(
    key: string,
    load: () => Promise<Owned<V> | undefined>,
    stillValid?: (value: V) => boolean,
  ): Promise<V | undefined>;
  async read(
    key: string,
    load: () => Promise<Owned<V> | undefined>,
    stillValid?: (value: V) => boolean,
  ): Promise<V | undefined> {
    if (this.answers.usable) {
      const kept = this.#entries.get(key);
      if (kept && (!stillValid || stillValid(kept.value))) return kept.value;
      if (kept) this.#entries.delete(key);
    }
    const since = this.answers.sequence;
    const loaded = await load();
    if (loaded && loaded.keep !== false && this.answers.mayKeep(loaded.member, since, loaded.uids)) {
      this.#entries.set(key, loaded);
      // Too large for the kind's bytes: not kept, nothing to index.
      if (!this.#entries.has(key)) return loaded.value;
      index(this.#keysOf, loaded.member, key);
      for (const uid of loaded.uids ?? []) index(this.#keysOfUid, uid, key);
    }
    return loaded?.value;
  }

  /** @internal */
  evictMember(member: number): void {
    const keys = this.#keysOf.get(member);
    if (!keys) return;
    for (const key of [...keys]) this.#entries.delete(key);
  }

  /** @internal Drops the answers covering `uid` (`uidKey`). */
  evictUid(uid: string): void {
    const keys = this.#keysOfUid.get(uid);
    if (!keys) return;
    for (const key of [...keys]) this.#entries.delete(key);
  }

  /** @internal */
  clear(): void {
    this.#entries.clear();
    this.#keysOf.clear();
    this.#keysOfUid.clear();
  }

  #unindex(entry: Owned<V>, key: string): void {
    unindex(this.#keysOf, entry.member, key);
    for (const uid of entry.uids ?? []) unindex(this.#keysOfUid, uid, key);
  }
}

function index<K>(keysOf: Map<K, Set<string>>, owner: K, key: string): void {
  let keys = keysOf.get(owner);
  if (!keys) {
    keys = new Set();
    keysOf.set(owner, keys);
  }
  keys.add(key);
}

function unindex<K>(keysOf: Map<K, Set<string>>, owner: K, key: string): void {
  const keys = keysOf.get(owner);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) keysOf.delete(owner);
}
