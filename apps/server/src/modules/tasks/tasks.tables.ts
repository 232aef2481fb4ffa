import type { SocialNetwork, TaskGroup, TaskKind } from '@elex/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.tables.js';

/**
 * The points tasks an operator can tune (points, volume thresholds, links, on or off). Seeded with
 * the defaults by migration 0009; what a kind means and how it is verified is code, not data.
 */
export const taskDefinitions = pgTable(
  'task_definitions',
  {
    /** Stable id, the reference of the task's points entry ('telegram', 'tradeTier1' ...). */
    id: text('id').primaryKey(),
    group: text('task_group').$type<TaskGroup>().notNull(),
    kind: text('kind').$type<TaskKind>().notNull(),
    points: integer('points').notNull(),
    /** Trade tasks: cumulative trading volume to reach, micro-USDT. */
    thresholdMicro: bigint('threshold_micro', { mode: 'bigint' }),
    link: text('link'),
    appLink: text('app_link'),
    sortOrder: integer('sort_order').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    check('task_definitions_points_check', sql`${table.points} between 0 and 1000000`),
    check(
      'task_definitions_kind_check',
      sql`(${table.group} = 'social' and ${table.kind} in ('telegram', 'discord', 'x'))
        or (${table.group} = 'binding' and ${table.kind} in ('bindUid', 'bindXme'))
        or (${table.group} = 'trade' and ${table.kind} = 'tradingVolume')`,
    ),
    check(
      'task_definitions_threshold_check',
      sql`(${table.kind} = 'tradingVolume') = (${table.thresholdMicro} is not null and ${table.thresholdMicro} > 0)`,
    ),
  ],
);

/**
 * The Telegram or Discord user id a member entered for a social task, and when a bot saw that
 * account in the community. A verified account counts for one member only (the partial unique
 * index): one community member cannot collect the task's points on several accounts.
 */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    network: text('network').$type<SocialNetwork>().notNull(),
    accountId: text('account_id').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.network] }),
    uniqueIndex('social_accounts_verified_unique')
      .on(table.network, table.accountId)
      .where(sql`${table.verifiedAt} is not null`),
    index('social_accounts_account_idx').on(table.network, table.accountId),
    check('social_accounts_network_check', sql`${table.network} in ('telegram', 'discord')`),
  ],
);

/**
 * Which outside account earned which task, kept for good (a trigger refuses UPDATE, DELETE and
 * TRUNCATE). `account` names it: 'telegram:<id>', 'discord:<id>', 'xme:<uid in lower case>',
 * '<platId>:<uid>'. The primary key makes an account pay a task once whoever holds it later (a
 * member who switched ids, an XME account rebound, a UID an operator unbound); the second unique key
 * matches the points entry's one payout per member and task; the account index serves the look-ups
 * by account.
 */
export const taskPayouts = pgTable(
  'task_payouts',
  {
    taskId: text('task_id')
      .notNull()
      .references(() => taskDefinitions.id),
    account: text('account').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.taskId, table.account] }),
    uniqueIndex('task_payouts_user_task_unique').on(table.userId, table.taskId),
    // Task lists, claims and membership checks ask by account alone (whose payouts are the member's
    // accounts): the primary key, led by the task, cannot seek on it (migration 0041).
    index('task_payouts_account_idx').on(table.account),
  ],
);

export type TaskDefinitionRow = typeof taskDefinitions.$inferSelect;
export type SocialAccountRow = typeof socialAccounts.$inferSelect;
export type TaskPayoutRow = typeof taskPayouts.$inferSelect;
