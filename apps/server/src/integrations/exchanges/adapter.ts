import { attoToMicro, parseAtto } from './decimal.js';
import type { HttpOptions } from './http.js';

export { asString, isRecord } from './json-values.js';
export type { Credentials } from './types.js';

import type { CommissionEntry, ExchangeAdapter, ReferralEntry, TimeWindow } from './types.js';
import { isWithin } from './windows.js';

/** What the sync needs to know about an adapter beyond the engine's interface. */
interface ExchangeSyncProfile {
  /**
   * 'api': listCommissions yields the exchange's figures. 'csv': the API has no settlement figures
   * (Bybit), so commissions come from the dashboard's CSV through `rebates:import` and the sync only
   * pulls the roster.
   */
  commissionSource: 'api' | 'csv';
  /** Hours after which the exchange's figures covering a moment are final: the sync waits that long. */
  settleHours: number;
  /** How far back the API answers, in days; undefined when no limit is documented. */
  lookbackDays?: number;
}

export interface SyncableExchangeAdapter extends ExchangeAdapter {
  readonly profile: ExchangeSyncProfile;
}

export interface AdapterOptions extends HttpOptions {
  /** Told about rows the adapter cannot turn into USDT figures (another coin), with their count. */
  warn?: (message: string, details: Record<string, unknown>) => void;
  /** Page sizes below the documented maximum (tests use tiny pages to prove paging). */
  pageSize?: number;
  /** The clock for "how far back may I ask" checks. */
  nowDate?: () => Date;
}

/** The page size to ask for: the documented maximum, or a smaller one a test sets (never more). */
export function pageSizeFor(options: AdapterOptions, max: number): number {
  return Math.min(options.pageSize ?? max, max);
}

/** Entries handed to the engine per page of the iterator. */
const ENTRIES_PER_PAGE = 500;

/**
 * Sums an exchange's rows (per symbol, per trade, per coin ...) into one entry per UID and period,
 * exactly, and yields nothing for a UID whose figures are all zero. Summing the whole window before
 * yielding matters: the engine's natural key is (exchange, UID, period), so two partial entries for one
 * key would make the second look like a duplicate. A net negative figure (a clawback) cannot be
 * recorded by the engine: that entry is left out and reported, never guessed.
 */
export class CommissionSums {
  private readonly sums = new Map<
    string,
    { uid: string; period: TimeWindow; volume: bigint; fee: bigint; commission: bigint }
  >();

  constructor(
    private readonly exchange: string,
    private readonly warn?: AdapterOptions['warn'],
  ) {}

  add(
    uid: string,
    period: TimeWindow,
    figures: { volume?: string | number; fee?: string | number; commission?: string | number },
  ) {
    const key = `${uid}\u0000${period.from.getTime()}\u0000${period.to.getTime()}`;
    const sum = this.sums.get(key) ?? { uid, period, volume: 0n, fee: 0n, commission: 0n };
    sum.volume += this.figure(uid, 'volume', figures.volume);
    sum.fee += this.figure(uid, 'fee', figures.fee);
    sum.commission += this.figure(uid, 'commission', figures.commission);
    this.sums.set(key, sum);
  }

  /**
   * One figure of a row: absent or "" (OKX writes an absent figure as "") is none; anything else not
   * a decimal stops the segment with the exchange, the UID and the field named, for the alert.
   */
  private figure(uid: string, field: string, value: string | number | undefined): bigint {
    if (value === undefined || value === '') return 0n;
    try {
      return parseAtto(value);
    } catch (error) {
      throw new Error(`${this.exchange}: UID ${uid}: ${field} is not a decimal: ${JSON.stringify(value)}`, {
        cause: error,
      });
    }
  }

  entries(): CommissionEntry[] {
    const all = [...this.sums.values()]
      .map((sum) => ({
        uid: sum.uid,
        periodStart: sum.period.from,
        periodEnd: sum.period.to,
        tradingVolumeMicro: attoToMicro(sum.volume),
        feeMicro: attoToMicro(sum.fee),
        commissionMicro: attoToMicro(sum.commission),
      }))
      .filter(
        (entry) => entry.tradingVolumeMicro !== 0n || entry.feeMicro !== 0n || entry.commissionMicro !== 0n,
      )
      .sort((a, b) => a.periodStart.getTime() - b.periodStart.getTime() || a.uid.localeCompare(b.uid));
    const negative = all.filter(
      (entry) => entry.tradingVolumeMicro < 0n || entry.feeMicro < 0n || entry.commissionMicro < 0n,
    );
    if (negative.length > 0) {
      this.warn?.(`${this.exchange}: entries with a negative net figure were left out; settle them by hand`, {
        entries: negative.map((entry) => ({
          uid: entry.uid,
          periodStart: entry.periodStart.toISOString(),
          periodEnd: entry.periodEnd.toISOString(),
          tradingVolumeMicro: entry.tradingVolumeMicro.toString(),
          feeMicro: entry.feeMicro.toString(),
          commissionMicro: entry.commissionMicro.toString(),
        })),
      });
    }
    return all.filter((entry) => !negative.includes(entry));
  }
}

/**
 * listReferrals for APIs whose roster cannot be asked by registration time (Bybit, Gate): the whole
 * list, read once and reused for `ttlMs`, so a run over many segments does not read it once per
 * segment; each window gets the entries registered in it. A list answers only windows that had ended
 * when it was read: it holds every registration up to that moment, and nothing after. `now` is the
 * adapter's clock (`AdapterOptions.nowDate`).
 */
export function cachedRoster(
  read: () => AsyncIterable<ReferralEntry[]>,
  { ttlMs = 5 * 60_000, now = () => new Date() }: { ttlMs?: number; now?: () => Date } = {},
) {
  let cache: { at: number; entries: Promise<ReferralEntry[]> } | undefined;
  const roster = async (window: TimeWindow): Promise<ReferralEntry[]> => {
    const at = now().getTime();
    // A list read before the window ended may miss its last registrations (a run at 05:58, a trader
    // at 05:59, a retry at 06:01 for the segment to 06:00): read again (found in review).
    if (!cache || at - cache.at > ttlMs || window.to.getTime() > cache.at) {
      const entries = (async () => {
        const all: ReferralEntry[] = [];
        for await (const page of read()) all.push(...page);
        return all;
      })();
      cache = { at, entries };
      // A failed read is not kept: the next call reads again.
      entries.catch(() => {
        cache = undefined;
      });
    }
    return cache.entries;
  };
  return async function* listReferrals(window: TimeWindow): AsyncGenerator<ReferralEntry[]> {
    const joined = (await roster(window)).filter((entry) => isWithin(entry.registeredAt, window));
    for (const page of chunk(joined)) yield page;
  };
}

/**
 * For APIs whose UID check confirms a referral but gives no registration time (Bybit, Gate): the
 * time is looked up in the roster's pages (at most `maxPages`). A confirmed UID missing from them is
 * still ours: it gets now as its registration time, and the operator is told.
 */
export async function registrationInRoster(
  uid: string,
  pages: AsyncIterable<ReferralEntry[]>,
  options: AdapterOptions,
  missing: { message: string; maxPages?: number },
): Promise<ReferralEntry> {
  let read = 0;
  for await (const page of pages) {
    const found = page.find((entry) => entry.uid === uid);
    if (found) return found;
    read += 1;
    if (read >= (missing.maxPages ?? Number.POSITIVE_INFINITY)) break;
  }
  options.warn?.(missing.message, { uid });
  return { uid, registeredAt: options.nowDate?.() ?? new Date() };
}

export function* chunk<T>(items: readonly T[], size = ENTRIES_PER_PAGE): Generator<T[]> {
  for (let index = 0; index < items.length; index += size) yield items.slice(index, index + size);
}

/** A row in a coin we cannot value in USDT: counted and reported, never guessed. */
export class SkippedRows {
  private readonly counts = new Map<string, number>();
  add(coin: string) {
    this.counts.set(coin, (this.counts.get(coin) ?? 0) + 1);
  }
  report(exchange: string, window: TimeWindow, warn: AdapterOptions['warn']) {
    if (this.counts.size === 0 || !warn) return;
    warn(`${exchange}: commission rows in coins other than USDT were skipped; import them by CSV`, {
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      rowsByCoin: Object.fromEntries(this.counts),
    });
  }
}
