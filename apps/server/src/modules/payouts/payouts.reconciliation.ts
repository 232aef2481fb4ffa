import { DECIMALS, fromScaled, type PayoutReconciliation, POLYGON_EXPLORER_TX_URL } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { type AuditActor, confirmOperatorRole, recordAudit } from '../admin/audit.service.js';
import { findUserById } from '../auth/auth.service.js';
import { errorText } from './payouts.chain.js';
import {
  explainedTotals,
  explainTransferRows,
  findForeignTransfer,
  findWallet,
  firstMinedBlock,
  recordTransfers,
  selectExplainedTransfers,
  selectTransferMismatches,
  transferTotals,
  walletScanState,
} from './payouts.repository.js';
import { payoutChain } from './payouts.service.js';

/**
 * Reconciliation of the payout wallet against the chain (issue 17, docs/withdrawals.md
 * "Reconciliation"): every USDT transfer out of the wallet in a final block must be exactly one
 * payout's landed transaction, to its address, for its amount, and every confirmed payout must be
 * such a transfer. The scan reads the token's Transfer logs from the wallet, chunk by chunk, only up
 * to the depth of PAYOUT_CONFIRMATIONS (a reorg cannot change them), and keeps them in
 * `payout_transfers`; the report is then a query.
 */

/** Blocks per eth_getLogs call: inside what public Polygon RPC providers accept for one filter. */
export const SCAN_CHUNK_BLOCKS = 2_000;
/** Mismatches listed per kind (the count of kinds says there are more). */
const REPORT_LIMIT = 50;

export interface ScanResult {
  fromBlock: number;
  /** The last final block read, or null when nothing was final yet. */
  scannedTo: number | null;
  /** Final blocks not read yet (the next scan goes on from there). */
  behind: number;
  found: number;
}

/**
 * Reads the wallet's transfers in final blocks not read yet, at most `maxChunks` getLogs calls. Each
 * chunk's transfers and the new high-water mark commit together, under the wallet row's lock, so two
 * scanners (two instances, the CLI beside the server) never skip or double a block.
 */
export async function scanWalletTransfers(
  deps: AppDeps,
  options: { maxChunks?: number } = {},
): Promise<ScanResult> {
  const chain = await payoutChain(deps);
  const { config } = chain;
  const wallet = { chainId: config.chainId, address: chain.address };
  const head = Number(await chain.blockNumber());
  const final = head - config.confirmations + 1;
  // An existing wallet without a window starts where its first payout landed; a new one at the head.
  const start = config.scanFromBlock ?? (await firstMinedBlock(deps.db, wallet)) ?? Math.max(final, 0);
  let found = 0;
  let chunks = 0;
  let state = await deps.db.transaction((tx) => walletScanState(tx, wallet, start, deps.clock.now()));
  const fromBlock = state.scanFromBlock;
  while (chunks < (options.maxChunks ?? Number.POSITIVE_INFINITY)) {
    const next = (state.scannedToBlock ?? state.scanFromBlock - 1) + 1;
    if (next > final) break;
    const to = Math.min(next + SCAN_CHUNK_BLOCKS - 1, final);
    const transfers = await chain.transfersFrom(BigInt(next), BigInt(to));
    chunks += 1;
    const committed = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const locked = await walletScanState(tx, wallet, start, now);
      // Another scanner moved on meanwhile: start again from its mark.
      if (locked.scannedToBlock !== state.scannedToBlock) return locked;
      await recordTransfers(
        tx,
        wallet,
        transfers.map((transfer) => ({
          chainId: config.chainId,
          txHash: transfer.txHash.toLowerCase(),
          logIndex: transfer.logIndex,
          fromAddress: chain.address,
          toAddress: transfer.to,
          tokenAddress: config.tokenAddress,
          amountMicro: transfer.amountMicro,
          blockNumber: Number(transfer.blockNumber),
          seenAt: now,
        })),
        to,
        now,
      );
      found += transfers.length;
      return { ...locked, scannedToBlock: to };
    });
    state = committed;
  }
  const scannedTo = state.scannedToBlock;
  return {
    fromBlock,
    scannedTo,
    behind: Math.max(final - (scannedTo ?? fromBlock - 1), 0),
    found,
  };
}

/**
 * Scans what is new (at most `maxChunks` calls), then reports: the window read, the transfers found
 * and the mismatches by kind. `{ enabled: false }` without a payout key.
 */
export async function payoutReconciliation(
  deps: AppDeps,
  options: { maxChunks?: number } = {},
): Promise<PayoutReconciliation> {
  if (!deps.config.payouts.enabled) return { enabled: false };
  const chain = await payoutChain(deps);
  const wallet = { chainId: chain.config.chainId, address: chain.address };
  let scan: ScanResult | null = null;
  let unreachable: string | null = null;
  try {
    scan = await scanWalletTransfers(deps, options);
  } catch (error) {
    unreachable = errorText(error).slice(0, 300);
  }
  const row = await findWallet(deps.db, wallet);
  const scannedTo = scan?.scannedTo ?? row?.scannedToBlock ?? null;
  const totals = await transferTotals(deps.db, wallet);
  const explained = await explainedTotals(deps.db, wallet);
  const explainedRows = await selectExplainedTransfers(deps.db, wallet, REPORT_LIMIT);
  const explainers = new Map<string, string | null>();
  for (const id of new Set(explainedRows.map((transfer) => transfer.explainedBy))) {
    if (id !== null) explainers.set(id, (await findUserById(deps.db, Number(id)))?.email ?? null);
  }
  const rows =
    scannedTo === null ? [] : await selectTransferMismatches(deps.db, wallet, scannedTo, REPORT_LIMIT);
  const explorer = (hash: string | null) =>
    hash && wallet.chainId === 137 ? `${POLYGON_EXPLORER_TX_URL}${hash}` : null;
  return {
    enabled: true,
    address: wallet.address,
    fromBlock: scan?.fromBlock ?? row?.scanFromBlock ?? null,
    scannedTo,
    behind: scan?.behind ?? null,
    unreachable,
    transfers: { count: totals.count, amount: fromScaled(totals.amountMicro, DECIMALS.usdt) },
    explained: { count: explained.count, amount: fromScaled(explained.amountMicro, DECIMALS.usdt) },
    explainedTransfers: explainedRows.map((transfer) => ({
      txHash: transfer.txHash,
      explorerUrl: explorer(transfer.txHash),
      to: transfer.toAddress,
      amount: fromScaled(BigInt(transfer.amountMicro), DECIMALS.usdt),
      block: transfer.blockNumber,
      reason: transfer.explanation,
      by: transfer.explainedBy === null ? null : (explainers.get(transfer.explainedBy) ?? null),
      at: transfer.explainedAt === null ? null : new Date(transfer.explainedAt).toISOString(),
    })),
    mismatches: rows.map((mismatch) => ({
      kind: mismatch.kind,
      txHash: mismatch.tx_hash,
      explorerUrl: explorer(mismatch.tx_hash),
      payoutId: mismatch.payout_id === null ? null : Number(mismatch.payout_id),
      withdrawalId: mismatch.withdrawal_id,
      to: mismatch.to_address,
      amount:
        mismatch.amount_micro === null ? null : fromScaled(BigInt(mismatch.amount_micro), DECIMALS.usdt),
      block: mismatch.block_number === null ? null : Number(mismatch.block_number),
    })),
  };
}

/**
 * An operator explains a transfer out of the wallet that is no payout (float moved back to cold
 * storage, a test): it stops being a mismatch and stays on record with the reason, who and when,
 * audited. Only such a transfer: one of our payouts' cannot be explained away.
 */
export async function explainTransfer(
  deps: AppDeps,
  input: { txHash: string; reason: string; actor: AuditActor; requestId: string | null },
): Promise<{ txHash: string; explanation: string }> {
  const chain = await payoutChain(deps);
  return deps.db.transaction(async (tx) => {
    // Explaining a transfer takes it off the mismatches: an operator's decision (console and CLI).
    await confirmOperatorRole(tx, input.actor);
    const rows = await findForeignTransfer(tx, chain.config.chainId, input.txHash);
    if (rows.length === 0) throw AppError.refused('transferNotForeign');
    const now = deps.clock.now();
    await explainTransferRows(tx, chain.config.chainId, input.txHash, {
      text: input.reason,
      by: input.actor.userId,
      at: now,
    });
    await recordAudit(tx, {
      actor: input.actor,
      action: 'payout.explainTransfer',
      target: `transfer:${input.txHash}`,
      before: { explanation: rows[0]?.explanation ?? null },
      after: {
        explanation: input.reason,
        to: rows[0]?.toAddress,
        amount: fromScaled(
          rows.reduce((sum, row) => sum + row.amountMicro, 0n),
          DECIMALS.usdt,
        ),
      },
      at: now,
      requestId: input.requestId,
    });
    return { txHash: input.txHash, explanation: input.reason };
  });
}
