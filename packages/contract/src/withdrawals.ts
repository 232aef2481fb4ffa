import * as z from 'zod';
import { DECIMALS, fromScaled, toScaled } from './catalog.js';
import { WITHDRAWAL } from './constants.js';
import type { MessageKey } from './messages.js';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { PayoutProgressSchema } from './payouts.js';
import { PLAT_ID_MAX, polygonAddressSchema, verificationCodeSchema } from './rules.js';

/**
 * Withdrawals (issue 6): a member asks to send a bound UID's cashback plus event rewards to a Polygon
 * address; an operator pays it (entering the payout transaction hash) or rejects it. Amounts are USDT
 * decimal strings with up to 6 decimals on the way in and exactly 6 on the way out.
 */

const fail = (key: MessageKey) => ({ error: key });

export const WITHDRAWAL_STATUSES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** A USDT amount typed by a person: up to 6 decimals, positive. */
export const usdtAmountSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .min(1, fail('requiredInformation'))
  .regex(/^\d{1,12}(\.\d{1,6})?$/, fail('amountInvalid'));

/** A Polygon transaction hash: 0x and 64 hex digits. */
export const txHashSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .regex(/^0x[0-9a-fA-F]{64}$/, fail('txHashInvalid'));

/** Where a member can see a payout on the Polygon chain. */
export const POLYGON_EXPLORER_TX_URL = 'https://polygonscan.com/tx/';

// /elex/user/withdrawable {}: what each bound UID can withdraw now, and the lock after a password change.
export const WithdrawableSchema = z.object({
  minimum: z.string(),
  /** ISO time until which withdrawals are refused (72 h after a password change or reset), or null. */
  lockedUntil: z.string().nullable(),
  /** The member's event rewards, usable with any one UID's cashback (the held part excepted). */
  rewards: z.string(),
  /**
   * Invite bonuses paid by a friend's UID that is still in its ownership check, or under an ownership
   * dispute: part of `rewards`, not withdrawable until then; null when none is held.
   */
  rewardsHeld: z
    .object({
      amount: z.string(),
      /** ISO time the last bonus held by time is released; null when all wait for a dispute. */
      until: z.string().nullable(),
      /** Some wait for an ownership dispute to be settled. */
      disputed: z.boolean(),
    })
    .nullable(),
  bindings: z.array(
    z.object({
      platId: z.number().int(),
      uid: z.string(),
      address: z.string(),
      cashback: z.string(),
      /** cashback + rewards, less the held invite bonuses */
      withdrawable: z.string(),
      /** How much is still needed to reach the minimum ("0.000000" when reached). */
      shortfall: z.string(),
      /**
       * ISO time until which a new binding's money is held for the ownership check (OWNERSHIP.holdDays
       * after binding, unless an operator confirmed the owner), or null: nothing can be withdrawn before.
       */
      heldUntil: z.string().nullable(),
      /** An open dispute (support request 'uidBoundByOther') freezes the UID: nothing can be withdrawn. */
      frozen: z.boolean(),
    }),
  ),
});
export type Withdrawable = z.infer<typeof WithdrawableSchema>;

/**
 * What deleting the account would forfeit (docs/accounts.md): every bound UID's cashback and the
 * member's rewards, the sum the deletion dialog shows and sends back as `forfeitTotal`.
 */
export function forfeitOnDeletion(withdrawable: Pick<Withdrawable, 'rewards' | 'bindings'>): string {
  let total = toScaled(withdrawable.rewards, DECIMALS.usdt);
  for (const binding of withdrawable.bindings) total += toScaled(binding.cashback, DECIMALS.usdt);
  return fromScaled(total, DECIMALS.usdt);
}

// /elex/user/depositVerifyEmail {authCode}: checks the withdrawal code (module 3) without using it up,
// so the form can say 'Invalid verification code' before the request is sent.
export const DepositVerifyEmailRequestSchema = z.object({ authCode: verificationCodeSchema });

// /elex/user/applyDeposit: creates the withdrawal. `requestId` (a UUID the page makes once per form)
// makes a retried click create one withdrawal.
export const ApplyDepositRequestSchema = z.object({
  requestId: z.uuid(fail('invalidValue')),
  platId: z.coerce
    .number(fail('requiredInformation'))
    .int()
    .positive(fail('requiredInformation'))
    .max(PLAT_ID_MAX, fail('invalidValue')),
  uid: z.string(fail('requiredInformation')).trim().min(1, fail('requiredInformation')),
  address: polygonAddressSchema,
  amount: usdtAmountSchema,
  authCode: verificationCodeSchema,
});
export type ApplyDepositRequest = z.input<typeof ApplyDepositRequestSchema>;

export const WithdrawalSchema = z.object({
  id: z.string(),
  platId: z.number().int(),
  uid: z.string(),
  amount: z.string(),
  address: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The payout transaction once completed. */
  txHash: z.string().nullable(),
  /** Why it failed (the operator's reason), or null. */
  failureReason: z.string().nullable(),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;

// /elex/exchange/depositRecord {page, pageSize, status?}: the member's withdrawals, newest first.
export const DepositRecordRequestSchema = z.object({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  page: pageNumberSchema,
  pageSize: pageSizeSchema(),
});
/** A withdrawal in the member's list: with its payout's progress once the server sends it on chain. */
export const WithdrawalRecordSchema = WithdrawalSchema.extend({ payout: PayoutProgressSchema.nullable() });
export type WithdrawalRecord = z.infer<typeof WithdrawalRecordSchema>;
export const DepositRecordPageSchema = z.object({
  records: z.array(WithdrawalRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DepositRecordPage = z.infer<typeof DepositRecordPageSchema>;
export type DepositRecordRequest = z.input<typeof DepositRecordRequestSchema>;

// /elex/user/cancelDeposit {id}: a member cancels a withdrawal still under review; the funds return.
export const CancelDepositRequestSchema = z.object({
  id: z.string().trim().min(1, fail('requiredInformation')),
});

/** spec: minimum 50.00 USDT per UID. */
export const WITHDRAWAL_MINIMUM = WITHDRAWAL.minimumUsdt;

/**
 * Amounts in messages and on the withdrawal page, micro-USDT or a decimal string: "12.500000" -> "12.50",
 * "0.123400" -> "0.1234" (two decimals at least, no zeros after them).
 */
export function displayUsdt(value: bigint | string): string {
  const micro = typeof value === 'bigint' ? value : toScaled(value, DECIMALS.usdt);
  return fromScaled(micro, DECIMALS.usdt).replace(/(\.\d{2}\d*?)0+$/, '$1');
}

/** The refusal an amount earns, with the figures its message names. */
export type WithdrawalAmountProblem =
  | { key: 'withdrawalBelowMinimum'; values: { minimum: string; shortfall: string } }
  | { key: 'withdrawalOverBalance'; values: { available: string } };

/**
 * spec: at least 50 USDT, of a UID holding at least 50 USDT (its cashback plus the member's rewards),
 * and never more than it holds. The one rule for the form (said as the member types) and the server
 * (checked again under its locks). Without `withdrawableMicro`, only the amount's own minimum.
 */
export function withdrawalAmountProblem(
  amountMicro: bigint,
  withdrawableMicro?: bigint,
): WithdrawalAmountProblem | null {
  const minimum = WITHDRAWAL.minimumMicroUsdt;
  const below = (short: bigint): WithdrawalAmountProblem => ({
    key: 'withdrawalBelowMinimum',
    values: { minimum: WITHDRAWAL.minimumUsdt, shortfall: displayUsdt(short) },
  });
  if (amountMicro < minimum) return below(minimum - amountMicro);
  if (withdrawableMicro === undefined) return null;
  if (withdrawableMicro < minimum) return below(minimum - withdrawableMicro);
  if (amountMicro > withdrawableMicro) {
    return { key: 'withdrawalOverBalance', values: { available: displayUsdt(withdrawableMicro) } };
  }
  return null;
}
