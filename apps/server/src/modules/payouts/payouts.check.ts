import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { describeRows, type InvariantProblem } from '../ledger/ledger.check.js';
import { scannedWallets, selectTransferMismatches } from './payouts.repository.js';

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * The payouts and the withdrawals they pay tell the same story (docs/withdrawals.md, "On-chain payouts"):
 *
 * 1. a confirmed payout's withdrawal is completed with the payout's landed hash, for the same amount
 *    and address;
 * 2. a payout in flight belongs to a pending withdrawal (nothing decided it by hand meanwhile);
 * 3. a withdrawal completed with the hash of one of the wallet's attempts has that payout confirmed;
 * 4. the chain agrees (the reconciliation scan's transfers, in the blocks it has read): every transfer
 *    out of the wallet is one payout's, to its address for its amount, of a payout not reverted or
 *    dropped, one per withdrawal; every confirmed payout is such a transfer.
 */
export async function checkPayoutInvariants(db: Executor): Promise<InvariantProblem[]> {
  const problems: InvariantProblem[] = [];
  const report = <T>(invariant: string, rows: readonly T[], render: (row: T) => string) => {
    if (rows.length > 0) problems.push({ invariant, detail: describeRows(rows, render) });
  };
  type Row = { payout_id: string; withdrawal_id: string; state: string; status: string };
  const render = (row: Row) =>
    `payout ${row.payout_id} (${row.state}) of withdrawal ${row.withdrawal_id} (${row.status})`;

  report(
    'a confirmed payout completes its withdrawal with its hash, amount and address',
    rowsOf<Row>(
      await db.execute(sql`
        select p.id as payout_id, w.id as withdrawal_id, p.state, w.status from payouts p
        join withdrawals w on w.id = p.withdrawal_id
        where p.state = 'confirmed' and (w.status <> 'completed' or w.tx_hash is distinct from p.mined_hash
          or w.amount_micro <> p.amount_micro or lower(w.address) <> lower(p.to_address))`),
    ),
    render,
  );
  report(
    'a payout in flight belongs to a pending withdrawal',
    rowsOf<Row>(
      await db.execute(sql`
        select p.id as payout_id, w.id as withdrawal_id, p.state, w.status from payouts p
        join withdrawals w on w.id = p.withdrawal_id
        where p.state in ('signed', 'broadcast', 'mined') and w.status <> 'pending'`),
    ),
    render,
  );
  report(
    'a withdrawal paid with a payout attempt has that payout confirmed',
    rowsOf<Row>(
      await db.execute(sql`
        select p.id as payout_id, w.id as withdrawal_id, p.state, w.status from withdrawals w
        join payout_attempts a on a.tx_hash = w.tx_hash
        join payouts p on p.id = a.payout_id
        where p.state <> 'confirmed' or p.withdrawal_id <> w.id`),
    ),
    render,
  );
  for (const wallet of await scannedWallets(db)) {
    const mismatches = await selectTransferMismatches(db, wallet, wallet.scannedToBlock ?? 0, 20);
    report(
      `every transfer out of the payout wallet ${wallet.address} is exactly one payout (the chain agrees)`,
      mismatches,
      (row) =>
        `${row.kind}: ${row.tx_hash ?? ''} payout ${row.payout_id ?? '-'} withdrawal ${row.withdrawal_id ?? '-'} ` +
        `${row.amount_micro ?? ''} micro-USDT to ${row.to_address ?? '-'} in block ${row.block_number ?? '-'}`,
    );
  }
  return problems;
}
