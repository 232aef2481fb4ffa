import type { TransferMismatchKind } from '@elex/contract';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { qualified } from '../../db/qualified.js';
import {
  type NewPayoutRow,
  PAYOUT_IN_FLIGHT,
  type PayoutAttemptRow,
  type PayoutRow,
  type PayoutState,
  payoutAttempts,
  payouts,
  payoutTransfers,
  payoutWallets,
} from './payouts.tables.js';

type NewPayoutTransferRow = typeof payoutTransfers.$inferInsert;

/** The payouts module's queries; each accepts the database or an open transaction. */

/** The payout of a withdrawal that may still move money or has moved it (at most one). */
export async function livePayoutOf(db: Executor, withdrawalId: number): Promise<PayoutRow | undefined> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(
      and(eq(payouts.withdrawalId, withdrawalId), inArray(payouts.state, [...PAYOUT_IN_FLIGHT, 'confirmed'])),
    )
    .limit(1);
  return row;
}

/** The payout one of whose signed transactions has this hash (lower-case), if any. */
export async function payoutOfAttemptHash(
  db: Executor,
  txHash: string,
): Promise<{ id: number; withdrawalId: number; state: PayoutState } | undefined> {
  const [row] = await db
    .select({ id: payouts.id, withdrawalId: payouts.withdrawalId, state: payouts.state })
    .from(payoutAttempts)
    .innerJoin(payouts, eq(payouts.id, payoutAttempts.payoutId))
    .where(eq(payoutAttempts.txHash, txHash))
    .limit(1);
  return row;
}

/** A withdrawal's payouts, newest first (a reverted one, then the send that followed ...). */
export async function payoutsOfWithdrawal(db: Executor, withdrawalId: number): Promise<PayoutRow[]> {
  return db.select().from(payouts).where(eq(payouts.withdrawalId, withdrawalId)).orderBy(desc(payouts.id));
}

export async function findPayout(db: Executor, id: number, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(payouts).where(eq(payouts.id, id)).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/**
 * The wallet's nonce row, locked until the transaction ends; made at `floor` on first use. Every
 * sender of this wallet queues here, so one nonce goes to one payout.
 */
export async function lockWalletNonce(
  tx: Executor,
  wallet: { chainId: number; address: string },
  floor: number,
  now: Date,
): Promise<number> {
  const row = await lockWalletRow(tx, wallet, { nextNonce: floor, updatedAt: now });
  return row.nextNonce;
}

type Wallet = { chainId: number; address: string };
const walletIs = (wallet: Wallet) =>
  and(eq(payoutWallets.chainId, wallet.chainId), eq(payoutWallets.address, wallet.address));

/** The wallet's row locked until the transaction ends, made with `initial` when missing. */
async function lockWalletRow(
  tx: Executor,
  wallet: Wallet,
  initial: { nextNonce: number; scanFromBlock?: number; updatedAt: Date },
) {
  await tx
    .insert(payoutWallets)
    .values({ ...wallet, ...initial })
    .onConflictDoNothing();
  const [row] = await tx.select().from(payoutWallets).where(walletIs(wallet)).for('update');
  if (!row) throw new Error('payout wallet row vanished');
  return row;
}

export async function setWalletNonce(
  tx: Executor,
  wallet: { chainId: number; address: string },
  nextNonce: number,
  now: Date,
) {
  await tx
    .update(payoutWallets)
    .set({ nextNonce, updatedAt: now })
    .where(and(eq(payoutWallets.chainId, wallet.chainId), eq(payoutWallets.address, wallet.address)));
}

export async function insertPayout(tx: Executor, row: NewPayoutRow): Promise<PayoutRow> {
  const [inserted] = await tx.insert(payouts).values(row).returning();
  if (!inserted) throw new Error('payout insert returned no row');
  return inserted;
}

export async function insertAttempt(
  tx: Executor,
  row: typeof payoutAttempts.$inferInsert,
): Promise<PayoutAttemptRow> {
  const [inserted] = await tx.insert(payoutAttempts).values(row).returning();
  if (!inserted) throw new Error('attempt insert returned no row');
  return inserted;
}

/** A payout's attempts, oldest first. */
export async function attemptsOf(db: Executor, payoutIds: readonly number[]): Promise<PayoutAttemptRow[]> {
  if (payoutIds.length === 0) return [];
  return db
    .select()
    .from(payoutAttempts)
    .where(inArray(payoutAttempts.payoutId, [...payoutIds]))
    .orderBy(asc(payoutAttempts.id));
}

export async function markAttemptBroadcast(db: Executor, attemptId: number, at: Date) {
  await db.update(payoutAttempts).set({ broadcastAt: at }).where(eq(payoutAttempts.id, attemptId));
}

/** Moves a payout that is still in `from` states; answers the row, or undefined if it had moved on. */
export async function updatePayout(
  db: Executor,
  id: number,
  from: readonly PayoutState[],
  changes: Partial<Omit<PayoutRow, 'id' | 'withdrawalId' | 'nonce'>> & { updatedAt: Date },
): Promise<PayoutRow | undefined> {
  const [row] = await db
    .update(payouts)
    .set(changes)
    .where(and(eq(payouts.id, id), inArray(payouts.state, [...from])))
    .returning();
  return row;
}

/**
 * Takes up to `limit` payouts in flight under a lease, lowest nonce first (a later nonce cannot land
 * before an earlier one). SKIP LOCKED plus the lease keep two trackers off one payout; a tracker that
 * dies leaves the lease to run out.
 */
export async function claimInFlight(db: Executor, now: Date, leaseUntil: Date, limit: number) {
  const due = db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        inArray(payouts.state, [...PAYOUT_IN_FLIGHT]),
        or(isNull(payouts.leaseUntil), lt(payouts.leaseUntil, now)),
      ),
    )
    .orderBy(asc(payouts.nonce))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db.update(payouts).set({ leaseUntil }).where(inArray(payouts.id, due)).returning();
  return rows.sort((a, b) => a.nonce - b.nonce);
}

export async function releaseLease(db: Executor, id: number) {
  await db.update(payouts).set({ leaseUntil: null }).where(eq(payouts.id, id));
}

export interface PayoutListQuery {
  state?: PayoutState | undefined;
  limit: number;
}

/** Newest first, optionally one state. */
export async function selectPayouts(db: Executor, query: PayoutListQuery): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(query.state ? eq(payouts.state, query.state) : undefined)
    .orderBy(desc(payouts.id))
    .limit(query.limit);
}

export interface Totals {
  count: number;
  amountMicro: bigint;
}

/**
 * What the wallet still has to pay: payouts in flight, by count and amount; `unmined` of them are not in
 * a block yet (their USDT and gas are still in the wallet).
 */
export async function inFlightTotals(db: Executor): Promise<Totals & { unmined: Totals }> {
  const rows = await db
    .select({
      mined: sql<boolean>`${payouts.state} = 'mined'`,
      count: sql<number>`count(*)::int`,
      amountMicro: sql<string>`coalesce(sum(${payouts.amountMicro}), 0)`,
    })
    .from(payouts)
    .where(inArray(payouts.state, [...PAYOUT_IN_FLIGHT]))
    .groupBy(sql`1`);
  const total = { count: 0, amountMicro: 0n };
  const unmined = { count: 0, amountMicro: 0n };
  for (const row of rows) {
    total.count += Number(row.count);
    total.amountMicro += BigInt(row.amountMicro);
    if (!row.mined) {
      unmined.count += Number(row.count);
      unmined.amountMicro += BigInt(row.amountMicro);
    }
  }
  return { ...total, unmined };
}

/** The newest payout of each of these withdrawals (any state). */
export async function latestPayoutsOf(db: Executor, withdrawalIds: readonly number[]): Promise<PayoutRow[]> {
  if (withdrawalIds.length === 0) return [];
  return db
    .selectDistinctOn([payouts.withdrawalId])
    .from(payouts)
    .where(inArray(payouts.withdrawalId, [...new Set(withdrawalIds)]))
    .orderBy(payouts.withdrawalId, desc(payouts.id));
}

/**
 * What a member sees of each withdrawal's newest payout, in one statement (issue 14): its state, chain
 * and confirmations, and its hash (the mined one, else its latest attempt's).
 */
export async function selectLatestPayoutStates(
  db: Executor,
  withdrawalIds: readonly number[],
): Promise<
  Array<{ withdrawalId: number; state: PayoutState; chainId: number; confirmations: number; txHash: string }>
> {
  if (withdrawalIds.length === 0) return [];
  // The payout named with its table: a bare ${payouts.id} here is written "id", which inside the
  // subquery is the attempt's own (found 2026-11-29: members saw another payout's hash, or none).
  return db
    .selectDistinctOn([payouts.withdrawalId], {
      withdrawalId: payouts.withdrawalId,
      state: payouts.state,
      chainId: payouts.chainId,
      confirmations: payouts.confirmations,
      txHash: sql<string>`coalesce(${payouts.minedHash}, (select a.tx_hash from ${payoutAttempts} a
        where a.payout_id = ${qualified(payouts.id)} order by a.id desc limit 1), '')`,
    })
    .from(payouts)
    .where(inArray(payouts.withdrawalId, [...new Set(withdrawalIds)]))
    .orderBy(payouts.withdrawalId, desc(payouts.id));
}

/** How many signed attempts each payout has. */
export async function attemptCounts(
  db: Executor,
  payoutIds: readonly number[],
): Promise<Map<number, number>> {
  if (payoutIds.length === 0) return new Map();
  const rows = await db
    .select({ payoutId: payoutAttempts.payoutId, count: sql<number>`count(*)::int` })
    .from(payoutAttempts)
    .where(inArray(payoutAttempts.payoutId, [...payoutIds]))
    .groupBy(payoutAttempts.payoutId);
  return new Map(rows.map((row) => [row.payoutId, Number(row.count)]));
}

/** The hash of each payout's latest attempt. */
export async function latestAttemptHashes(
  db: Executor,
  payoutIds: readonly number[],
): Promise<Map<number, string>> {
  if (payoutIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([payoutAttempts.payoutId], {
      payoutId: payoutAttempts.payoutId,
      txHash: payoutAttempts.txHash,
    })
    .from(payoutAttempts)
    .where(inArray(payoutAttempts.payoutId, [...payoutIds]))
    .orderBy(payoutAttempts.payoutId, desc(payoutAttempts.id));
  return new Map(rows.map((row) => [row.payoutId, row.txHash]));
}

// ---------------------------------------------------------------------------------------------------
// Reconciliation: the wallet's transfers as the chain shows them

/** The wallet's scan window, its row locked; the row is made when missing. */
export async function walletScanState(
  tx: Executor,
  wallet: { chainId: number; address: string },
  startBlock: number,
  now: Date,
): Promise<{ scanFromBlock: number; scannedToBlock: number | null }> {
  // Nonce 0 on a new row: a send takes max(stored, the chain's count).
  const row = await lockWalletRow(tx, wallet, { nextNonce: 0, scanFromBlock: startBlock, updatedAt: now });
  if (row.scanFromBlock === null) {
    await tx.update(payoutWallets).set({ scanFromBlock: startBlock }).where(walletIs(wallet));
  }
  return { scanFromBlock: row.scanFromBlock ?? startBlock, scannedToBlock: row.scannedToBlock };
}

/** The earliest block any payout of this wallet landed in (where a scan of an old wallet starts). */
export async function firstMinedBlock(db: Executor, wallet: { chainId: number; address: string }) {
  const [row] = await db
    .select({ block: sql<string | null>`min(${payouts.minedBlock})` })
    .from(payouts)
    .where(and(eq(payouts.chainId, wallet.chainId), eq(payouts.fromAddress, wallet.address)));
  return row?.block == null ? null : Number(row.block);
}

export async function recordTransfers(
  tx: Executor,
  wallet: { chainId: number; address: string },
  rows: NewPayoutTransferRow[],
  scannedToBlock: number,
  now: Date,
) {
  for (let start = 0; start < rows.length; start += 500) {
    await tx
      .insert(payoutTransfers)
      .values(rows.slice(start, start + 500))
      .onConflictDoNothing();
  }
  await tx
    .update(payoutWallets)
    .set({ scannedToBlock, updatedAt: now })
    .where(and(eq(payoutWallets.chainId, wallet.chainId), eq(payoutWallets.address, wallet.address)));
}

export async function findWallet(db: Executor, wallet: { chainId: number; address: string }) {
  const [row] = await db
    .select()
    .from(payoutWallets)
    .where(and(eq(payoutWallets.chainId, wallet.chainId), eq(payoutWallets.address, wallet.address)));
  return row;
}

export async function transferTotals(
  db: Executor,
  wallet: { chainId: number; address: string },
): Promise<{ count: number; amountMicro: bigint }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amountMicro: sql<string>`coalesce(sum(${payoutTransfers.amountMicro}), 0)`,
    })
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.chainId, wallet.chainId), eq(payoutTransfers.fromAddress, wallet.address)));
  return { count: Number(row?.count ?? 0), amountMicro: BigInt(row?.amountMicro ?? 0) };
}

export interface TransferMismatchRow {
  kind: TransferMismatchKind;
  tx_hash: string | null;
  payout_id: string | null;
  withdrawal_id: string | null;
  to_address: string | null;
  amount_micro: string | null;
  block_number: string | null;
}

/**
 * Where the wallet's transfers and the payouts disagree (docs/withdrawals.md, "Reconciliation"), at
 * most `limit` of each kind. Payouts are looked at only in the blocks already read (up to `scannedTo`).
 */
export async function selectTransferMismatches(
  db: Executor,
  wallet: { chainId: number; address: string },
  scannedTo: number,
  limit: number,
): Promise<TransferMismatchRow[]> {
  const mine = sql`t.chain_id = ${wallet.chainId} and t.from_address = ${wallet.address}`;
  const result = await db.execute(sql`
    (select 'unknownTransfer' as kind, t.tx_hash, null::text as payout_id, null::text as withdrawal_id,
            t.to_address, t.amount_micro::text, t.block_number::text
       from payout_transfers t
      where ${mine} and t.explanation is null
        and not exists (select 1 from payout_attempts a where a.tx_hash = t.tx_hash)
      order by t.block_number limit ${limit})
    union all
    (select 'transferDiffers', t.tx_hash, p.id::text, p.withdrawal_id::text, t.to_address,
            t.amount_micro::text, t.block_number::text
       from payout_transfers t
       join payout_attempts a on a.tx_hash = t.tx_hash
       join payouts p on p.id = a.payout_id
      where ${mine} and (lower(t.to_address) <> lower(p.to_address) or t.amount_micro <> p.amount_micro)
      order by t.block_number limit ${limit})
    union all
    (select 'paidButNotConfirmed', t.tx_hash, p.id::text, p.withdrawal_id::text, t.to_address,
            t.amount_micro::text, t.block_number::text
       from payout_transfers t
       join payout_attempts a on a.tx_hash = t.tx_hash
       join payouts p on p.id = a.payout_id
      where ${mine} and p.state in ('reverted', 'dropped')
      order by t.block_number limit ${limit})
    union all
    (select 'paidTwice', null, null, p.withdrawal_id::text, null, sum(t.amount_micro)::text,
            max(t.block_number)::text
       from payout_transfers t
       join payout_attempts a on a.tx_hash = t.tx_hash
       join payouts p on p.id = a.payout_id
      where ${mine}
      group by p.withdrawal_id having count(*) > 1
      order by p.withdrawal_id limit ${limit})
    union all
    (select 'confirmedWithoutTransfer', p.mined_hash, p.id::text, p.withdrawal_id::text, p.to_address,
            p.amount_micro::text, p.mined_block::text
       from payouts p
      where p.chain_id = ${wallet.chainId} and p.from_address = ${wallet.address} and p.state = 'confirmed'
        and p.mined_block <= ${scannedTo}
        and not exists (select 1 from payout_transfers t where t.chain_id = p.chain_id and t.tx_hash = p.mined_hash)
      order by p.mined_block limit ${limit})`);
  return (result as unknown as { rows: TransferMismatchRow[] }).rows;
}

/** Every wallet whose transfers were read, with the last block read. */
export async function scannedWallets(db: Executor) {
  return db
    .select({
      chainId: payoutWallets.chainId,
      address: payoutWallets.address,
      scannedToBlock: payoutWallets.scannedToBlock,
    })
    .from(payoutWallets)
    .where(isNotNull(payoutWallets.scannedToBlock));
}

/** Transfers out of the wallet that are no payout of ours, with or without an explanation. */
export async function findForeignTransfer(db: Executor, chainId: number, txHash: string) {
  const rows = await db
    .select()
    .from(payoutTransfers)
    .where(
      and(
        eq(payoutTransfers.chainId, chainId),
        eq(payoutTransfers.txHash, txHash),
        sql`not exists (select 1 from payout_attempts a where a.tx_hash = ${qualified(payoutTransfers.txHash)})`,
      ),
    )
    .for('update');
  return rows;
}

export async function explainTransferRows(
  tx: Executor,
  chainId: number,
  txHash: string,
  explanation: { text: string; by: number | null; at: Date },
) {
  await tx
    .update(payoutTransfers)
    .set({ explanation: explanation.text, explainedBy: explanation.by, explainedAt: explanation.at })
    .where(and(eq(payoutTransfers.chainId, chainId), eq(payoutTransfers.txHash, txHash)));
}

/** The transfers out of the wallet that an operator explained as no payout. */
const explainedOutOf = (wallet: { chainId: number; address: string }) =>
  and(
    eq(payoutTransfers.chainId, wallet.chainId),
    eq(payoutTransfers.fromAddress, wallet.address),
    isNotNull(payoutTransfers.explanation),
  );

export async function explainedTotals(db: Executor, wallet: { chainId: number; address: string }) {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amountMicro: sql<string>`coalesce(sum(${payoutTransfers.amountMicro}), 0)`,
    })
    .from(payoutTransfers)
    .where(explainedOutOf(wallet));
  return { count: Number(row?.count ?? 0), amountMicro: BigInt(row?.amountMicro ?? 0) };
}

/** The newest transfers an operator explained, with who explained them (their user id). */
export async function selectExplainedTransfers(
  db: Executor,
  wallet: { chainId: number; address: string },
  limit: number,
) {
  return db
    .select({
      txHash: payoutTransfers.txHash,
      toAddress: payoutTransfers.toAddress,
      amountMicro: sql<string>`sum(${payoutTransfers.amountMicro})`,
      blockNumber: payoutTransfers.blockNumber,
      explanation: sql<string>`min(${payoutTransfers.explanation})`,
      explainedAt: sql<Date | string | null>`max(${payoutTransfers.explainedAt})`,
      explainedBy: sql<string | null>`min(${payoutTransfers.explainedBy})`,
    })
    .from(payoutTransfers)
    .where(explainedOutOf(wallet))
    .groupBy(payoutTransfers.txHash, payoutTransfers.toAddress, payoutTransfers.blockNumber)
    .orderBy(sql`max(${payoutTransfers.explainedAt}) desc nulls last`, desc(payoutTransfers.blockNumber))
    .limit(limit);
}

/** Whether a payout still in flight is held below the network's fee by the ceiling. */
export async function payoutHeldByFees(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(inArray(payouts.state, [...PAYOUT_IN_FLIGHT]), isNotNull(payouts.heldFeeAsked)))
    .limit(1);
  return row !== undefined;
}
