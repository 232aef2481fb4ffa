import type { ExchangeMark, ExchangeStatus, Locale, VipRule } from '@elex/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The partner catalog (issue 4), edited later from the operator console. Rates are integers: fees in
 * parts per million of the order value (0.02 % = 200), cash rates in basis points of the fee
 * (40 % = 4000), amounts in whole units of their asset. The API turns them into decimal strings.
 */
export const exchanges = pgTable(
  'exchanges',
  {
    /** platId: fixed by us, never reused. */
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    abbreviation: text('abbreviation').notNull(),
    /** Our own mark, served by the web app (e.g. /logos/bn.svg). */
    logo: text('logo').notNull(),
    /** Catalog order: the racing tab and every unsorted list follow it. */
    position: integer('position').notNull(),
    /** Editorial rating out of 10, in tenths (96 = 9.6). */
    scoreTenths: smallint('score_tenths').notNull(),
    /** Basic cashback: share of the fee paid back, basis points. */
    cashRateBps: integer('cash_rate_bps').notNull(),
    /** spec: speed-up cashback for new traders within 3 weeks, basis points. */
    speedUpCashRateBps: integer('speed_up_cash_rate_bps').notNull(),
    /** Regular-tier futures fees, parts per million: maker = limit order, taker = market order. */
    makerFeePpm: integer('maker_fee_ppm').notNull(),
    takerFeePpm: integer('taker_fee_ppm').notNull(),
    vipRule: text('vip_rule').$type<VipRule>().notNull(),
    /** Tags: a key the web translates and an icon URL. */
    marks: jsonb('marks').$type<ExchangeMark[]>().notNull().default([]),
    /**
     * Our referral code, and the sign-up page with `{code}` where the code goes: every sign-up link
     * is built from the two (contract signup-links.ts), so they cannot disagree.
     */
    signupUrlTemplate: text('signup_url_template').notNull(),
    referralCode: text('referral_code').notNull(),
    /** spec: new users signing up with our code get 20 % off fees for 90 days. */
    newUserDiscountPercent: smallint('new_user_discount_percent').notNull(),
    newUserDiscountDays: smallint('new_user_discount_days').notNull(),
    isRecommended: boolean('is_recommended').notNull().default(false),
    isRacing: boolean('is_racing').notNull().default(false),
    /** When the fee figures were last checked against a published source; null until someone has. */
    feesCheckedOn: date('fees_checked_on', { mode: 'string' }),
    /**
     * issue 12: 'draft' (console only, until published), 'live' (public), 'retired' (off the public
     * lists, no new bindings, no sync; its UIDs keep their history and balances).
     */
    status: text('status').$type<ExchangeStatus>().notNull().default('live'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Unique whatever the letter case: 'ZZ1' and 'zz1' would name one partner to a trader, and the
    // operator commands find a partner by its abbreviation in any case (cashback/partners.ts).
    uniqueIndex('exchanges_abbreviation_lower_unique').on(sql`lower(${table.abbreviation})`),
    check('exchanges_score_check', sql`${table.scoreTenths} between 0 and 100`),
    check(
      'exchanges_rates_check',
      sql`${table.cashRateBps} between 0 and 10000 and ${table.speedUpCashRateBps} between 0 and 10000
        and ${table.makerFeePpm} between 0 and 100000 and ${table.takerFeePpm} between 0 and 100000`,
    ),
    check('exchanges_vip_rule_check', sql`${table.vipRule} in ('either', 'both')`),
    check('exchanges_status_check', sql`${table.status} in ('draft', 'live', 'retired')`),
  ],
);

/** The VIP table of an exchange: requirement and discounted fees per level, in level order. */
export const exchangeVipTiers = pgTable(
  'exchange_vip_tiers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    exchangeId: integer('exchange_id')
      .notNull()
      .references(() => exchanges.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    level: text('level').notNull(),
    /** 30-day trading volume requirement, whole USDT; null when the level has none. */
    minVolume30dUsdt: bigint('min_volume_30d_usdt', { mode: 'bigint' }),
    /** Previous-day asset requirement, whole units of `minAssetSymbol`; null when none. */
    minAssetAmount: bigint('min_asset_amount', { mode: 'bigint' }),
    minAssetSymbol: text('min_asset_symbol'),
    makerFeePpm: integer('maker_fee_ppm').notNull(),
    takerFeePpm: integer('taker_fee_ppm').notNull(),
  },
  (table) => [uniqueIndex('exchange_vip_tiers_position_unique').on(table.exchangeId, table.position)],
);

export const ACTIVITY_KINDS = ['general', 'hot'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Activities shown in the home sliders and on the detail page; the title in each language. */
export const exchangeActivities = pgTable(
  'exchange_activities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    exchangeId: integer('exchange_id')
      .notNull()
      .references(() => exchanges.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ActivityKind>().notNull(),
    titles: jsonb('titles').$type<Record<Locale, string>>().notNull(),
    activityUrl: text('activity_url').notNull(),
    position: integer('position').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The version the console's editor sends back with a change; moved forward by every change. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('exchange_activities_kind_idx').on(table.kind, table.position),
    check('exchange_activities_kind_check', sql`${table.kind} in ('general', 'hot')`),
  ],
);

/**
 * The public cashback statistics last computed by any process (statistics-cache.ts): one row, so the
 * processes of one database compute them once per TTL between them, and a process that starts serves
 * figures another computed moments ago instead of ranking the whole window first. A cache: the ledger
 * stays the truth, and a row that cannot be read is computed again.
 */
export const publicStatistics = pgTable(
  'public_statistics',
  {
    id: smallint('id').primaryKey().default(1),
    /** The listed exchanges the figures are for, ids in ascending order joined by ','. */
    exchanges: text('exchanges').notNull(),
    /** The end of the 30-day window the figures were computed for (the computing process's clock). */
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
    /** The figures, amounts as decimal strings of micro-USDT (statistics-cache.ts reads and writes it). */
    figures: jsonb('figures').notNull(),
  },
  () => [check('public_statistics_one_row', sql`id = 1`)],
);
