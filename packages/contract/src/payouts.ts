import * as z from 'zod';
import type { MessageKey } from './messages.js';

/**
 * On-chain payouts (issue 17, docs/withdrawals.md "On-chain payouts"): the server pays a pending
 * withdrawal with a USDT transfer signed by its hot wallet. What the console and the member's page see
 * of them, and the console's calls to send and to watch the wallet.
 */

const fail = (key: MessageKey) => ({ error: key });

/**
 * signed: recorded, no node has it yet; broadcast: a node took it; mined: in a block, confirmations
 * counting; confirmed: final, the withdrawal completed; reverted: failed on chain, the withdrawal back
 * in the queue; dropped: the wallet's nonce went to another transaction, the withdrawal back in the queue.
 */
export const PAYOUT_STATES = ['signed', 'broadcast', 'mined', 'confirmed', 'reverted', 'dropped'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];
/** States in which a payout may still move money: one of them at most per withdrawal. */
export const PAYOUT_IN_FLIGHT: readonly PayoutState[] = ['signed', 'broadcast', 'mined'];

/** Who sent it: an operator in the console or at the command line, or the fast lane on its own. */
export const PAYOUT_VIA = ['console', 'cli', 'auto'] as const;
export type PayoutVia = (typeof PAYOUT_VIA)[number];

/** Withdrawals one batch send may carry: each is its own signed transfer, one after the other. */
export const PAYOUT_BATCH_MAX = 50;

/** Polygonscan's page of an address (the wallet in the console). */
export const POLYGON_EXPLORER_ADDRESS_URL = 'https://polygonscan.com/address/';

/** The console's view of a withdrawal's latest payout. */
export const PayoutSummarySchema = z.object({
  id: z.number().int(),
  state: z.enum(PAYOUT_STATES),
  /** The attempt that landed, else the latest signed one. */
  txHash: z.string(),
  /** Polygonscan on Polygon mainnet; null on another chain (a test network). */
  explorerUrl: z.string().nullable(),
  nonce: z.number().int(),
  confirmations: z.number().int(),
  confirmationsNeeded: z.number().int(),
  /** Signed transactions of this nonce: 1, or more after fee raises. */
  attempts: z.number().int(),
  /** The operator who sent it (their e-mail), null when unknown. */
  sentBy: z.string().nullable(),
  sentVia: z.enum(PAYOUT_VIA),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why it reverted or was dropped. */
  failureReason: z.string().nullable(),
  /** The node's last refusal (lack of gas ...), kept while the tracker tries again. */
  lastError: z.string().nullable(),
  /**
   * Held back by the fee ceiling: the network asked more per gas (gwei) than PAYOUT_MAX_FEE_GWEI lets
   * a payout offer; it waits for fees to fall or the ceiling to rise. Null when not held.
   */
  feeHeld: z.object({ askedGwei: z.string(), ceilingGwei: z.string() }).nullable(),
});
export type PayoutSummary = z.infer<typeof PayoutSummarySchema>;

/**
 * What a member sees of a payout on its way: sent (signed or broadcast), confirming (in a block,
 * `confirmations` of `confirmationsNeeded`), completed. A reverted or dropped payout is not shown: the
 * withdrawal is under review again.
 */
export const PAYOUT_STAGES = ['sent', 'confirming', 'completed'] as const;
export type PayoutStage = (typeof PAYOUT_STAGES)[number];

export const PayoutProgressSchema = z.object({
  stage: z.enum(PAYOUT_STAGES),
  txHash: z.string(),
  explorerUrl: z.string().nullable(),
  confirmations: z.number().int(),
  confirmationsNeeded: z.number().int(),
});
export type PayoutProgress = z.infer<typeof PayoutProgressSchema>;

/** The member's stage of a payout in `state`, or null when the member should not see it. */
export function payoutStageOf(state: PayoutState): PayoutStage | null {
  switch (state) {
    case 'signed':
    case 'broadcast':
      return 'sent';
    case 'mined':
      return 'confirming';
    case 'confirmed':
      return 'completed';
    default:
      return null;
  }
}

const withdrawalIdSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .regex(/^[1-9]\d{0,17}$/, fail('invalidValue'));

// /elex/admin/sendWithdrawal {id}: sign and send one pending withdrawal's payout.
export const SendWithdrawalRequestSchema = z.object({ id: withdrawalIdSchema });
export type SendWithdrawalRequest = z.input<typeof SendWithdrawalRequestSchema>;
export const SendWithdrawalAnswerSchema = z.object({
  /** False when it already had a payout on its way: nothing new was signed. */
  created: z.boolean(),
  payout: PayoutSummarySchema,
});
export type SendWithdrawalAnswer = z.infer<typeof SendWithdrawalAnswerSchema>;

// /elex/admin/sendWithdrawals {ids}: the same for several, one after the other; each answers alone.
export const SendWithdrawalsRequestSchema = z.object({
  ids: z
    .array(withdrawalIdSchema, fail('requiredInformation'))
    .min(1, fail('requiredInformation'))
    .max(PAYOUT_BATCH_MAX, fail('payoutBatchTooLarge'))
    .refine((ids) => new Set(ids).size === ids.length, fail('invalidValue')),
});
export type SendWithdrawalsRequest = z.input<typeof SendWithdrawalsRequestSchema>;

export const SendResultSchema = z.object({
  id: z.string(),
  /** False when it already had a payout on its way: nothing new was signed. */
  created: z.boolean(),
  payout: PayoutSummarySchema.nullable(),
  /** Why this one was not sent, in the operator's language; null when sent. */
  refusal: z.string().nullable(),
});
export type SendResult = z.infer<typeof SendResultSchema>;
export const SendWithdrawalsAnswerSchema = z.object({ results: z.array(SendResultSchema) });
export type SendWithdrawalsAnswer = z.infer<typeof SendWithdrawalsAnswerSchema>;

const countAndAmount = z.object({ count: z.number().int(), amount: z.string() });

// /elex/admin/payoutWallet {}: the hot wallet's health, for the withdrawals page.
export const PayoutWalletSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    chainId: z.number().int(),
    address: z.string(),
    /** Polygonscan's page of the wallet on Polygon mainnet, else null. */
    explorerUrl: z.string().nullable(),
    token: z.string(),
    confirmations: z.number().int(),
    /** USDT (6 decimals) and gas (POL, 18 decimals) the wallet holds; null when no node answered. */
    balances: z.object({ usdt: z.string(), gas: z.string() }).nullable(),
    /** Why the balances are missing (the node's error), else null. */
    unreachable: z.string().nullable(),
    /** Pending withdrawals not yet sent: what the wallet will be asked for next. */
    awaiting: countAndAmount,
    /** Payouts signed and not yet final. */
    inFlight: countAndAmount,
    /** Gwei per gas: what the network asks now (null when no node answered), and the payouts' ceiling. */
    fees: z.object({ askedGwei: z.string().nullable(), ceilingGwei: z.string() }),
    /** What the awaiting and the not yet mined payouts need: USDT, and gas at today's fee (capped). */
    needed: z.object({ usdt: z.string(), gas: z.string().nullable() }),
    shortOfUsdt: z.boolean(),
    shortOfGas: z.boolean(),
    /**
     * The fast lane (small withdrawals of members in good standing sent without review), null when off:
     * its limits (USDT) and what it sent in the last 24 hours.
     */
    fastLane: z
      .object({
        max: z.string(),
        daily: z.string(),
        memberDaily: z.string(),
        minAccountDays: z.number().int(),
        sentLast24h: z.string(),
      })
      .nullable(),
  }),
]);
export type PayoutWallet = z.infer<typeof PayoutWalletSchema>;

/**
 * Where the wallet's transfers and the payouts disagree: a transfer out of the wallet that is no
 * payout of ours; one that went elsewhere or for another amount than its payout; one that landed
 * although its payout is marked reverted or dropped (the withdrawal could be paid again); two
 * transfers for one withdrawal; a payout marked confirmed without its transfer on chain.
 */
export const TRANSFER_MISMATCH_KINDS = [
  'unknownTransfer',
  'transferDiffers',
  'paidButNotConfirmed',
  'paidTwice',
  'confirmedWithoutTransfer',
] as const;
export type TransferMismatchKind = (typeof TRANSFER_MISMATCH_KINDS)[number];

// /elex/admin/payoutReconciliation {}: reads the wallet's new transfers, then compares.
export const PayoutReconciliationSchema = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({
    enabled: z.literal(true),
    address: z.string(),
    /** The blocks read so far: from the window's start to the last final block read (null: none yet). */
    fromBlock: z.number().int().nullable(),
    scannedTo: z.number().int().nullable(),
    /** Final blocks still to read (this call reads a bounded number); null when no node answered. */
    behind: z.number().int().nullable(),
    unreachable: z.string().nullable(),
    transfers: countAndAmount,
    /** Transfers that are no payout, explained by an operator (not mismatches). */
    explained: countAndAmount,
    /** The newest of them (at most 50), with the reason, who gave it and when. */
    explainedTransfers: z.array(
      z.object({
        txHash: z.string(),
        explorerUrl: z.string().nullable(),
        to: z.string(),
        amount: z.string(),
        block: z.number().int(),
        reason: z.string(),
        /** The operator's e-mail; null from the command line without one, or a deleted account. */
        by: z.string().nullable(),
        at: z.string().nullable(),
      }),
    ),
    mismatches: z.array(
      z.object({
        kind: z.enum(TRANSFER_MISMATCH_KINDS),
        txHash: z.string().nullable(),
        explorerUrl: z.string().nullable(),
        payoutId: z.number().int().nullable(),
        withdrawalId: z.string().nullable(),
        to: z.string().nullable(),
        amount: z.string().nullable(),
        block: z.number().int().nullable(),
      }),
    ),
  }),
]);
export type PayoutReconciliation = z.infer<typeof PayoutReconciliationSchema>;

// /elex/admin/explainTransfer {txHash, reason}: a transfer out of the wallet that is no payout, explained
// (float moved back to cold storage ...): no longer a mismatch, kept on record with who and why.
export const ExplainTransferRequestSchema = z.object({
  txHash: z
    .string(fail('requiredInformation'))
    .trim()
    .toLowerCase()
    .regex(/^0x[0-9a-f]{64}$/, fail('txHashInvalid')),
  reason: z
    .string(fail('requiredInformation'))
    .trim()
    .min(1, fail('requiredInformation'))
    .max(500, fail('invalidValue')),
});
export type ExplainTransferRequest = z.input<typeof ExplainTransferRequestSchema>;
/** The transfer explained (its hash in lower case) and the reason now on record. */
export const ExplainTransferAnswerSchema = z.object({ txHash: z.string(), explanation: z.string() });
