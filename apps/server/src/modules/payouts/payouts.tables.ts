import type { PayoutState, PayoutVia } from '@elex/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import { withdrawals } from '../withdrawals/withdrawals.tables.js';

/**
 * On-chain payouts (docs/withdrawals.md, "On-chain payouts"). A payout is one ERC-20 transfer paying
 * one withdrawal from the hot wallet, at one nonce; its attempts are the signed transactions of that
 * nonce (the first, then replacements with higher fees), any of which may be the one that lands.
 */

// The states and their meaning live in the contract (the console and the member's page name them too).
export {
  PAYOUT_IN_FLIGHT,
  PAYOUT_STATES,
  PAYOUT_VIA,
  type PayoutState,
  type PayoutVia,
} from '@elex/contract';

/**
 * The next nonce of each payout wallet on each chain. The row is locked (`FOR UPDATE`) by the
 * transaction that signs a payout and moves on only if that transaction commits its payout: two
 * instances never hand out one nonce, and a rolled-back send leaves no gap.
 */
export const payoutWallets = pgTable(
  'payout_wallets',
  {
    chainId: integer('chain_id').notNull(),
    /** EIP-55 checksummed. */
    address: text('address').notNull(),
    nextNonce: bigint('next_nonce', { mode: 'number' }).notNull(),
    /**
     * Reconciliation (docs/withdrawals.md): the first block whose transfers out of the wallet are read
     * (PAYOUT_SCAN_FROM_BLOCK, else the head when the server first looked), and the last block read.
     * Null on a row made before reconciliation: the first scan sets them.
     */
    scanFromBlock: bigint('scan_from_block', { mode: 'number' }),
    scannedToBlock: bigint('scanned_to_block', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.chainId, table.address] }),
    check('payout_wallets_nonce_check', sql`${table.nextNonce} >= 0`),
  ],
);

export const payouts = pgTable(
  'payouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    chainId: integer('chain_id').notNull(),
    fromAddress: text('from_address').notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    toAddress: text('to_address').notNull(),
    tokenAddress: text('token_address').notNull(),
    /** Token units: micro-USDT, USDT having 6 decimals. */
    amountMicro: bigint('amount_micro', { mode: 'bigint' }).notNull(),
    state: text('state').$type<PayoutState>().notNull(),
    /** The operator who sent it (the withdrawal is decided in their name when it confirms). */
    sentBy: bigint('sent_by', { mode: 'number' }).references(() => users.id),
    sentVia: text('sent_via').$type<PayoutVia>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When a node first accepted an attempt. */
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
    /** The attempt in a block (mined, confirmed, reverted) and its block. */
    minedHash: text('mined_hash'),
    minedBlock: bigint('mined_block', { mode: 'number' }),
    /** Blocks from the mined one to the head when the tracker last looked (the member's "n of m"). */
    confirmations: integer('confirmations').notNull().default(0),
    /** When it became final: confirmed, reverted or dropped. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Why it reverted or was dropped, for the operator. */
    failureReason: text('failure_reason'),
    /**
     * Wei per gas the network asked when the tracker last found this payout held below it by the fee
     * ceiling (PAYOUT_MAX_FEE_GWEI); null when the ceiling does not hold it back.
     */
    heldFeeAsked: bigint('held_fee_asked', { mode: 'bigint' }),
    /**
     * When the tracker first found the payout's nonce final on chain with no receipt of ours; it is
     * dropped only if that still holds NONCE_TAKEN_AFTER_MS later (payouts.track.ts). Null otherwise.
     */
    nonceTakenSeenAt: timestamp('nonce_taken_seen_at', { withTimezone: true }),
    /** The last trouble the tracker met (a node refusing the broadcast ...), cleared when it passes. */
    lastError: text('last_error'),
    /** A tracker instance is working it until then (SKIP LOCKED claim plus lease). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // One payout that may still move money per withdrawal; a reverted or dropped one may be followed
    // by a new send. A confirmed one stays unique too: the withdrawal is paid once.
    uniqueIndex('payouts_withdrawal_live_unique')
      .on(table.withdrawalId)
      .where(sql`${table.state} in ('signed', 'broadcast', 'mined', 'confirmed')`),
    uniqueIndex('payouts_wallet_nonce_unique').on(table.chainId, table.fromAddress, table.nonce),
    index('payouts_state_idx').on(table.state, table.nonce),
    index('payouts_withdrawal_idx').on(table.withdrawalId, table.id),
    // The fast lane's limits sum what it sent in the last 24 hours, on every pass.
    index('payouts_auto_created_idx').on(table.createdAt).where(sql`${table.sentVia} = 'auto'`),
    check('payouts_amount_check', sql`${table.amountMicro} > 0 and ${table.nonce} >= 0`),
    check(
      'payouts_state_check',
      sql`${table.state} in ('signed', 'broadcast', 'mined', 'confirmed', 'reverted', 'dropped')
        and (${table.state} not in ('mined', 'confirmed', 'reverted') or ${table.minedHash} is not null)
        and (${table.state} not in ('confirmed', 'reverted', 'dropped') or ${table.finishedAt} is not null)
        and (${table.state} not in ('reverted', 'dropped') or length(${table.failureReason}) > 0)`,
    ),
    check(
      'payouts_via_check',
      sql`${table.sentVia} in ('console', 'cli', 'auto') and (${table.sentVia} <> 'auto' or ${table.sentBy} is null)`,
    ),
  ],
);

/**
 * Each signed transaction of a payout, recorded before any node sees it: the raw bytes (so a restart
 * re-broadcasts exactly them, same hash), the fees and when. Same nonce for all of a payout's attempts.
 */
export const payoutAttempts = pgTable(
  'payout_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payoutId: bigint('payout_id', { mode: 'number' })
      .notNull()
      .references(() => payouts.id),
    txHash: text('tx_hash').notNull(),
    rawTx: text('raw_tx').notNull(),
    gasLimit: bigint('gas_limit', { mode: 'bigint' }).notNull(),
    maxFeePerGas: bigint('max_fee_per_gas', { mode: 'bigint' }).notNull(),
    maxPriorityFeePerGas: bigint('max_priority_fee_per_gas', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When a node last accepted it (or said it already had it). */
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('payout_attempts_hash_unique').on(table.txHash),
    index('payout_attempts_payout_idx').on(table.payoutId, table.id),
    check('payout_attempts_hash_check', sql`${table.txHash} ~ '^0x[0-9a-f]{64}$'`),
  ],
);

/**
 * Every USDT transfer out of a payout wallet that the chain shows in final blocks (read by the
 * reconciliation scan): each must be exactly one payout's landed transaction, to its address, for its
 * amount. Kept so a report is a query, not a rescan of the chain.
 */
export const payoutTransfers = pgTable(
  'payout_transfers',
  {
    chainId: integer('chain_id').notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    tokenAddress: text('token_address').notNull(),
    amountMicro: bigint('amount_micro', { mode: 'bigint' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
    /**
     * A transfer that is no payout (float moved back to cold storage ...), explained by an operator:
     * why, who, when. Explained, it is no longer a mismatch; it stays on record.
     */
    explanation: text('explanation'),
    explainedBy: bigint('explained_by', { mode: 'number' }).references(() => users.id),
    explainedAt: timestamp('explained_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.chainId, table.txHash, table.logIndex] }),
    index('payout_transfers_hash_idx').on(table.txHash),
    check('payout_transfers_hash_check', sql`${table.txHash} ~ '^0x[0-9a-f]{64}$'`),
  ],
);

export type PayoutWalletRow = typeof payoutWallets.$inferSelect;
export type PayoutTransferRow = typeof payoutTransfers.$inferSelect;
export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayoutRow = typeof payouts.$inferInsert;
export type PayoutAttemptRow = typeof payoutAttempts.$inferSelect;
