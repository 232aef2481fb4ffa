import {
  type AdjustmentPage,
  type Correction,
  type CorrectionAccount,
  type CorrectionPage,
  type CorrectionStatus,
  DECIMALS,
  fromScaled,
  State,
  toScaled,
} from '@elex/contract';
import type { Transaction } from '../../db/client.js';
import { answerKind, keptPageForMember } from '../../db/member-answers.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { selectAdjustmentList } from '../../read-models/adjustment-list.js';
import { selectCorrectionPage } from '../../read-models/correction-list.js';
import { type AuditActor, confirmOperatorRole, recordAudit } from '../admin/audit.service.js';
import type { ActionContext } from '../admin/catalog.service.js';
import { findUserById, lockMemberRow } from '../auth/auth.service.js';
import { bindingHistoryOfUser, liveBindingOf } from '../bindings/bindings.service.js';
import { keepCheckForMember } from '../cashback/ingest.service.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import { accountCode, balanceOf, InsufficientBalanceError, postJournal } from '../ledger/ledger.service.js';
import {
  decideCorrection,
  findByRequest,
  insertCorrection,
  lockCorrection,
  sumPostedAtOnceSince,
} from './corrections.repository.js';
import type { CorrectionRow } from './corrections.tables.js';

/**
 * Corrections (docs/operator-console.md, "Corrections"): an operator credits or debits a member's
 * cashback (one UID) or rewards with a reason the member reads. Journal `correction:<id>` moves the
 * amount between the member's account and `adjustments`. Up to the approval threshold it posts at
 * once; above it a second operator approves (the proposer cannot). Every step is audited in its
 * transaction.
 */

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
/** The ledger's journal kind and key of a correction (ledger:check reads them too). */
const CORRECTION_JOURNAL_KIND = 'correction';
const correctionJournalKey = (id: number) => `correction:${id}`;

export interface ProposeInput {
  userId: number;
  account: CorrectionAccount;
  platId?: number | undefined;
  uid?: string | undefined;
  /** Signed USDT, as the contract checked it. */
  amount: string;
  reason: string;
  /** The console's id of this proposal: sent again, it answers the correction it made (one per proposer). */
  requestId?: string | undefined;
}

function signedMicro(amount: string): bigint {
  const negative = amount.startsWith('-');
  const micro = toScaled(amount.replace(/^[+-]/, ''), DECIMALS.usdt);
  return negative ? -micro : micro;
}

function toCorrection(row: CorrectionRow, memberEmail: string | null): Correction {
  return {
    id: row.id,
    userId: row.userId,
    memberEmail,
    account: row.account,
    platId: row.platId,
    uid: row.uid,
    accountCode: row.accountCode,
    amount: usdt(row.amountMicro),
    reason: row.reason,
    status: row.status,
    needsApproval: row.needsApproval,
    proposedBy: row.proposedBy,
    proposedById: row.proposedById,
    proposedAt: row.proposedAt.toISOString(),
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    rejectionReason: row.rejectionReason,
    postedAt: row.status === 'posted' ? (row.decidedAt?.toISOString() ?? null) : null,
  };
}

/** What the audit log keeps of a correction: the whole row, amounts as USDT strings. */
function snapshot(row: CorrectionRow) {
  return toCorrection(row, null);
}

/** The ledger's refusal in the operator's words: what the account holds now. */
function overdraft(balance: bigint): AppError {
  return AppError.refused('correctionOverdraft', { balance: usdt(balance < 0n ? 0n : balance) });
}

/**
 * Which account a proposal corrects: the member's rewards, or the cashback of a UID the member holds
 * now. A UID's balance is the UID's (docs/ledger.md): after an unbind or a dispute's move it is its
 * next holder's, so a correction of an ended binding would land on someone else's money.
 */
async function targetAccount(deps: AppDeps, input: ProposeInput) {
  const member = await findUserById(deps.db, input.userId);
  if (!member || member.deletedAt) throw new AppError(State.NotFound, 'memberNotFound');
  if (input.account === 'rewards') {
    return { platId: null, uid: null, code: accountCode.rewards(input.userId) };
  }
  if (input.platId === undefined || !input.uid) throw AppError.refused('correctionUidRequired');
  const bindings = await bindingHistoryOfUser(deps.db, input.userId);
  const bound = bindings.find((row) => row.platId === input.platId && row.uid === input.uid);
  if (!bound) throw AppError.refused('correctionUidNotMember');
  return { platId: bound.platId, uid: bound.uid, code: accountCode.cashback(bound.platId, bound.uid) };
}

/**
 * The same question in the booking's transaction, for a proposal and again at its approval: the
 * account locked first (an unbind, a dispute's move, a withdrawal and a deletion take it too), then the
 * member's row (one operator's proposals for a member, on any of their accounts, are counted in order),
 * then the member is still there and still holds the UID. Answers the account's balance.
 */
async function lockTarget(
  tx: Transaction,
  target: { userId: number; platId: number | null; uid: string | null; code: string },
  at: Date,
): Promise<bigint> {
  const balance = await balanceOf(tx, target.code, { forUpdate: true, at });
  const member = await lockMemberRow(tx, target.userId);
  if (!member || member.deletedAt) throw new AppError(State.NotFound, 'memberNotFound');
  if (target.platId !== null && target.uid !== null) {
    const holder = await liveBindingOf(tx, target.platId, target.uid);
    if (holder?.userId !== target.userId) throw AppError.refused('correctionUidEnded');
  }
  return balance;
}

/** Money of an operator's own is never theirs alone to correct (as their own withdrawal is not). */
function refuseOwnAccount(userId: number, actor: AuditActor) {
  if (actor.userId !== null && actor.userId === userId) throw AppError.refused('correctionOwnAccount');
}

/** How far back an operator's corrections for a member that posted at once count toward the threshold. */
const AT_ONCE_WINDOW_MS = 86_400_000;

/** Books the correction's journal and marks it posted, in the caller's transaction; audited. */
async function post(
  deps: AppDeps,
  tx: Transaction,
  context: ActionContext,
  pending: CorrectionRow,
): Promise<CorrectionRow> {
  const at = deps.clock.now();
  let journalId: number;
  try {
    ({ journalId } = await postJournal(tx, {
      kind: CORRECTION_JOURNAL_KIND,
      key: correctionJournalKey(pending.id),
      lines: [
        { account: pending.accountCode, amount: pending.amountMicro },
        { account: accountCode.adjustments, amount: -pending.amountMicro },
      ],
      at,
      memo: pending.reason,
    }));
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw overdraft(error.balance);
    throw error;
  }
  const posted = await decideCorrection(tx, pending.id, {
    status: 'posted',
    decidedById: context.actor.userId,
    decidedBy: context.actor.label,
    decidedAt: at,
    rejectionReason: null,
    journalId,
  });
  await recordAudit(tx, {
    actor: context.actor,
    action: 'correction.post',
    target: `correction:${pending.id}`,
    before: snapshot(pending),
    after: { ...snapshot(posted), journalId },
    at,
    requestId: context.requestId,
  });
  return posted;
}

/**
 * /elex/admin/corrections/propose: saves the correction and posts it at once when its absolute amount,
 * with what the same operator posted at once for the member in the last 24 hours, is within the
 * threshold; above it, it waits for a second operator. A debit that would take the account below
 * zero is refused either way (for a pending one, against today's balance: the approval checks again
 * under the account's lock). Refused for the operator's own money and for a UID the member no longer
 * holds.
 */
export async function proposeCorrection(
  deps: AppDeps,
  context: ActionContext,
  input: ProposeInput,
): Promise<Correction> {
  refuseOwnAccount(input.userId, context.actor);
  const target = await targetAccount(deps, input);
  const amountMicro = signedMicro(input.amount);
  const magnitude = amountMicro < 0n ? -amountMicro : amountMicro;
  const reason = input.reason.trim();
  const { requestId } = input;
  // A click sent again (the first's answer lost) answers the correction the first made; the same id
  // with other details is refused rather than answered with a correction the operator did not mean.
  const replay = (row: CorrectionRow) => {
    if (
      row.userId !== input.userId ||
      row.accountCode !== target.code ||
      row.amountMicro !== amountMicro ||
      row.reason !== reason
    ) {
      throw AppError.refused('correctionRequestReused');
    }
    return row;
  };
  const earlier = requestId ? await findByRequest(deps.db, context.actor.label, requestId) : undefined;
  const row = earlier
    ? replay(earlier)
    : await inMoneyTransaction(deps, (tx) => proposeUnderLocks(tx)).catch(async (error: unknown) => {
        // Two sends of one id for different members took different locks: the index let one in.
        if (!requestId || !isUniqueViolation(error)) throw error;
        const twin = await findByRequest(deps.db, context.actor.label, requestId);
        if (!twin) throw error;
        return replay(twin);
      });
  const member = await findUserById(deps.db, row.userId);
  return toCorrection(row, member?.email ?? null);

  async function proposeUnderLocks(tx: Transaction): Promise<CorrectionRow> {
    await confirmOperatorRole(tx, context.actor);
    const at = deps.clock.now();
    const balance = await lockTarget(tx, { userId: input.userId, ...target }, at);
    // A twin sent for the same member waited for these locks: it has committed by now.
    const twin = requestId ? await findByRequest(tx, context.actor.label, requestId) : undefined;
    if (twin) return replay(twin);
    // Slices do not add up to more than the threshold without a second operator: what this operator
    // posted at once for this member in the last 24 hours counts.
    const postedAtOnce =
      context.actor.userId === null
        ? 0n
        : await sumPostedAtOnceSince(tx, {
            userId: input.userId,
            proposedById: context.actor.userId,
            since: new Date(at.getTime() - AT_ONCE_WINDOW_MS),
          });
    const needsApproval = magnitude + postedAtOnce > deps.config.correctionApprovalMicro;
    if (needsApproval && amountMicro < 0n && balance + amountMicro < 0n) throw overdraft(balance);
    const proposed = await insertCorrection(tx, {
      userId: input.userId,
      account: input.account,
      platId: target.platId,
      uid: target.uid,
      accountCode: target.code,
      amountMicro,
      reason,
      status: 'pending',
      needsApproval,
      proposedById: context.actor.userId,
      proposedBy: context.actor.label,
      proposedAt: at,
      requestId: requestId ?? null,
    });
    await recordAudit(tx, {
      actor: context.actor,
      action: 'correction.propose',
      target: `correction:${proposed.id}`,
      before: null,
      after: snapshot(proposed),
      at,
      requestId: context.requestId,
    });
    return needsApproval ? proposed : post(deps, tx, context, proposed);
  }
}

function sameOperator(row: CorrectionRow, actor: AuditActor): boolean {
  if (row.proposedById !== null || actor.userId !== null) return row.proposedById === actor.userId;
  return row.proposedBy === actor.label;
}

async function lockPending(tx: Transaction, id: number): Promise<CorrectionRow> {
  const row = await lockCorrection(tx, id);
  if (!row) throw new AppError(State.NotFound, 'correctionNotFound');
  if (row.status !== 'pending') throw AppError.refused('correctionNotPending');
  return row;
}

/**
 * /elex/admin/corrections/approve: a second operator posts a pending correction. The row is locked
 * first, so of two approvals at once the second waits and then finds it posted (`correctionNotPending`);
 * the journal's key would book it once even so.
 */
export async function approveCorrection(
  deps: AppDeps,
  context: ActionContext,
  id: number,
): Promise<Correction> {
  const row = await inMoneyTransaction(deps, async (tx) => {
    await confirmOperatorRole(tx, context.actor);
    const pending = await lockPending(tx, id);
    if (sameOperator(pending, context.actor)) throw AppError.refused('correctionOwnApproval');
    refuseOwnAccount(pending.userId, context.actor);
    // The member or the UID may have gone since the proposal: checked again under the locks.
    await lockTarget(
      tx,
      { userId: pending.userId, platId: pending.platId, uid: pending.uid, code: pending.accountCode },
      deps.clock.now(),
    );
    await recordAudit(tx, {
      actor: context.actor,
      action: 'correction.approve',
      target: `correction:${id}`,
      before: snapshot(pending),
      after: { approvedBy: context.actor.label },
      at: deps.clock.now(),
      requestId: context.requestId,
    });
    return post(deps, tx, context, pending);
  });
  const member = await findUserById(deps.db, row.userId);
  return toCorrection(row, member?.email ?? null);
}

/**
 * /elex/admin/corrections/reject: any operator, the proposer too (withdrawing it); nothing is booked.
 * Not the member whose money it is: a clawback waiting for approval is not theirs to stop.
 */
export async function rejectCorrection(
  deps: AppDeps,
  context: ActionContext,
  input: { id: number; reason: string },
): Promise<Correction> {
  const row = await deps.db.transaction(async (tx) => {
    await confirmOperatorRole(tx, context.actor);
    const pending = await lockPending(tx, input.id);
    if (context.actor.userId !== null && pending.userId === context.actor.userId) {
      throw AppError.refused('correctionOwnDecision');
    }
    const at = deps.clock.now();
    const rejected = await decideCorrection(tx, input.id, {
      status: 'rejected',
      decidedById: context.actor.userId,
      decidedBy: context.actor.label,
      decidedAt: at,
      rejectionReason: input.reason.trim(),
      journalId: null,
    });
    await recordAudit(tx, {
      actor: context.actor,
      action: 'correction.reject',
      target: `correction:${input.id}`,
      before: snapshot(pending),
      after: snapshot(rejected),
      at,
      requestId: context.requestId,
    });
    return rejected;
  });
  const member = await findUserById(deps.db, row.userId);
  return toCorrection(row, member?.email ?? null);
}

/** /elex/admin/corrections/list: the approval queue (pending, oldest first) or the history. */
export async function listCorrections(
  deps: AppDeps,
  query: {
    status?: CorrectionStatus | undefined;
    userId?: number | undefined;
    page: number;
    pageSize: number;
  },
): Promise<CorrectionPage> {
  const { rows, total } = await selectCorrectionPage(
    deps.db,
    { status: query.status, userId: query.userId },
    { offset: (query.page - 1) * query.pageSize, limit: query.pageSize },
  );
  return {
    rows: rows.map((row) => toCorrection(row.correction, row.memberEmail)),
    total,
    page: query.page,
    pageSize: query.pageSize,
    approvalThreshold: usdt(deps.config.correctionApprovalMicro),
  };
}

/** An adjustment is ~200 bytes as JSON (its reason up to a few hundred more); 20,000 pages and 32 MiB at most per process. */
const ADJUSTMENT_PAGES = answerKind<AdjustmentPage>('seeAdjustments', 20_000, {
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (value) =>
    100 + value.records.reduce((sum, record) => sum + 150 + Buffer.byteLength(record.reason), 0),
});

type AdjustmentQuery = {
  account?: CorrectionAccount | undefined;
  platId?: number | undefined;
  uid?: string | undefined;
  page: number;
  pageSize: number;
};

/**
 * /elex/user/seeAdjustments: posted corrections of the member's rewards and of the UIDs bound now (a
 * UID's whole history, as its records, from its history's start after an earlier holder's deletion);
 * `platId` / `uid` narrow it to that exchange's UIDs or that UID (the records export of one exchange).
 * Pages 1 to 3 are kept in this process by member and request until the member changes: a correction
 * posted notifies the rewards' member or the UID's live holder and the UID (its ledger lines, 0028 and
 * 0055, and the corrections' own trigger, 0059_member_notify_support); a binding added, ended or
 * moved, and an earlier holder's binding (where the history starts), notify through the bindings'
 * trigger. Filed under the member's live UIDs (`keepCheckForMember`): a correction whose statement ran
 * before the member bound its UID evicts it at its commit. No clock, language or configuration in it.
 * Kept values are frozen.
 */
export async function memberAdjustments(
  deps: AppDeps,
  userId: number,
  query: AdjustmentQuery,
): Promise<AdjustmentPage> {
  return keptPageForMember(
    deps.memberAnswers,
    ADJUSTMENT_PAGES,
    userId,
    {
      page: query.page,
      pageSize: query.pageSize,
      filter: [query.account ?? null, query.platId ?? null, query.uid ?? null],
    },
    () => readMemberAdjustments(deps, userId, query),
    { keepable: () => keepCheckForMember(deps.db, userId) },
  );
}

async function readMemberAdjustments(
  deps: AppDeps,
  userId: number,
  query: AdjustmentQuery,
): Promise<AdjustmentPage> {
  const filter = { account: query.account, platId: query.platId, uid: query.uid };
  const { rows, total } = await selectAdjustmentList(deps.db, userId, filter, {
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  const records = rows.map((row) =>
    Object.freeze({
      id: String(row.id),
      account: row.account,
      platId: row.platId,
      uid: row.uid,
      amount: usdt(row.amountMicro),
      reason: row.reason,
      postedAt: row.decidedAt.toISOString(),
    }),
  );
  return Object.freeze({
    records: Object.freeze(records),
    total,
    page: query.page,
    pageSize: query.pageSize,
  }) as AdjustmentPage;
}
