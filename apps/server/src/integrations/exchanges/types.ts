/**
 * What an exchange adapter gives the cashback engine (ARCHITECTURE.md, "Partner exchanges"): whether a
 * UID was referred with our code, and per referred UID the trading volume, fees and commission of a
 * time window. Amounts are integer micro-USDT; adapters convert the exchange's decimals exactly.
 */
export interface ReferralEntry {
  uid: string;
  registeredAt: Date;
}

export interface CommissionEntry {
  uid: string;
  /** The window the figures cover, [start, end). */
  periodStart: Date;
  periodEnd: Date;
  tradingVolumeMicro: bigint;
  feeMicro: bigint;
  /** What the exchange paid us for this UID and window. */
  commissionMicro: bigint;
}

export interface TimeWindow {
  from: Date;
  to: Date;
}

export interface ExchangeAdapter {
  /** Lower-case exchange name, matched against the catalog's name or abbreviation: 'bitget', 'okx' ... */
  readonly exchange: string;
  /** The referral of one UID, or null when the UID is not ours (or unknown to the exchange). */
  checkReferral(uid: string): Promise<ReferralEntry | null>;
  /** Referred UIDs registered in the window, page by page. */
  listReferrals(window: TimeWindow): AsyncIterable<ReferralEntry[]>;
  /** Per-UID figures for the window, page by page. */
  listCommissions(window: TimeWindow): AsyncIterable<CommissionEntry[]>;
}

/** An exchange affiliate API key, as configured (never logged). */
export interface Credentials {
  apiKey: string;
  apiSecret: string;
  /** Bitget and OKX only. */
  passphrase?: string;
  /** Defaults to the exchange's real host (see each adapter's ASSUMPTIONS). */
  baseUrl?: string;
}
