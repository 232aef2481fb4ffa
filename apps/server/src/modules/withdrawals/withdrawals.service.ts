import {
  DECIMALS,
  type DepositRecordPage,
  displayUsdt,
  getAddress,
  isAddress,
  toScaled,
  usdtAmountSchema,
  WITHDRAWAL,
  type Withdrawable,
  type Withdrawal,
  type WithdrawalStatus,
  withdrawalAmountProblem,
  ZERO_ADDRESS,
} from '@elex/contract';
import type { Transaction } from '../../db/client.js';
import { answerKind, keptForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { displayTime } from '../../lib/display-time.js';
import { selectHeldInviteBonuses } from '../../read-models/held-invite-bonuses.js';
import {
  selectWithdrawableSummary,
  type WithdrawableSummary,
} from '../../read-models/withdrawable-summary.js';
import { sendAlert } from '../alerts/alerts.service.js';
import type { Member } from '../auth/auth.guard.js';
import {
  activeLock,
  checkOwnAddressCode,
  isSuspended,
  memberContact,
  useCode,
  withdrawalLockedUntil,
  withdrawalLockedUntilInTransaction,
} from '../auth/auth.service.js';
import { liveBindingOf, ownershipHeldUntil } from '../bindings/bindings.service.js';
import { keepCheckForMember } from '../cashback/ingest.service.js';
import { loadPartners } from '../cashback/partners.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import {
  accountCode,
  balanceOf,
  balancesOf,
  InsufficientBalanceError,
  postJournal,
} from '../ledger/ledger.service.js';
import { enqueueMail } from '../mail/outbox.js';
import { isUidFrozen } from '../support/frozen.js';
import {
  checkpoint,
  journalKey,
  mailParams,
  parseField,
  toWithdrawal,
  usdt,
  WITHDRAWAL_JOURNAL_KINDS,
  type WithdrawalDeps,
} from './withdrawals.model.js';
import { findByRequestId, insertWithdrawalUnlessExists, selectMemberPage } from './withdrawals.repository.js';
import type { WithdrawalRow } from './withdrawals.tables.js';

/**
 * Withdrawals (issue 6, docs/withdrawals.md). A member asks to send a bound UID's cashback plus their
 * event rewards to a Polygon address, confirmed with an e-mailed code; the amount moves to
 * `hold:<id>` in the transaction that checks the balance; an operator pays it (the payout
 * transaction's hash; hold -> payout) or rejects it (hold -> back to where it came from); the member
 * may cancel it while it is under review (the same return): withdrawals.decisions.ts. This file is the
 * member's side: what may be withdrawn, and the request.
 */

const MINIMUM = WITHDRAWAL.minimumMicroUsdt;

/** A receiving address: EIP-55 checked (an all-lowercase one has no checksum), never the zero address. */
function receivingAddress(raw: string): string {
  const value = raw.trim();
  if (!isAddress(value, { strict: true }) || value.toLowerCase() === ZERO_ADDRESS) {
    throw AppError.refused('walletAddressInvalid');
  }
  return getAddress(value);
}

// ---------------------------------------------------------------------------------------------------
// Member calls

/** withdrawable answers kept per process, by member (db/member-answers.ts). */
const WITHDRAWABLE = answerKind<WithdrawableSummary>('withdrawable', 20_000);

/**
 * /elex/user/withdrawable: per live binding, its cashback, the member's rewards and what is still
 * needed. The summary is kept in this process until something it reads changes (triggers of
 * migrations 0028, 0051 and 0052 notify its member: balances, the member's row, bindings, disputes,
 * bonus sums) or until its held bonuses change by time alone (`heldChangesAt`): never served past
 * that. The lock's and each binding's ownership hold's end are stored ends, decided against the clock
 * on each call, as profile's lock. A request to withdraw reads everything again in its transaction.
 */
export async function withdrawableOf(deps: AppDeps, userId: number): Promise<Withdrawable> {
  const summary = await keptForMember(
    deps.memberAnswers,
    WITHDRAWABLE,
    userId,
    // One statement (read-models/withdrawable-summary.ts): the lock, the balances, the bindings, the
    // disputes and the held invite bonuses. Frozen: a kept answer is every later call's answer.
    async () => frozen(await selectWithdrawableSummary(deps.db, userId, deps.clock.now())),
    {
      stillValid: (kept) => kept.heldChangesAt === null || deps.clock.now() < kept.heldChangesAt,
      // The friends' UIDs whose disputes may hold its bonuses too (their triggers may not name it).
      keepable: () => keepCheckForMember(deps.db, userId, { heldBonusesAt: deps.clock.now() }),
    },
  );
  return withdrawableAnswer(summary, deps.clock.now());
}

function frozen(summary: WithdrawableSummary): WithdrawableSummary {
  for (const binding of summary.bindings) Object.freeze(binding);
  Object.freeze(summary.bindings);
  Object.freeze(summary.heldBonuses);
  return Object.freeze(summary);
}

function withdrawableAnswer(summary: WithdrawableSummary, now: Date): Withdrawable {
  const held = summary.heldBonuses;
  const freeRewards = usableRewards(summary.rewardsMicro, held.heldMicro);
  const lockedUntil = activeLock(summary.withdrawalLockedUntil, now);
  return {
    minimum: usdt(MINIMUM),
    lockedUntil: lockedUntil?.toISOString() ?? null,
    rewards: usdt(summary.rewardsMicro),
    // What the held bonuses take off the balance (a correction may have left less than they came to).
    rewardsHeld:
      held.heldMicro > 0n && summary.rewardsMicro > 0n
        ? {
            amount: usdt(summary.rewardsMicro - freeRewards),
            until: held.until?.toISOString() ?? null,
            disputed: held.disputed,
          }
        : null,
    bindings: summary.bindings.map((binding) => {
      const withdrawable = binding.cashbackMicro + freeRewards;
      return {
        platId: binding.platId,
        uid: binding.uid,
        address: binding.address,
        cashback: usdt(binding.cashbackMicro),
        withdrawable: usdt(withdrawable),
        shortfall: usdt(withdrawable >= MINIMUM ? 0n : MINIMUM - withdrawable),
        heldUntil: ownershipHeldUntil(binding, now)?.toISOString() ?? null,
        frozen: binding.frozen,
      };
    }),
  };
}

/**
 * The rewards a withdrawal may draw on: the balance less the invite bonuses held for their friends'
 * ownership checks (read-models/held-invite-bonuses.ts). Rewards are one balance, so the held sum is
 * taken off whatever is there; never below zero (a correction may have taken back more than is free).
 */
function usableRewards(balanceMicro: bigint, heldMicro: bigint): bigint {
  return balanceMicro > heldMicro ? balanceMicro - heldMicro : 0n;
}

/** /elex/user/depositVerifyEmail: checks the module-3 code without using it up. */
export async function verifyWithdrawalCode(deps: AppDeps, member: Member, code: string): Promise<void> {
  await checkOwnAddressCode(deps, member, code);
}

export interface WithdrawalRequest {
  requestId: string;
  platId: number;
  uid: string;
  address: string;
  /** USDT, up to 6 decimals. */
  amount: string;
  /** The 6-digit module-3 code. */
  code: string;
}

export interface WithdrawalRequestOutcome {
  withdrawal: Withdrawal;
  /** False when this request id had made the withdrawal already (a retried click): nothing moved now. */
  created: boolean;
}

/**
 * A new binding's money waits for the ownership check (OWNERSHIP.holdDays, or an operator's
 * confirmation): a stranger who bound someone's UID cannot take its cashback before the owner disputes.
 */
function refuseUnlessOwnershipSettled(binding: Parameters<typeof ownershipHeldUntil>[0], now: Date): void {
  const heldUntil = ownershipHeldUntil(binding, now);
  if (heldUntil) throw AppError.refused('withdrawalOwnershipHeld', { time: displayTime(heldUntil) });
}

/** A retried request answers the withdrawal it made, if it asked for the same thing. */
function replay(row: WithdrawalRow, request: WithdrawalRequest, address: string, amountMicro: bigint) {
  if (
    row.platId !== request.platId ||
    row.uid !== request.uid ||
    row.address !== address ||
    row.amountMicro !== amountMicro
  ) {
    throw AppError.refused('withdrawalRequestReused');
  }
  return { withdrawal: toWithdrawal(row), created: false };
}

/**
 * /elex/user/applyDeposit. Checks (cheapest first): a retried request id answers its withdrawal; the
 * 72 h lock after a password change; the UID is the member's live binding; the amount is at least
 * 50 USDT; the code. Then, in one transaction under row locks on the UID's cashback and the member's
 * rewards accounts: the 72 h lock again (the user row held FOR SHARE, so a password change waits or
 * is seen), the balance check, the withdrawal row, the code used up, the hold journal
 * (cashback first, then rewards) and the confirmation mail. Requests of one member queue on the
 * rewards account's lock, on one instance or several, so none can overdraw.
 */
export async function requestWithdrawal(
  deps: WithdrawalDeps,
  member: Member,
  request: WithdrawalRequest,
): Promise<WithdrawalRequestOutcome> {
  const { userId } = member;
  const amountMicro = toScaled(parseField(usdtAmountSchema, request.amount), DECIMALS.usdt);
  const address = receivingAddress(request.address);

  const earlier = await findByRequestId(deps.db, userId, request.requestId);
  if (earlier) return replay(earlier, request, address, amountMicro);

  if (await isSuspended(deps, userId)) throw AppError.refused('withdrawalSuspended');
  const lockedUntil = await withdrawalLockedUntil(deps, userId);
  if (lockedUntil) throw AppError.refused('withdrawalLocked', { time: displayTime(lockedUntil) });
  const binding = await liveBindingOf(deps.db, request.platId, request.uid);
  if (!binding || binding.userId !== userId) throw AppError.refused('withdrawalUidNotBound');
  refuseUnlessOwnershipSettled(binding, deps.clock.now());
  if (await isUidFrozen(deps.db, request.platId, request.uid)) throw AppError.refused('withdrawalFrozen');
  refuseUnlessAmountAllowed(amountMicro);
  // Unlocked first look, so a balance too low is said before a code try is spent; the locked check
  // in the transaction below is the one that counts.
  const cashbackCode = accountCode.cashback(request.platId, request.uid);
  const rewardsCode = accountCode.rewards(userId);
  const firstLook = await balancesOf(deps.db, [cashbackCode, rewardsCode]);
  const firstHeld = await selectHeldInviteBonuses(deps.db, userId, deps.clock.now());
  refuseUnlessAmountAllowed(
    amountMicro,
    (firstLook.get(cashbackCode) ?? 0n) +
      usableRewards(firstLook.get(rewardsCode) ?? 0n, firstHeld.heldMicro),
  );
  const codeId = await checkOwnAddressCode(deps, member, request.code);
  const exchange = (await loadPartners(deps)).get(request.platId)?.name ?? String(request.platId);
  await checkpoint(deps, 'request:beforeTransaction');

  const outcome = await inMoneyTransaction(deps, async (tx) => {
    const now = deps.clock.now();
    // Lock in code order ('cashback:' < 'rewards:'), the order postJournal locks in: no deadlock.
    const cashback = await balanceOf(tx, cashbackCode, { forUpdate: true, at: now });
    const rewardsBalance = await balanceOf(tx, rewardsCode, { forUpdate: true, at: now });
    // A twin of this request that held the locks first has committed by now: answer its withdrawal.
    const twin = await findByRequestId(tx, userId, request.requestId);
    if (twin) return { twin };
    // The lock looked at above may have been set since (a password change or reset committing in
    // between): this look, with the user row held until commit, is the one that counts.
    const lockedNow = await withdrawalLockedUntilInTransaction(tx, userId, now);
    if (lockedNow) throw AppError.refused('withdrawalLocked', { time: displayTime(lockedNow) });
    // Likewise the binding: an operator's unbind (or the account's deletion) committing since the first
    // look must stop the request, or it would draw on a UID the member no longer holds.
    const held = await liveBindingOf(tx, request.platId, request.uid);
    if (!held || held.userId !== userId) throw AppError.refused('withdrawalUidNotBound');
    // And the dispute: one opened since the first look froze the UID (it takes the same account lock).
    refuseUnlessOwnershipSettled(held, now);
    if (await isUidFrozen(tx, request.platId, request.uid)) throw AppError.refused('withdrawalFrozen');

    // Invite bonuses still held for a friend's ownership check are not the member's to send yet.
    const heldBonuses = await selectHeldInviteBonuses(tx, userId, now);
    const rewards = usableRewards(rewardsBalance, heldBonuses.heldMicro);
    refuseUnlessAmountAllowed(amountMicro, cashback + rewards);
    // docs/withdrawals.md: a withdrawal draws first from the UID's cashback, then from rewards.
    const cashbackPart = amountMicro < cashback ? amountMicro : cashback;
    const rewardsPart = amountMicro - cashbackPart;

    const row = await insertWithdrawalUnlessExists(tx, {
      userId,
      requestId: request.requestId,
      platId: request.platId,
      uid: request.uid,
      address,
      amountMicro,
      cashbackMicro: cashbackPart,
      rewardsMicro: rewardsPart,
      createdAt: now,
    });
    if (!row) return { twin: await findByRequestId(tx, userId, request.requestId) };
    await checkpoint(deps, 'request:afterInsert');

    if (!(await useCode(tx, deps, codeId))) throw AppError.refused('codeInvalid');
    await checkpoint(deps, 'request:afterCode');

    await postHold(tx, row, now);
    await checkpoint(deps, 'request:afterHold');

    const contact = await memberContact(tx, userId);
    if (contact) {
      await enqueueMail(tx, deps, {
        template: 'withdrawalRequested',
        locale: contact.locale,
        to: contact.email,
        params: { ...mailParams(row, exchange, now), reviewHours: WITHDRAWAL.reviewHours },
        userId,
      });
    }
    // The operators hear of it with the request: same transaction, sent by the outbox after commit.
    await sendAlert(tx, deps, 'withdrawalRequested', {
      withdrawalId: row.id,
      memberId: userId,
      amount: displayUsdt(row.amountMicro),
      exchange,
      uid: row.uid,
      address: row.address,
      at: now.toISOString(),
    });
    await checkpoint(deps, 'request:afterMail');
    return { created: row };
  });

  if ('created' in outcome && outcome.created)
    return { withdrawal: toWithdrawal(outcome.created), created: true };
  const twin = 'twin' in outcome ? outcome.twin : undefined;
  if (!twin) throw new Error('a withdrawal request vanished');
  return replay(twin, request, address, amountMicro);
}

/** The contract's amount rule (the form says the same as the member types), as a refusal. */
function refuseUnlessAmountAllowed(amountMicro: bigint, withdrawableMicro?: bigint) {
  const problem = withdrawalAmountProblem(amountMicro, withdrawableMicro);
  if (problem) throw AppError.refused(problem.key, problem.values);
}

async function postHold(tx: Transaction, row: WithdrawalRow, at: Date) {
  const lines = [{ account: accountCode.hold(row.id), amount: row.amountMicro }];
  if (row.cashbackMicro > 0n) {
    lines.push({ account: accountCode.cashback(row.platId, row.uid), amount: -row.cashbackMicro });
  }
  if (row.rewardsMicro > 0n)
    lines.push({ account: accountCode.rewards(row.userId), amount: -row.rewardsMicro });
  try {
    await postJournal(tx, {
      kind: WITHDRAWAL_JOURNAL_KINDS.hold,
      key: journalKey(row.id, 'hold'),
      lines,
      at,
      memo: `withdrawal ${row.id} requested`,
    });
  } catch (error) {
    // The balance was checked under the same locks: this is the ledger's own guard speaking.
    if (error instanceof InsufficientBalanceError) {
      throw AppError.refused('withdrawalOverBalance', { available: displayUsdt(error.balance) });
    }
    throw error;
  }
}

/**
 * /elex/exchange/depositRecord: the member's withdrawals, newest first (the route adds each one's
 * payout progress from the payouts module, which sits above this one).
 */
export async function memberWithdrawals(
  deps: AppDeps,
  userId: number,
  query: { status?: WithdrawalStatus | undefined; page: number; pageSize: number },
): Promise<Omit<DepositRecordPage, 'records'> & { records: Withdrawal[] }> {
  const { rows, total } = await selectMemberPage(deps.db, userId, query);
  return { records: rows.map(toWithdrawal), total, page: query.page, pageSize: query.pageSize };
}
