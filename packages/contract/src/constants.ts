/**
 * Business constants of spec section 9 (and the account rules of the accounts issue).
 * Both apps import these; nothing restates them.
 */

export const MICRO_USDT_PER_USDT = 1_000_000n;

export const VERIFICATION_CODE = {
  length: 6,
  /** spec: resend countdown 60 s */
  resendSeconds: 60,
  validMinutes: 10,
  maxWrongAttempts: 5,
  /**
   * Wrong reset codes (module 2) an e-mail may have in 24 hours, across its codes: beyond them reset
   * is refused until the oldest leave the window (red-team review, 2026-11-30). Login is not counted.
   */
  maxWrongResetTriesPerDay: 10,
  maxPerEmailPerHour: 10,
  maxPerIpPerHour: 30,
} as const;

export const PASSWORD = {
  loginMinLength: 6,
  minLength: 8,
  maxLength: 16,
  /** spec: at least one special character from ! @ # $ % ^ & * ( ) */
  specialCharacters: '!@#$%^&*()',
} as const;

export const REDIRECT_DELAY_MS = {
  afterLogin: 1000,
  afterRegister: 1000,
  afterReset: 600,
  afterSessionExpired: 1500,
} as const;

export const WITHDRAWAL = {
  /** spec: minimum withdrawal and withdrawable threshold, 50 USDT per UID */
  minimumMicroUsdt: 50n * MICRO_USDT_PER_USDT,
  minimumUsdt: '50.00',
  reviewHours: 48,
  /** spec: withdrawal restricted 72 hours after a password change or reset */
  lockAfterPasswordChangeHours: 72,
} as const;

export const LEVERAGE = { min: 1, max: 125 } as const;

/** spec: five trade frequency options, in the calculator's order. */
export const TRADE_FREQUENCIES = ['onceOrLess', 'oneToTwo', 'twoToFive', 'fiveToTen', 'moreThanTen'] as const;
export type TradeFrequency = (typeof TRADE_FREQUENCIES)[number];

export const CALCULATOR = {
  resultDays: 30,
  longTermMonths: 6,
  analysedUsers: 55_994,
} as const;

export const CASHBACK = {
  speedUpWeeks: 3,
  rankingWindowDays: 30,
  /** Rows of an exchange's 30-day cashback ranking on its detail page. */
  rankingSize: 10,
  newUserDiscountPercent: 20,
  newUserDiscountDays: 90,
  dataSegmentHours: 6,
  /**
   * Hours after a segment ends before the sync pulls it, once the exchange's figures for it are final
   * (the API-fed adapters' settleHours, checked by exchange-rules.test.ts). The member pages' data
   * delay note quotes it.
   */
  dataFinalHours: 48,
  /**
   * How long a new account can take to appear in the roster of an exchange fed by CSV or sync (no
   * live check): a UID it does not list yet hears this instead of "not referred" (issue 11).
   */
  rosterDelayHours: 48,
  accruableYears: 5,
  recordsKeptYears: 5,
  /**
   * Records per page of the records' CSV export, which walks the list by cursor (`after`); a page by
   * number holds at most 100 beyond the first, since a deep page number makes the database skip every
   * record before it.
   */
  exportPageSize: 1000,
  /**
   * How far into the records a page by number reaches (issue 14): a page touching the newest or the
   * oldest this many records is answered; one wholly between them is refused (rebatePageTooDeep), since
   * the database would read and sort every UID's records down to it (page 600 of 100 in a 120,000-record
   * list: 1.7–4 s). `after` (the previous page's `next`) reads any depth at one page's cost.
   */
  pageReach: 2000,
} as const;

/** spec: exclusive sign-up with an encr code */
export const EXCLUSIVE_SIGNUP = { xmeEnergy: 1000, points: 100 } as const;

export const TERMS = {
  minimumAge: 16,
  objectionDays: 14,
  replyDays: 14,
  changeNoticeDays: 7,
  materialChangeNoticeDays: 30,
} as const;

export const HOME = {
  famesPerSlide: 3,
  mobileFames: 3,
  partnerLogos: 10,
  sliderSpeedMs: 500,
  averageMonthlyRebateUsd: 365,
} as const;

export const LAYOUT = {
  /** spec: wide layout when width exceeds 980 px */
  wideMinWidthPx: 981,
  resizeDebounceMs: 200,
  languageDialogWidth: '30%',
  drawerSize: '50%',
  modalWidth: '80%',
  modalMaxWidthPx: 400,
  chunkTimeoutMs: 120_000,
} as const;

/** spec: analytics carry a channel query value, a default when absent */
export const DEFAULT_CHANNEL = 'direct';

/**
 * The referral code the seed writes into every partner's sign-up link until operators enter the real
 * affiliate codes (docs/exchanges.md, launch checklist); the console lists the partners still using it.
 */
export const PLACEHOLDER_REFERRAL_CODE = 'ELEXCB';

/** A partner's fee figures older than this are due for a new check against the exchange's fee page. */
export const FEE_CHECK_MAX_AGE_DAYS = 90;

/**
 * Who owns a UID (issue 11, docs/support.md): a new binding's money is held this long unless an
 * operator confirms the owner sooner; an open dispute freezes it whatever the age of the binding.
 */
export const OWNERSHIP = {
  holdDays: 14,
} as const;

/**
 * Every paged list's page number (paging.ts): the highest asked for by number. Only the record list
 * goes past it, by cursor (`after`), where the page number is only shown: a walk passes page 10,000.
 */
export const PAGING = {
  maxPage: 10_000,
  maxPageSize: 100,
} as const;
