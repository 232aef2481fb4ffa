import {
  type AdminBinding,
  DECIMALS,
  fromScaled,
  type MemberDetail,
  type MemberLedgerPage,
  type MemberSearchPage,
  type MemberSummary,
  State,
} from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { searchMemberRows, selectLedgerLinePage } from '../../read-models/console-reports.js';
import { findUserById } from '../auth/auth.service.js';
import type { UserRow } from '../auth/auth.tables.js';
import { liftUserWithdrawalLock, reinstateUser, suspendUser } from '../auth/suspension.js';
import {
  bindingHistoryOfUser,
  type ExchangeBindingRow,
  liveBindingOf,
  unbindUid,
} from '../bindings/bindings.service.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import { accountCode, balanceOf, balancesOf } from '../ledger/ledger.service.js';
import { countUnderReviewOfUid } from '../withdrawals/under-review.js';
import { findOperatorRow, selectAuditPage } from './admin.repository.js';
import { confirmOperatorRole, recordAudit } from './audit.service.js';
import type { ActionContext } from './catalog.service.js';

/** The members page: search, a member's bindings, balances and ledger, unbinding a disputed UID. */

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

function toSummary(user: UserRow, isOperator: boolean, liveBindings: number): MemberSummary {
  return {
    userId: user.id,
    email: user.email,
    userCode: user.userCode,
    inviteCode: user.inviteCode,
    createdAt: user.createdAt.toISOString(),
    deletedAt: user.deletedAt?.toISOString() ?? null,
    isOperator,
    liveBindings,
    suspendedAt: user.suspendedAt?.toISOString() ?? null,
  };
}

/** /elex/admin/searchMembers: by part of the e-mail, the user or invite code, or a UID ever bound. */
export async function searchMembers(
  deps: AppDeps,
  query: { query: string; suspendedOnly: boolean; page: number; pageSize: number },
): Promise<MemberSearchPage> {
  const { rows, total } = await searchMemberRows(deps.db, {
    text: query.query,
    suspendedOnly: query.suspendedOnly,
    page: query.page,
    pageSize: query.pageSize,
  });
  return {
    rows: rows.map((row) => toSummary(row.user, row.isOperator, row.liveBindings)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function findMember(deps: AppDeps, userId: number): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError(State.NotFound, 'memberNotFound');
  return user;
}

/** /elex/admin/memberDetail: who, every binding (live and ended) with its UID's balance, balances. */
export async function memberDetail(deps: AppDeps, userId: number): Promise<MemberDetail> {
  const user = await findMember(deps, userId);
  const bindingRows = await bindingHistoryOfUser(deps.db, userId);
  const codes = bindingRows.map((row) => accountCode.cashback(row.platId, row.uid));
  const rewardsCode = accountCode.rewards(userId);
  const balances = await balancesOf(deps.db, [...codes, rewardsCode]);
  const bindings: AdminBinding[] = bindingRows.map((row) => ({
    platId: row.platId,
    uid: row.uid,
    address: row.address,
    boundAt: row.boundAt.toISOString(),
    unboundAt: row.unboundAt?.toISOString() ?? null,
    unbindReason: row.unbindReason,
    balance: usdt(balances.get(accountCode.cashback(row.platId, row.uid)) ?? 0n),
  }));
  const live = bindingRows.filter((row) => row.unboundAt === null);
  const cashback = live.reduce(
    (sum, row) => sum + (balances.get(accountCode.cashback(row.platId, row.uid)) ?? 0n),
    0n,
  );
  return {
    member: {
      ...toSummary(user, Boolean(await findOperatorRow(deps.db, userId)), live.length),
      inviterId: user.inviterId,
      locale: user.locale,
      withdrawalLockedUntil: user.withdrawalLockedUntil?.toISOString() ?? null,
      suspension: user.suspendedAt
        ? {
            at: user.suspendedAt.toISOString(),
            reason: user.suspensionReason ?? '',
            by:
              user.suspendedBy === null
                ? null
                : ((await findUserById(deps.db, user.suspendedBy))?.email ?? null),
          }
        : null,
      lockLifted: await lastLockLifted(deps, userId),
    },
    bindings,
    balances: { rewards: usdt(balances.get(rewardsCode) ?? 0n), cashback: usdt(cashback) },
  };
}

/**
 * /elex/admin/memberLedger: lines of the member's rewards account and of the cashback accounts of every
 * UID the member ever bound, newest first. A UID no longer bound to the member (unbound by an operator,
 * ended with the account) keeps its history here, each of its lines marked `bindingEnded`: the
 * account is the UID's, so it shows the whole of it, later owners' lines included.
 */
export async function memberLedger(
  deps: AppDeps,
  query: { userId: number; page: number; pageSize: number },
): Promise<MemberLedgerPage> {
  await findMember(deps, query.userId);
  const bindings = await bindingHistoryOfUser(deps.db, query.userId);
  const liveCodes = new Set(
    bindings.filter((row) => row.unboundAt === null).map((row) => accountCode.cashback(row.platId, row.uid)),
  );
  const everCodes = new Set(bindings.map((row) => accountCode.cashback(row.platId, row.uid)));
  const codes = [accountCode.rewards(query.userId), ...everCodes];
  const { rows, total } = await selectLedgerLinePage(deps.db, codes, query);
  return {
    rows: rows.map((row) => ({
      bindingEnded: everCodes.has(row.account) && !liveCodes.has(row.account),
      lineId: row.lineId,
      at: row.at.toISOString(),
      kind: row.kind,
      memo: row.memo,
      account: row.account,
      amount: usdt(row.amount),
      balanceAfter: usdt(row.balanceAfter),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

function bindingSnapshot(row: ExchangeBindingRow, balanceMicro: bigint) {
  return {
    userId: row.userId,
    platId: row.platId,
    uid: row.uid,
    address: row.address,
    boundAt: row.boundAt.toISOString(),
    unboundAt: row.unboundAt?.toISOString() ?? null,
    unbindReason: row.unbindReason,
    unboundBy: row.unboundBy,
    balance: usdt(balanceMicro),
  };
}

/**
 * /elex/admin/unbindUid: ends a disputed binding of the member the operator is looking at, with the
 * operator's reason. The UID's cashback stays on its ledger account (`cashback:<platId>:<uid>`) for its
 * next binding; nothing moves. Under the UID's account lock (so no withdrawal of the UID is requested
 * or paid meanwhile), and refused while a withdrawal of the UID is under review, as a dispute's move
 * is: its cashback part would return to the account after the unbind, that is to the UID's next
 * holder. Refused ('unbindHolderChanged') when someone else holds the UID by now (a move, or an unbind
 * and a new binding, since the operator's page loaded): that member's binding is not the one reviewed.
 * Never the operator's own binding (`unbindOwnAccount`): as for a dispute about it, another operator decides.
 */
export async function unbindMemberUid(
  deps: AppDeps,
  context: ActionContext,
  input: { userId: number; platId: number; uid: string; reason: string },
): Promise<AdminBinding> {
  if (context.actor.userId === input.userId) throw AppError.refused('unbindOwnAccount');
  return inMoneyTransaction(deps, async (tx) => {
    await confirmOperatorRole(tx, context.actor);
    const at = deps.clock.now();
    // The holder read under the UID's account lock, which a move, a deletion and another unbind take:
    // the binding checked and recorded below is the one ended.
    await balanceOf(tx, accountCode.cashback(input.platId, input.uid), { forUpdate: true, at });
    const before = await liveBindingOf(tx, input.platId, input.uid);
    if (!before) throw AppError.refused('uidNotBound');
    if (before.userId !== input.userId) throw AppError.refused('unbindHolderChanged');
    if ((await countUnderReviewOfUid(tx, input.platId, input.uid)) > 0) {
      throw AppError.refused('supportWithdrawalUnderReview');
    }
    const after = await unbindUid(tx, {
      platId: input.platId,
      uid: input.uid,
      reason: input.reason,
      operatorId: context.actor.userId,
      at,
      holderId: input.userId,
    });
    if (!after) throw AppError.refused('uidNotBound');
    const balance = await balanceOf(tx, accountCode.cashback(input.platId, input.uid));
    await recordAudit(tx, {
      actor: context.actor,
      action: 'binding.unbind',
      target: `binding:${input.platId}:${input.uid}`,
      before: bindingSnapshot(before, balance),
      after: bindingSnapshot(after, balance),
      at,
      requestId: context.requestId,
    });
    return {
      platId: after.platId,
      uid: after.uid,
      address: after.address,
      boundAt: after.boundAt.toISOString(),
      unboundAt: after.unboundAt?.toISOString() ?? null,
      unbindReason: after.unbindReason,
      balance: usdt(balance),
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Suspension and the withdrawal lock (issue 12, docs/accounts.md "Suspension")

const LOCK_LIFTED = 'member.liftWithdrawalLock';

/** The last lift of the member's withdrawal lock, read from the audit log (its one record). */
async function lastLockLifted(deps: AppDeps, userId: number): Promise<MemberDetail['member']['lockLifted']> {
  const { rows } = await selectAuditPage(deps.db, {
    action: LOCK_LIFTED,
    target: `user:${userId}`,
    page: 1,
    pageSize: 1,
  });
  const entry = rows[0];
  if (!entry) return null;
  const after = (entry.after ?? {}) as { reason?: string };
  const before = (entry.before ?? {}) as { withdrawalLockedUntil?: string };
  return {
    at: entry.at.toISOString(),
    reason: after.reason ?? '',
    by: entry.actor,
    lockedUntil: before.withdrawalLockedUntil ?? null,
  };
}

const suspensionOf = (user: UserRow) => ({
  suspendedAt: user.suspendedAt?.toISOString() ?? null,
  suspensionReason: user.suspensionReason,
  suspendedBy: user.suspendedBy,
});

/**
 * /elex/admin/suspendMember: no login, no withdrawal, every session ended, in one transaction with
 * the audit entry. An operator cannot be suspended (an operator could lock the console out).
 */
export async function suspendMember(
  deps: AppDeps,
  context: ActionContext,
  input: { userId: number; reason: string },
): Promise<MemberDetail> {
  await deps.db.transaction(async (tx) => {
    const at = deps.clock.now();
    const { before, after } = await suspendUser(tx, {
      userId: input.userId,
      reason: input.reason,
      operatorId: context.actor.userId,
      at,
    });
    // Asked with the member's row locked (suspendUser), which a grant locks too: a grant committed
    // meanwhile is seen here, and a later one sees the suspension and is refused.
    if (await findOperatorRow(tx, input.userId)) throw AppError.refused('operatorNotSuspendable');
    await recordAudit(tx, {
      actor: context.actor,
      action: 'member.suspend',
      target: `user:${input.userId}`,
      before: suspensionOf(before),
      after: { ...suspensionOf(after), reason: input.reason },
      at,
      requestId: context.requestId,
    });
  });
  return memberDetail(deps, input.userId);
}

/** /elex/admin/reinstateMember: the member can log in and withdraw again; the reason is audited. */
export async function reinstateMember(
  deps: AppDeps,
  context: ActionContext,
  input: { userId: number; reason: string },
): Promise<MemberDetail> {
  await deps.db.transaction(async (tx) => {
    const { before, after } = await reinstateUser(tx, input.userId);
    await recordAudit(tx, {
      actor: context.actor,
      action: 'member.reinstate',
      target: `user:${input.userId}`,
      before: suspensionOf(before),
      after: { ...suspensionOf(after), reason: input.reason },
      at: deps.clock.now(),
      requestId: context.requestId,
    });
  });
  return memberDetail(deps, input.userId);
}

/**
 * /elex/admin/liftWithdrawalLock: the 72 h lock after a password change or reset ends now. Never by
 * the member themselves: the lock guards a password taken over, so an operator's own is another
 * operator's to lift (as their own withdrawal and corrections are).
 */
export async function liftWithdrawalLock(
  deps: AppDeps,
  context: ActionContext,
  input: { userId: number; reason: string },
): Promise<MemberDetail> {
  if (context.actor.userId === input.userId) throw AppError.refused('withdrawalLockOwnAccount');
  await deps.db.transaction(async (tx) => {
    await confirmOperatorRole(tx, context.actor);
    const at = deps.clock.now();
    const lockedUntil = await liftUserWithdrawalLock(tx, input.userId, at);
    await recordAudit(tx, {
      actor: context.actor,
      action: LOCK_LIFTED,
      target: `user:${input.userId}`,
      before: { withdrawalLockedUntil: lockedUntil.toISOString() },
      after: { withdrawalLockedUntil: null, reason: input.reason },
      at,
      requestId: context.requestId,
    });
  });
  return memberDetail(deps, input.userId);
}
