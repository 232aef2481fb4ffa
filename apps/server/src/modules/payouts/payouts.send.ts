import { DECIMALS, fromScaled } from '@elex/contract';
import type { Address, Hex } from 'viem';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { type AuditActor, confirmOperatorRole, recordAudit } from '../admin/audit.service.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import { lockWithdrawal, refuseUnlessPayable } from '../withdrawals/withdrawals.decisions.js';
import type { WithdrawalRow } from '../withdrawals/withdrawals.tables.js';
import {
  cappedFees,
  errorText,
  type Fees,
  type PayoutChain,
  type SignedTransfer,
  TRANSFER_GAS_LIMIT,
} from './payouts.chain.js';
import {
  attemptsOf,
  findPayout,
  inFlightTotals,
  insertAttempt,
  insertPayout,
  livePayoutOf,
  lockWalletNonce,
  markAttemptBroadcast,
  setWalletNonce,
  updatePayout,
} from './payouts.repository.js';
import { checkpoint, type PayoutDeps, type PayoutView, payoutChain, viewsOf } from './payouts.service.js';
import { PAYOUT_IN_FLIGHT, type PayoutAttemptRow, type PayoutRow, type PayoutVia } from './payouts.tables.js';

/** Sending a withdrawal's payout: signed and recorded under the locks, then handed to the node. */

export interface SendOutcome {
  payout: PayoutView;
  /** False when the withdrawal already had a payout on its way (or paid): nothing new was signed. */
  created: boolean;
}

/**
 * Sends a pending withdrawal on chain. In one transaction under the withdrawal's row lock: a payout
 * already live for it is answered as it is (a second click, a retry, a racing instance); otherwise
 * the checks of a payment by hand, the wallet's nonce taken under its row lock, the transfer signed
 * and the payout with its first attempt written. Only after that commit is the transaction handed to
 * the node; if that fails or the process dies, the tracker broadcasts the recorded bytes.
 */
export async function sendWithdrawal(
  deps: PayoutDeps,
  input: {
    id: string | number;
    operatorId: number | null;
    via: PayoutVia;
    /** The operator's audit entry, written in the transaction that records the payout. */
    audit?: { actor: AuditActor; requestId: string | null };
    /**
     * A last check under the wallet's lock, which every send of the wallet takes (the fast lane's
     * limits): throwing refuses the send with nothing signed.
     */
    guard?: (tx: Transaction, withdrawal: WithdrawalRow) => Promise<void>;
  },
): Promise<SendOutcome> {
  const chain = await payoutChain(deps);
  const { config } = chain;
  // Read before the transaction, so no lock waits on the network: the chain's count lets the nonce
  // skip past transactions the wallet sent elsewhere; the fees are today's.
  let chainNonce: number;
  let asked: Fees;
  let held: { usdt: bigint; gas: bigint };
  try {
    const [nonce, today, usdt, gas] = await Promise.all([
      chain.nonceAt('pending'),
      chain.currentFees(),
      chain.tokenBalance(),
      chain.gasBalance(),
    ]);
    [chainNonce, asked, held] = [nonce, today, { usdt, gas }];
  } catch (error) {
    // Nothing is signed yet: the operator may simply try again.
    throw AppError.refused('payoutNodeUnreachable', { error: errorText(error).slice(0, 200) });
  }

  // Never above the ceiling: a send in a fee spike is signed at it and waits (the tracker says so).
  const fees = cappedFees(asked, config.maxFeePerGas);
  let recorded: { payout: PayoutRow; attempt: PayoutAttemptRow; created: boolean };
  try {
    // The UID's account may be held by an import still settling (refuseUnlessPayable locks it): the
    // operator is told 'accountBusy' after ACCOUNT_LOCK_WAIT_MS rather than waiting with the
    // withdrawal's row locked; the fast lane finds the withdrawal again on its next pass.
    recorded = await inMoneyTransaction(deps, async (tx) => {
      // The operator may have lost the role since the console's guard or the command's check.
      if (input.audit) await confirmOperatorRole(tx, input.audit.actor);
      const withdrawal = await lockWithdrawal(tx, input.id);
      const live = await livePayoutOf(tx, withdrawal.id);
      if (live) {
        const attempts = await attemptsOf(tx, [live.id]);
        return { payout: live, attempt: attempts.at(-1) as PayoutAttemptRow, created: false };
      }
      await refuseUnlessPayable(tx, deps, withdrawal, input.operatorId);
      const now = deps.clock.now();
      const wallet = { chainId: config.chainId, address: chain.address };
      const stored = await lockWalletNonce(tx, wallet, chainNonce, now);
      // Under the wallet's lock, so sends of this wallet count each other: a transfer the wallet
      // cannot pay is refused here rather than sent to revert (and burn gas).
      await refuseUnlessWalletCovers(tx, held, fees, withdrawal.amountMicro);
      await input.guard?.(tx, withdrawal);
      const nonce = Math.max(stored, chainNonce);
      const signed = await chain.signTransfer({
        to: withdrawal.address as Address,
        amountMicro: withdrawal.amountMicro,
        nonce,
        fees,
      });
      const payout = await insertPayout(tx, {
        withdrawalId: withdrawal.id,
        chainId: config.chainId,
        fromAddress: chain.address,
        nonce,
        toAddress: withdrawal.address,
        tokenAddress: config.tokenAddress,
        amountMicro: withdrawal.amountMicro,
        state: 'signed',
        sentBy: input.operatorId,
        sentVia: input.via,
        heldFeeAsked: heldBelow(asked, fees),
        createdAt: now,
        updatedAt: now,
      });
      const attempt = await insertAttempt(tx, attemptRow(payout.id, signed, now));
      await setWalletNonce(tx, wallet, nonce + 1, now);
      if (input.audit) {
        await recordAudit(tx, {
          actor: input.audit.actor,
          action: 'withdrawal.send',
          target: `withdrawal:${withdrawal.id}`,
          before: { status: withdrawal.status, amount: fromScaled(withdrawal.amountMicro, DECIMALS.usdt) },
          after: {
            payoutId: payout.id,
            from: chain.address,
            to: withdrawal.address,
            nonce,
            txHash: signed.txHash,
            via: input.via,
          },
          at: now,
          requestId: input.audit.requestId,
        });
      }
      await checkpoint(deps, 'send:afterRecord');
      return { payout, attempt, created: true };
    });
  } catch (error) {
    // Two sends that got past each other's lock (cannot happen under the row lock; the index says so
    // too): the one that lost answers the winner's payout.
    if (!isUniqueViolation(error)) throw error;
    const withdrawalId = Number(input.id);
    const live = Number.isSafeInteger(withdrawalId) ? await livePayoutOf(deps.db, withdrawalId) : undefined;
    if (!live) throw error;
    const views = await viewsOf(deps, [live]);
    return { payout: views[0] as PayoutView, created: false };
  }

  if (recorded.created) {
    await checkpoint(deps, 'send:beforeBroadcast');
    await broadcastAttempt(deps, chain, recorded.payout, recorded.attempt);
  }
  const fresh = (await findPayout(deps.db, recorded.payout.id)) ?? recorded.payout;
  const views = await viewsOf(deps, [fresh]);
  return { payout: views[0] as PayoutView, created: recorded.created };
}

/**
 * Refuses a send the wallet cannot cover: its USDT (read before the transaction) must pay this one and
 * every payout signed and not yet in a block (a mined one has left the balance already); its gas must
 * let a node accept each of them at today's fee cap. Money on its way in a block meanwhile is counted
 * out of both sides, so the check errs by at most what the block moved.
 */
async function refuseUnlessWalletCovers(
  tx: Parameters<typeof inFlightTotals>[0],
  held: { usdt: bigint; gas: bigint },
  fees: { maxFeePerGas: bigint },
  amountMicro: bigint,
) {
  const { unmined } = await inFlightTotals(tx);
  const usdtNeeded = unmined.amountMicro + amountMicro;
  if (held.usdt < usdtNeeded) {
    throw AppError.refused('payoutWalletShortUsdt', {
      held: fromScaled(held.usdt, DECIMALS.usdt),
      needed: fromScaled(usdtNeeded, DECIMALS.usdt),
    });
  }
  const gasNeeded = BigInt(unmined.count + 1) * TRANSFER_GAS_LIMIT * fees.maxFeePerGas;
  if (held.gas < gasNeeded) {
    throw AppError.refused('payoutWalletShortGas', {
      held: fromScaled(held.gas, 18),
      needed: fromScaled(gasNeeded, 18),
    });
  }
}

export interface BatchSendResult {
  id: string;
  outcome: SendOutcome | { refused: AppError };
}

/**
 * Sends several withdrawals, one after the other (each takes the next nonce); a refusal of one does
 * not stop the others. No node answering refuses the rest with the same reason; other errors (the
 * database) stop the batch.
 */
export async function sendWithdrawals(
  deps: PayoutDeps,
  input: {
    ids: ReadonlyArray<string | number>;
    operatorId: number | null;
    via: PayoutVia;
    audit?: { actor: AuditActor; requestId: string | null };
  },
): Promise<BatchSendResult[]> {
  const results: BatchSendResult[] = [];
  for (const id of input.ids) {
    try {
      results.push({
        id: String(id),
        outcome: await sendWithdrawal(deps, {
          id,
          operatorId: input.operatorId,
          via: input.via,
          ...(input.audit ? { audit: input.audit } : {}),
        }),
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id: String(id), outcome: { refused: error } });
      // No node answers: the rest would wait for the same timeouts and fail the same way; an operator
      // who lost the role meanwhile is refused the rest too.
      if (error.messageKey === 'payoutNodeUnreachable' || error.messageKey === 'forbidden') {
        for (const rest of input.ids.slice(results.length)) {
          results.push({ id: String(rest), outcome: { refused: error } });
        }
        break;
      }
    }
  }
  return results;
}

/** Hands an attempt to the node; a refusal is kept on the payout for the operator, never thrown. */
export async function broadcastAttempt(
  deps: AppDeps,
  chain: PayoutChain,
  payout: PayoutRow,
  attempt: PayoutAttemptRow,
): Promise<{ accepted: boolean; error?: string }> {
  const answer = await chain.broadcast(attempt.rawTx as Hex).catch((error: unknown) => ({
    error: error instanceof Error ? error.message : String(error),
  }));
  const now = deps.clock.now();
  if ('error' in answer) {
    await updatePayout(deps.db, payout.id, PAYOUT_IN_FLIGHT, { lastError: answer.error, updatedAt: now });
    return { accepted: false, error: answer.error };
  }
  await markAttemptBroadcast(deps.db, attempt.id, now);
  await updatePayout(deps.db, payout.id, ['signed'], {
    state: 'broadcast',
    broadcastAt: now,
    updatedAt: now,
  });
  await updatePayout(deps.db, payout.id, ['broadcast', 'mined'], { lastError: null, updatedAt: now });
  return { accepted: true };
}

/** The network's ask when the ceiling holds `fees` below it, else null (what `held_fee_asked` keeps). */
export function heldBelow(asked: Fees, fees: Fees): bigint | null {
  return asked.maxFeePerGas > fees.maxFeePerGas ? asked.maxFeePerGas : null;
}

/** The record of a signed transaction of a payout, written before any node sees it. */
export function attemptRow(payoutId: number, signed: SignedTransfer, at: Date) {
  return {
    payoutId,
    txHash: signed.txHash,
    rawTx: signed.rawTx,
    gasLimit: signed.gasLimit,
    maxFeePerGas: signed.maxFeePerGas,
    maxPriorityFeePerGas: signed.maxPriorityFeePerGas,
    createdAt: at,
  };
}
