import {
  type Activity,
  buildSignupUrl,
  CASHBACK,
  type CashbackEstimateResponse,
  DECIMALS,
  type ExchangeDetailResponse,
  type ExchangeDictionary,
  type ExchangeIndexResponse,
  type ExchangeIndexRow,
  estimateCashback,
  estimateNewTraderCashback,
  feesForEstimate,
  fromScaled,
  type Locale,
  maskUid,
  type PartnerNotReady,
  State,
  signupProblems,
  type TradeFrequency,
  translate,
  type VipTier,
} from '@elex/contract';
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { CashbackStatistics } from './cashback-statistics.js';
import {
  type ActivityRow,
  deleteActivityRow,
  type ExchangeRow,
  insertActivityRows,
  insertExchangeUnlessPresent,
  type NewActivity,
  type NewExchange,
  type NewVipTier,
  nextExchangeSlot,
  replaceVipTierRows,
  selectCatalog,
  updateActivityRow,
  updateExchangeRow,
  type VipTierRow,
} from './exchanges.repository.js';
import { latestStatistics, servedStatistics } from './statistics-cache.js';

export type {
  ActivityRow,
  ExchangeRow,
  NewActivity,
  NewVipTier,
  VipTierRow,
} from './exchanges.repository.js';

export interface CatalogDeps {
  db: Database;
  clock: Clock;
}

// ---------------------------------------------------------------------------------------------------
// The catalog cache
//
// POST /elex/exchange/index is the hottest call of the site, and the catalog changes only when an
// operator edits it. Each process keeps one snapshot of the catalog (per database, so tests with
// several apps never share one). Every catalog write in this process calls invalidateCatalogCache();
// a write made by another instance reaches this one within CATALOG_CACHE_TTL_MS, because a snapshot
// older than that is reloaded. Concurrent requests during a reload share one load.

/** How stale the catalog may be on an instance that did not make the write itself. */
export const CATALOG_CACHE_TTL_MS = 30_000;

interface CatalogExchange {
  row: ExchangeRow;
  tiers: VipTierRow[];
  activities: ActivityRow[];
}

/** The catalog as stored: what names, rules and links need. */
interface CatalogBase {
  /** Live and retired partners (a draft is the console's alone): names and history for members. */
  exchanges: CatalogExchange[];
  /** The live ones: every public list, the calculator and the statistics (issue 12). */
  listed: CatalogExchange[];
  byId: Map<number, CatalogExchange>;
  activities: ActivityRow[];
  /** Answers that need no statistics (the dictionary), built once per load. */
  plainMemo: Map<string, unknown>;
}

interface CatalogSnapshot extends CatalogBase {
  /** The public statistics the answers were built with (statistics-cache.ts swaps newer ones in). */
  statistics: CashbackStatistics;
  statisticsVersion: number;
  /** Answers built once per snapshot, statistics and language. */
  memo: Map<string, unknown>;
}

interface CacheEntry {
  generation: number;
  loadedAt: number;
  base: Promise<CatalogBase>;
  /**
   * With the statistics, made by the first call that shows them. The cashback engine asks for names
   * and rates only, often inside a transaction (a rebate import, a settlement), and an executor the
   * statistics have never seen would compute them first: a second or more at a daily-import ledger.
   */
  snapshot?: Promise<CatalogSnapshot>;
  /** The snapshot once loaded: a request then reads it without waiting on a promise. */
  loaded?: CatalogSnapshot;
}

let generation = 0;
const cache = new WeakMap<object, CacheEntry>();

/** Drops every cached catalog in this process: the next read loads it again. Call after each write. */
export function invalidateCatalogCache() {
  generation += 1;
}

async function catalog(deps: CatalogDeps): Promise<CatalogSnapshot> {
  const now = deps.clock.now();
  return withLatestStatistics(deps, await cachedCatalog(deps, now), now);
}

/** Statistics refreshed in the background since the snapshot was built: answers use them from now on. */
function withLatestStatistics(deps: CatalogDeps, snapshot: CatalogSnapshot, now: Date): CatalogSnapshot {
  const latest = latestStatistics(deps.db, now);
  if (latest && latest.version > snapshot.statisticsVersion) {
    snapshot.statistics = latest.value;
    snapshot.statisticsVersion = latest.version;
    snapshot.memo.clear();
  }
  return snapshot;
}

function freshEntry(deps: CatalogDeps, now: number): CacheEntry | undefined {
  const entry = cache.get(deps.db);
  return entry && entry.generation === generation && now - entry.loadedAt < CATALOG_CACHE_TTL_MS
    ? entry
    : undefined;
}

/**
 * The catalog when a fresh snapshot is loaded already, without a promise: the hottest call answers
 * in the same turn of the event loop (issue 14). Undefined when it must be loaded (`catalog`).
 */
function loadedCatalog(deps: CatalogDeps): CatalogSnapshot | undefined {
  const now = deps.clock.now();
  const loaded = freshEntry(deps, now.getTime())?.loaded;
  return loaded && withLatestStatistics(deps, loaded, now);
}

function cachedEntry(deps: CatalogDeps, now: Date): CacheEntry {
  const entry = freshEntry(deps, now.getTime());
  if (entry) return entry;
  const created: CacheEntry = { generation, loadedAt: now.getTime(), base: loadBase(deps.db) };
  cache.set(deps.db, created);
  // A failed load is not cached: the next request tries again.
  created.base.catch(() => forget(deps, created));
  return created;
}

function forget(deps: CatalogDeps, entry: CacheEntry) {
  if (cache.get(deps.db) === entry) cache.delete(deps.db);
}

/** The catalog without the statistics (names, rates, links): never waits for them. */
function catalogBase(deps: CatalogDeps): Promise<CatalogBase> {
  return cachedEntry(deps, deps.clock.now()).base;
}

function cachedCatalog(deps: CatalogDeps, now: Date): Promise<CatalogSnapshot> {
  const entry = cachedEntry(deps, now);
  if (!entry.snapshot) {
    const snapshot = entry.base.then((base) => withStatistics(deps.db, base, now));
    entry.snapshot = snapshot;
    snapshot.then(
      (loaded) => {
        entry.loaded = loaded;
      },
      () => forget(deps, entry),
    );
  }
  return entry.snapshot;
}

async function withStatistics(db: Executor, base: CatalogBase, now: Date): Promise<CatalogSnapshot> {
  const statistics = await servedStatistics(
    db,
    base.listed.map((exchange) => exchange.row.id),
    now,
  );
  return {
    ...base,
    statistics: statistics.value,
    statisticsVersion: statistics.version,
    memo: new Map(),
  };
}

async function loadBase(db: Executor): Promise<CatalogBase> {
  const catalogRows = await selectCatalog(db);
  const exchangeRows = catalogRows.exchangeRows.filter((row) => row.status !== 'draft');
  const exchanges = exchangeRows.map((row) => ({
    row,
    tiers: catalogRows.tierRows.filter((tier) => tier.exchangeId === row.id),
    activities: catalogRows.activityRows.filter((activity) => activity.exchangeId === row.id),
  }));
  const listed = exchanges.filter((exchange) => exchange.row.status === 'live');
  const listedIds = new Set(listed.map((exchange) => exchange.row.id));
  const byId = new Map(exchanges.map((exchange) => [exchange.row.id, exchange]));
  const activities = catalogRows.activityRows.filter((activity) => listedIds.has(activity.exchangeId));
  return { exchanges, listed, byId, activities, plainMemo: new Map() };
}

function memoized<T>(snapshot: Pick<CatalogSnapshot, 'memo'>, key: string, build: () => T): T {
  let value = snapshot.memo.get(key) as T | undefined;
  if (value === undefined) {
    value = build();
    snapshot.memo.set(key, value);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Wire formats

const feePercent = (ppm: number) => fromScaled(BigInt(ppm), DECIMALS.feePercent);
const cashPercent = (bps: number) => fromScaled(BigInt(bps), DECIMALS.cashPercent);
const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
const score = (tenths: number) => tenths / 10;

function toActivity(activity: ActivityRow, locale: Locale): Activity {
  return {
    platId: activity.exchangeId,
    title: activity.titles[locale] || activity.titles.en,
    activityUrl: activity.activityUrl,
  };
}

function toIndexRow(exchange: CatalogExchange, statistics: CashbackStatistics): ExchangeIndexRow {
  const { row } = exchange;
  return {
    platId: row.id,
    platname: row.name,
    abbreviation: row.abbreviation,
    logo: row.logo,
    score: score(row.scoreTenths),
    cashRate: cashPercent(row.cashRateBps),
    limitPrice: feePercent(row.makerFeePpm),
    marketPrice: feePercent(row.takerFeePpm),
    personAvg: usdt(statistics.personAvgMicro.get(row.id) ?? 0n),
    mark: row.marks,
    isRecommended: row.isRecommended,
    isRacing: row.isRacing,
  };
}

function toVipTier(tier: VipTierRow): VipTier {
  return {
    level: tier.level,
    volume30d: tier.minVolume30dUsdt === null ? null : tier.minVolume30dUsdt.toString(),
    asset:
      tier.minAssetAmount === null
        ? null
        : { amount: tier.minAssetAmount.toString(), symbol: tier.minAssetSymbol ?? 'USDT' },
    limitPrice: feePercent(tier.makerFeePpm),
    marketPrice: feePercent(tier.takerFeePpm),
  };
}

// ---------------------------------------------------------------------------------------------------
// Sign-up links (issue 11: one referral code per partner, docs/exchanges.md "Sign-up links")

/**
 * Which sign-up links the public calls serve: production only ready partners' (a trader sent through
 * a placeholder link would never be referred, so we would never pay them); development and tests
 * every partner's, placeholder included, so the demo and the seeded catalog can be clicked through.
 */
export type SignupLinkPolicy = 'readyOnly' | 'evenUnready';

export function signupLinkPolicy(env: Config['env']): SignupLinkPolicy {
  return env === 'production' ? 'readyOnly' : 'evenUnready';
}

/** The link and code a visitor is shown: built from the one stored code, or none. */
function publicSignup(row: ExchangeRow, policy: SignupLinkPolicy) {
  // A retired partner no longer refers anyone to us: nobody is sent to sign up there.
  if (row.status !== 'live') return { signupUrl: null, referralCode: null };
  if (policy === 'readyOnly' && signupProblems(row).length > 0)
    return { signupUrl: null, referralCode: null };
  return {
    signupUrl: buildSignupUrl(row.signupUrlTemplate, row.referralCode),
    referralCode: row.referralCode,
  };
}

/** Partners whose sign-up link cannot be offered yet, in catalog order, read fresh (not cached). */
export async function listPartnersNotReady(db: Executor): Promise<PartnerNotReady[]> {
  const { exchangeRows } = await selectCatalog(db);
  return exchangeRows
    .filter((row) => row.status !== 'retired')
    .map((row) => ({ platId: row.id, name: row.name, problems: signupProblems(row) }))
    .filter((partner) => partner.problems.length > 0);
}

export interface StartupLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * Said once at start: which partners are not ready and what that means here. A warning in production
 * (their sign-up action is unavailable to traders); a note elsewhere (their links still show).
 */
export async function reportPartnersNotReady(
  db: Executor,
  env: Config['env'],
  log: StartupLog,
): Promise<PartnerNotReady[]> {
  const notReady = await listPartnersNotReady(db);
  if (notReady.length === 0) return notReady;
  const partners = notReady.map((partner) => `${partner.name} (${partner.problems.join(', ')})`);
  if (signupLinkPolicy(env) === 'readyOnly') {
    log.warn(
      { partners },
      'partners not ready: their sign-up links are hidden until an operator enters the real referral ' +
        'code and a link template with {code} in the console (Exchanges)',
    );
  } else {
    log.info(
      { partners },
      'partners not ready: their placeholder sign-up links are shown outside production',
    );
  }
  return notReady;
}

// ---------------------------------------------------------------------------------------------------
// Reads

function buildIndex(snapshot: CatalogSnapshot, locale: Locale): ExchangeIndexResponse {
  return memoized(snapshot, `index:${locale}`, () => {
    const activities = (kind: ActivityRow['kind']) =>
      snapshot.activities
        .filter((activity) => activity.kind === kind)
        .map((activity) => toActivity(activity, locale));
    return {
      allExchange: snapshot.listed.map((exchange) => toIndexRow(exchange, snapshot.statistics)),
      fames: snapshot.statistics.fames.map((fame) => ({
        platId: fame.platId,
        amount: usdt(fame.amountMicro),
      })),
      generalActivity: activities('general'),
      hotActivity: activities('hot'),
    };
  });
}

/**
 * The whole success envelope of the index, serialized once per snapshot and language: a cache hit
 * costs a map lookup, which keeps the hottest call close to a bare HTTP server.
 */
export async function getExchangeIndexEnvelopeJson(deps: CatalogDeps, locale: Locale): Promise<Buffer> {
  return indexEnvelopeJson(await catalog(deps), locale);
}

/**
 * The same answer without waiting, when the catalog is loaded and fresh (nearly every request);
 * undefined when it must be loaded first (`getExchangeIndexEnvelopeJson`).
 */
export function loadedExchangeIndexEnvelopeJson(deps: CatalogDeps, locale: Locale): Buffer | undefined {
  const snapshot = loadedCatalog(deps);
  return snapshot && indexEnvelopeJson(snapshot, locale);
}

// The memo keys made once: a key built per request was hashed again on every lookup.
const INDEX_JSON_KEYS = new Map<Locale, string>();

function indexEnvelopeJson(snapshot: CatalogSnapshot, locale: Locale): Buffer {
  let key = INDEX_JSON_KEYS.get(locale);
  if (!key) {
    key = `index-json:${locale}`;
    INDEX_JSON_KEYS.set(locale, key);
  }
  return memoized(snapshot, key, () =>
    Buffer.from(
      JSON.stringify({
        state: State.Success,
        message: translate(locale, 'ok'),
        content: buildIndex(snapshot, locale),
      }),
    ),
  );
}

/**
 * `GET /elex/user/config/res.json`: the exchange dictionary the web keeps for pickers and logos.
 * Callers inside the server that only need names keep the default, which never shows an unready link.
 */
export async function getExchangeDictionary(
  deps: CatalogDeps,
  signupLinks: SignupLinkPolicy = 'readyOnly',
): Promise<ExchangeDictionary> {
  const snapshot = await catalogBase(deps);
  return memoized({ memo: snapshot.plainMemo }, `dictionary:${signupLinks}`, () => ({
    exchangeList: snapshot.exchanges.map(({ row }) => ({
      id: row.id,
      name: row.name,
      Abbreviation: row.abbreviation,
      logo: row.logo,
      ...publicSignup(row, signupLinks),
      score: score(row.scoreTenths),
      cashRate: cashPercent(row.cashRateBps),
      speedUpCashRate: cashPercent(row.speedUpCashRateBps),
      limitPrice: feePercent(row.makerFeePpm),
      marketPrice: feePercent(row.takerFeePpm),
      newUserDiscountPercent: row.newUserDiscountPercent,
      newUserDiscountDays: row.newUserDiscountDays,
      mark: row.marks,
      isRecommended: row.isRecommended,
      isRacing: row.isRacing,
      feesCheckedOn: row.feesCheckedOn,
      retired: row.status === 'retired',
    })),
    score: snapshot.listed.map(({ row }) => ({ id: row.id, score: score(row.scoreTenths) })),
  }));
}

function findExchange(snapshot: CatalogSnapshot, platId: number): CatalogExchange {
  const exchange = snapshot.byId.get(platId);
  if (!exchange) throw new AppError(State.NotFound, 'exchangeNotFound');
  return exchange;
}

/** `POST /elex/exchange/detail`: everything the detail page shows. Unknown platId: state 1004. */
export async function getExchangeDetail(
  deps: CatalogDeps,
  platId: number,
  locale: Locale,
  signupLinks: SignupLinkPolicy,
): Promise<ExchangeDetailResponse> {
  const snapshot = await catalog(deps);
  const exchange = findExchange(snapshot, platId);
  return memoized(snapshot, `detail:${platId}:${locale}:${signupLinks}`, () => {
    const { row } = exchange;
    const ranking = snapshot.statistics.ranking.get(row.id) ?? [];
    return {
      platId: row.id,
      platname: row.name,
      abbreviation: row.abbreviation,
      logo: row.logo,
      score: score(row.scoreTenths),
      mark: row.marks,
      retired: row.status === 'retired',
      ...publicSignup(row, signupLinks),
      limitPrice: feePercent(row.makerFeePpm),
      marketPrice: feePercent(row.takerFeePpm),
      cashRate: cashPercent(row.cashRateBps),
      speedUpCashRate: cashPercent(row.speedUpCashRateBps),
      speedUpWeeks: CASHBACK.speedUpWeeks,
      newUserDiscountPercent: row.newUserDiscountPercent,
      newUserDiscountDays: row.newUserDiscountDays,
      vipRule: row.vipRule,
      vipTiers: exchange.tiers.map(toVipTier),
      personAvg: usdt(snapshot.statistics.personAvgMicro.get(row.id) ?? 0n),
      rankingDays: CASHBACK.rankingWindowDays,
      ranking: [...ranking]
        .sort((a, b) => (a.amountMicro === b.amountMicro ? 0 : a.amountMicro > b.amountMicro ? -1 : 1))
        .map((entry, index) => ({
          rank: index + 1,
          uid: maskUid(entry.uid),
          amount: usdt(entry.amountMicro),
        })),
      activities: exchange.activities.map((activity) => toActivity(activity, locale)),
      feesCheckedOn: row.feesCheckedOn,
    };
  });
}

export interface EstimateInput {
  platId: number;
  leverage: number;
  seed: string;
  frequency: TradeFrequency;
}

/**
 * `POST /elex/exchange/estimate`: the calculator's result at the chosen exchange and, for the chart,
 * at every partner (most cashback first), with the contract's formula and each exchange's real rates.
 */
export async function estimateCashbackAtPartners(
  deps: CatalogDeps,
  input: EstimateInput,
): Promise<CashbackEstimateResponse> {
  const snapshot = await catalog(deps);
  const chosen = findExchange(snapshot, input.platId);
  // The calculator compares partners a trader can still sign up with.
  if (chosen.row.status !== 'live') throw new AppError(State.NotFound, 'exchangeNotFound');
  const estimates = snapshot.listed.map(({ row, tiers }) => {
    const answers = { frequency: input.frequency, seed: input.seed, leverage: input.leverage };
    // The fees of the VIP level the answers reach: a busy trader pays less and so gets back less.
    const fees = feesForEstimate(
      { ...answers, limitPrice: feePercent(row.makerFeePpm), marketPrice: feePercent(row.takerFeePpm) },
      tiers.map(toVipTier),
      row.vipRule,
    );
    // Never more than the exchange pays us: its rates capped at the share of the fees it paid us in
    // the last 30 days (none measured yet: the catalog's rates, set to what the agreement lets us pay).
    const share = snapshot.statistics.commissionShareBps.get(row.id);
    const capped = (bps: number) => (share === undefined ? bps : Math.min(bps, share));
    const cashRate = cashPercent(capped(row.cashRateBps));
    const speedUpCashRate = cashPercent(capped(row.speedUpCashRateBps));
    const newTraderTerms = {
      speedUpCashRate,
      speedUpDays: CASHBACK.speedUpWeeks * 7,
      discountPercent: row.newUserDiscountPercent,
      discountDays: row.newUserDiscountDays,
    };
    return {
      platId: row.id,
      platname: row.name,
      ...fees,
      cashRate,
      commissionShare:
        share !== undefined && (share < row.cashRateBps || share < row.speedUpCashRateBps)
          ? cashPercent(share)
          : null,
      newTrader: {
        ...estimateNewTraderCashback({ ...answers, ...fees, cashRate, ...newTraderTerms }),
        ...newTraderTerms,
      },
      ...estimateCashback({ ...answers, ...fees, cashRate }),
    };
  });
  const mine = estimates.find((estimate) => estimate.platId === chosen.row.id);
  if (!mine) throw new AppError(State.NotFound, 'exchangeNotFound');
  return {
    platId: chosen.row.id,
    monthly: mine.monthly,
    sixMonths: mine.sixMonths,
    limitPrice: mine.limitPrice,
    marketPrice: mine.marketPrice,
    cashRate: mine.cashRate,
    vipLevel: mine.vipLevel,
    commissionShare: mine.commissionShare,
    newTrader: mine.newTrader,
    comparisons: estimates
      .sort((a, b) => (a.monthlyMicro === b.monthlyMicro ? 0 : a.monthlyMicro > b.monthlyMicro ? -1 : 1))
      .map(({ platId, platname, monthly }) => ({ platId, platname, monthly })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Catalog writes (the operator console calls these). Each one invalidates the cache after its commit.

export type ExchangePatch = Partial<Omit<NewExchange, 'id' | 'createdAt' | 'updatedAt'>>;

const MAX_ID_RACES = 5;

/**
 * Adds a partner as a draft with the next free platId (ids are never reused: a retired partner keeps
 * its own). A concurrent creation that took the id first makes this one draw the next.
 */
export async function createExchange(
  deps: CatalogDeps,
  fields: Omit<NewExchange, 'id' | 'position' | 'status' | 'createdAt' | 'updatedAt'>,
): Promise<number> {
  for (let attempt = 0; attempt < MAX_ID_RACES; attempt += 1) {
    const slot = await nextExchangeSlot(deps.db);
    const now = deps.clock.now();
    const inserted = await insertExchangeUnlessPresent(deps.db, {
      ...fields,
      ...slot,
      status: 'draft',
      createdAt: now,
      updatedAt: now,
    });
    invalidateCatalogCache();
    if (inserted) return slot.id;
  }
  throw new Error('no free platId after several draws');
}

export async function updateExchange(deps: CatalogDeps, platId: number, patch: ExchangePatch) {
  const updated = await updateExchangeRow(deps.db, platId, { ...patch, updatedAt: deps.clock.now() });
  invalidateCatalogCache();
  if (!updated) throw new AppError(State.NotFound, 'exchangeNotFound');
}

export async function replaceVipTiers(deps: CatalogDeps, platId: number, tiers: readonly NewVipTier[]) {
  await deps.db.transaction(async (tx) => {
    const touched = await updateExchangeRow(tx, platId, { updatedAt: deps.clock.now() });
    if (!touched) throw new AppError(State.NotFound, 'exchangeNotFound');
    await replaceVipTierRows(tx, platId, tiers);
  });
  invalidateCatalogCache();
}

export async function addActivities(deps: CatalogDeps, activities: readonly NewActivity[]) {
  const rows = await insertActivityRows(deps.db, activities, deps.clock.now());
  invalidateCatalogCache();
  return rows;
}

export async function removeActivity(deps: CatalogDeps, id: number): Promise<boolean> {
  const removed = await deleteActivityRow(deps.db, id);
  invalidateCatalogCache();
  return removed;
}

/** Changes an activity; undefined when there is none with this id. */
export async function updateActivity(
  deps: CatalogDeps,
  id: number,
  patch: Partial<NewActivity>,
): Promise<ActivityRow | undefined> {
  const row = await updateActivityRow(deps.db, id, patch, deps.clock.now());
  invalidateCatalogCache();
  return row;
}

/**
 * The whole catalog as stored, uncached, for the operator console's editor (an editor must see its
 * own write at once, whatever instance answers).
 */
export function getCatalogRows(db: Executor) {
  return selectCatalog(db);
}

// The console's catalog edits lock an exchange's row through this service (docs/architecture.md, "Boundaries").
export { lockActivityRow, lockExchangeRow } from './exchanges.repository.js';
