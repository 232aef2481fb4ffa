import {
  type AdminSupportDetail,
  type AdminSupportList,
  type AdminSupportListRequestSchema,
  type CreateSupportRequest,
  DECIMALS,
  fromScaled,
  State,
  SUPPORT,
  type SupportDetail,
  type SupportImage,
  type SupportList,
  type SupportRequestSummary,
  type SupportResolution,
  type SupportUidState,
  UID_SUPPORT_KINDS,
} from '@elex/contract';
import type { z } from 'zod';
import type { Executor, Transaction } from '../../db/client.js';
import { answerKind, keptPageForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { selectHolderInviterBonuses } from '../../read-models/holder-inviter-bonuses.js';
import { recordAudit, recordAuditAsHappened } from '../admin/audit.service.js';
import type { ActionContext } from '../admin/catalog.service.js';
import { lockMemberRow, memberContact, memberIdentities, refuseDeletedMember } from '../auth/auth.service.js';
import {
  confirmOwnership,
  disputedMemberOf,
  liveBindingOf,
  moveBinding as moveUidBinding,
  ownershipHeldUntil,
} from '../bindings/bindings.service.js';
import { registrationOf } from '../cashback/ingest.service.js';
import { loadPartners } from '../cashback/partners.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import { accountCode, balanceOf, balancesOf } from '../ledger/ledger.service.js';
import { enqueueMail } from '../mail/outbox.js';
import type { UidDisputeEvent } from '../mail/templates.js';
import { countUnderReviewOfUid } from '../withdrawals/under-review.js';
import { isUidFrozen } from './frozen.js';
import {
  countOpenOfUser,
  findOpenOfUserAbout,
  findRequest,
  insertImage,
  insertMessage,
  insertRequest,
  lockOpenOfUser,
  lockRequest,
  lockRequestsOfMember,
  selectRequestPage,
  selectThread,
  updateRequest,
} from './support.repository.js';

export { eraseImagesOfRequestsClosedBefore } from './support.repository.js';

import type { SupportRequestRow } from './support.tables.js';

/** Support requests and UID disputes (issue 11, docs/support.md). */

type AdminSupportQuery = z.output<typeof AdminSupportListRequestSchema>;
type CreateInput = Omit<CreateSupportRequest, 'platId'> & { platId?: number | undefined };

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);

/** The first bytes each accepted image type starts with: the declared type must be the real one. */
function isImageOfType(bytes: Buffer, contentType: SupportImage['contentType']): boolean {
  if (contentType === 'image/png') return bytes.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'));
  if (contentType === 'image/jpeg') return bytes.subarray(0, 3).equals(Buffer.from('ffd8ff', 'hex'));
  return (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  );
}

function decodeImage(image: SupportImage): { contentType: string; bytes: Buffer } {
  const bytes = Buffer.from(image.data, 'base64');
  if (bytes.length > SUPPORT.maxImageBytes) throw AppError.refused('supportImageTooLarge');
  if (bytes.length === 0 || !isImageOfType(bytes, image.contentType))
    throw AppError.refused('supportImageType');
  return { contentType: image.contentType, bytes };
}

function summaryOf(row: SupportRequestRow): SupportRequestSummary {
  return {
    id: String(row.id),
    kind: row.kind as SupportRequestSummary['kind'],
    platId: row.platId,
    uid: row.uid,
    status: row.status as SupportRequestSummary['status'],
    resolution: (row.resolution as SupportResolution | null) ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function addMessage(
  tx: Transaction,
  deps: AppDeps,
  input: { requestId: number; operatorId: number | null; text: string; image?: SupportImage | undefined },
) {
  const now = deps.clock.now();
  const imageId = input.image
    ? await insertImage(tx, { requestId: input.requestId, ...decodeImage(input.image), createdAt: now })
    : null;
  await insertMessage(tx, {
    requestId: input.requestId,
    author: input.operatorId === null ? 'member' : 'operator',
    operatorId: input.operatorId,
    text: input.text,
    imageId,
    createdAt: now,
  });
}

// ---------------------------------------------------------------------------------------------------
// Member calls

/**
 * /elex/support/create. A dispute ('uidBoundByOther') needs the UID bound to someone else; it takes
 * the UID's cashback account lock, so from its commit no withdrawal of the UID is requested or paid
 * (both check under that lock). 'ownership' needs the UID bound to the caller.
 */
export async function createSupportRequest(
  deps: AppDeps,
  userId: number,
  input: CreateInput,
): Promise<SupportRequestSummary> {
  if (input.image) decodeImage(input.image);
  const about =
    UID_SUPPORT_KINDS.includes(input.kind) && input.platId !== undefined && input.uid !== undefined
      ? { platId: input.platId, uid: input.uid }
      : null;
  // Read before the transaction (on PGlite a query outside it would wait for it): the holder's mail names it.
  const exchange = about && (await loadPartners(deps)).get(about.platId)?.name;
  if (about && !exchange) throw new AppError(State.NotFound, 'exchangeNotFound');
  const row = await inMoneyTransaction(deps, async (tx) => {
    const now = deps.clock.now();
    // First, as the deletion's sweep of the member's requests takes it (found in review, 2026-11-29:
    // a request inserted while the member's deletion ran stayed open, a dispute freezing the holder's
    // UID for nobody). A deletion that committed since the session was checked is seen now: refused
    // as a lost session; one that comes later waits and then closes this request with the others.
    await lockRequestsOfMember(tx, userId);
    await refuseDeletedMember(tx, userId);
    let holder: Awaited<ReturnType<typeof liveBindingOf>>;
    if (about) {
      // The UID's account lock first (the order withdrawals take it in), then the rules under it.
      await balanceOf(tx, accountCode.cashback(about.platId, about.uid), { forUpdate: true, at: now });
      holder = await liveBindingOf(tx, about.platId, about.uid);
      if (input.kind === 'uidBoundByOther' && (!holder || holder.userId === userId)) {
        throw AppError.refused('supportUidNotBoundToOther');
      }
      if (input.kind === 'ownership' && holder?.userId !== userId)
        throw AppError.refused('supportUidNotYours');
      if (await findOpenOfUserAbout(tx, { userId, kind: input.kind, ...about })) {
        throw AppError.refused('supportDisputeOpen');
      }
    }
    if ((await countOpenOfUser(tx, userId)) >= SUPPORT.maxOpenPerMember) {
      throw AppError.refused('supportTooManyOpen');
    }
    const request = await insertRequest(tx, {
      userId,
      kind: input.kind,
      platId: about?.platId ?? null,
      uid: about?.uid ?? null,
      address: input.kind === 'uidBoundByOther' ? (input.address ?? null) : null,
      bindingId: input.kind === 'uidBoundByOther' ? (holder?.id ?? null) : null,
      createdAt: now,
    });
    await addMessage(tx, deps, {
      requestId: request.id,
      operatorId: null,
      text: input.text,
      image: input.image,
    });
    if (about && exchange && input.kind === 'uidBoundByOther') {
      if (holder) {
        await mailHolder(tx, deps, { ...about, exchange, holderId: holder.userId, event: 'opened' });
      }
    }
    return request;
  });
  return summaryOf(row);
}

/** A summary is ~250 bytes as JSON; 20,000 pages and 16 MiB at most per process. */
const SUPPORT_PAGES = answerKind<SupportList>('supportList', 20_000, {
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (value) => 100 + value.records.length * 250,
});

/**
 * /elex/support/list: the member's requests, newest activity first. Pages 1 to 3 are kept in this
 * process by member and request until the member changes: a request opened, replied to (by the
 * member or an operator), decided, closed, deleted or changed by hand in a column the list shows
 * notifies its member (migration 0059_member_notify_support). Nothing in it depends on the clock, the
 * member's language or configuration. Kept values are frozen.
 */
export async function listOwnRequests(
  deps: AppDeps,
  userId: number,
  query: { page: number; pageSize: number },
): Promise<SupportList> {
  return keptPageForMember(
    deps.memberAnswers,
    SUPPORT_PAGES,
    userId,
    { page: query.page, pageSize: query.pageSize, filter: [] },
    () => readOwnRequests(deps, userId, query),
  );
}

async function readOwnRequests(
  deps: AppDeps,
  userId: number,
  query: { page: number; pageSize: number },
): Promise<SupportList> {
  const { rows, total } = await selectRequestPage(
    deps.db,
    { userId },
    { offset: (query.page - 1) * query.pageSize, limit: query.pageSize },
  );
  return Object.freeze({
    records: Object.freeze(rows.map((row) => Object.freeze(summaryOf(row)))),
    total,
    page: query.page,
    pageSize: query.pageSize,
  }) as SupportList;
}

async function detailOf(deps: AppDeps, row: SupportRequestRow): Promise<SupportDetail> {
  const thread = await selectThread(deps.db, row.id);
  return {
    ...summaryOf(row),
    address: row.address,
    messages: thread.map((message) => ({
      id: String(message.id),
      author: message.author as 'member' | 'operator',
      text: message.text,
      image:
        message.image && message.image !== 'erased'
          ? `data:${message.image.contentType};base64,${message.image.bytes.toString('base64')}`
          : null,
      imageErased: message.image === 'erased',
      createdAt: message.createdAt.toISOString(),
    })),
  };
}

/** A request of the member's; anyone else's, or none, is 'not found'. */
async function ownRequest(deps: AppDeps, userId: number, id: number): Promise<SupportRequestRow> {
  const row = await findRequest(deps.db, id);
  if (!row || row.userId !== userId) throw new AppError(State.NotFound, 'notFound');
  return row;
}

export async function ownRequestDetail(deps: AppDeps, userId: number, id: number): Promise<SupportDetail> {
  return detailOf(deps, await ownRequest(deps, userId, id));
}

/** /elex/support/reply: the member writes again; an answered request is open again. */
export async function replyToOwnRequest(
  deps: AppDeps,
  userId: number,
  input: { id: number; text: string; image?: SupportImage | undefined },
): Promise<SupportDetail> {
  await ownRequest(deps, userId, input.id);
  if (input.image) decodeImage(input.image);
  const row = await deps.db.transaction(async (tx) => {
    const locked = await lockRequest(tx, input.id);
    if (!locked || locked.userId !== userId) throw new AppError(State.NotFound, 'notFound');
    if (locked.status === 'closed') throw AppError.refused('supportClosed');
    await addMessage(tx, deps, {
      requestId: input.id,
      operatorId: null,
      text: input.text,
      image: input.image,
    });
    return updateRequest(tx, input.id, { status: 'open', updatedAt: deps.clock.now() });
  });
  return detailOf(deps, row);
}

// ---------------------------------------------------------------------------------------------------
// Console

export async function adminListRequests(
  deps: AppDeps,
  query: {
    status?: AdminSupportQuery['status'];
    kind?: AdminSupportQuery['kind'];
    page: number;
    pageSize: number;
  },
): Promise<AdminSupportList> {
  const { rows, total } = await selectRequestPage(
    deps.db,
    {
      ...(query.status === 'active'
        ? { statuses: ['open', 'answered'] }
        : query.status
          ? { status: query.status }
          : {}),
      ...(query.kind ? { kind: query.kind } : {}),
    },
    { offset: (query.page - 1) * query.pageSize, limit: query.pageSize },
  );
  const members = await memberIdentities(
    deps.db,
    rows.map((row) => row.userId),
  );
  return {
    rows: rows.map((row) => ({
      ...summaryOf(row),
      userId: row.userId,
      email: members.get(row.userId)?.email ?? null,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function uidStateOf(deps: AppDeps, platId: number, uid: string): Promise<SupportUidState> {
  const now = deps.clock.now();
  const holder = await liveBindingOf(deps.db, platId, uid);
  const code = accountCode.cashback(platId, uid);
  const balance = (await balancesOf(deps.db, [code])).get(code) ?? 0n;
  const holderEmail = holder
    ? ((await memberIdentities(deps.db, [holder.userId])).get(holder.userId)?.email ?? null)
    : null;
  const registeredAt = await registrationOf(deps.db, platId, uid);
  return {
    platId,
    uid,
    holder: holder
      ? {
          userId: holder.userId,
          email: holderEmail,
          boundAt: holder.boundAt.toISOString(),
          heldUntil: ownershipHeldUntil(holder, now)?.toISOString() ?? null,
          ownershipVerifiedAt: holder.ownershipVerifiedAt?.toISOString() ?? null,
        }
      : null,
    balance: usdt(balance),
    registeredAt: registeredAt?.toISOString() ?? null,
    frozen: await isUidFrozen(deps.db, platId, uid),
    withdrawalsUnderReview: await countUnderReviewOfUid(deps.db, platId, uid),
    holderInviterBonuses: holder
      ? await inviterBonusesOf(deps.db, {
          platId,
          uid,
          friendId: holder.userId,
          since: holder.boundAt,
          bindingId: holder.id,
        })
      : [],
  };
}

/** The bonuses the UID's records paid the holder's (live) inviter during this binding, with their e-mail. */
async function inviterBonusesOf(
  db: Executor,
  query: { platId: number; uid: string; friendId: number; since: Date; bindingId: number },
): Promise<SupportUidState['holderInviterBonuses']> {
  const bonuses = await selectHolderInviterBonuses(db, query);
  const identities = await memberIdentities(
    db,
    bonuses.map((bonus) => bonus.inviterId),
  );
  return bonuses.map((bonus) => ({
    inviterId: bonus.inviterId,
    email: identities.get(bonus.inviterId)?.email ?? null,
    amount: usdt(bonus.amountMicro),
  }));
}

export async function adminRequestDetail(deps: AppDeps, id: number): Promise<AdminSupportDetail> {
  const row = await findRequest(deps.db, id);
  if (!row) throw new AppError(State.NotFound, 'notFound');
  const email = (await memberIdentities(deps.db, [row.userId])).get(row.userId)?.email ?? null;
  return {
    ...(await detailOf(deps, row)),
    userId: row.userId,
    email,
    closedBy: row.closedBy,
    uidState: row.platId !== null && row.uid !== null ? await uidStateOf(deps, row.platId, row.uid) : null,
  };
}

/** Locks a request that is not closed yet, for an operator's decision. */
async function lockOpenRequest(tx: Transaction, id: number): Promise<SupportRequestRow> {
  const row = await lockRequest(tx, id);
  if (!row) throw new AppError(State.NotFound, 'notFound');
  if (row.status === 'closed') throw AppError.refused('supportClosed');
  return row;
}

/** The member hears of every answer and decision by mail, in their language, with a link to the thread. */
async function mailMember(
  tx: Transaction,
  deps: AppDeps,
  row: SupportRequestRow,
  outcome: { text: string | null; resolution: SupportResolution | null },
) {
  const contact = await memberContact(tx, row.userId);
  if (!contact) return;
  await enqueueMail(tx, deps, {
    template: 'supportAnswered',
    locale: contact.locale,
    to: contact.email,
    params: {
      requestId: row.id,
      kind: row.kind as SupportRequestSummary['kind'],
      uid: row.uid,
      text: outcome.text,
      resolution: outcome.resolution,
    },
    userId: row.userId,
  });
}

/**
 * The member who holds a disputed UID hears that it is frozen, and how each dispute of it ends, so
 * they can answer with their own evidence (docs/support.md). Never who disputed it.
 */
async function mailHolder(
  tx: Transaction,
  deps: AppDeps,
  notice: { platId: number; uid: string; exchange: string; holderId: number; event: UidDisputeEvent },
) {
  const contact = await memberContact(tx, notice.holderId);
  if (!contact) return;
  await enqueueMail(tx, deps, {
    template: 'uidDisputeNotice',
    locale: contact.locale,
    to: contact.email,
    params: {
      exchange: notice.exchange,
      platId: notice.platId,
      uid: notice.uid,
      event: notice.event,
      // Read after this request closed: another open dispute keeps the UID frozen.
      stillFrozen: notice.event !== 'opened' && (await isUidFrozen(tx, notice.platId, notice.uid)),
    },
    userId: notice.holderId,
  });
}

const exchangeName = (partners: ReadonlyMap<number, { name: string }>, platId: number) =>
  partners.get(platId)?.name ?? `#${platId}`;

/**
 * A member deleting the account withdraws their open requests: each is closed (no operator), audited
 * under the deletion, and a dispute's holder is told its freeze ended (or that another still holds
 * it). Otherwise a dispute of a member who left would freeze the holder's UID until an operator
 * noticed, and a move could hand the UID to the deleted account. In the deletion's transaction and
 * before its ledger locks: a move or a confirmation takes the request's row first too, so one of them
 * decides first and the other sees it.
 */
export async function closeRequestsOfLeavingMember(
  tx: Transaction,
  deps: AppDeps,
  input: { userId: number; at: Date; exchangeName(platId: number): string },
): Promise<number> {
  // Before the requests: one being opened now commits first (and is found here) or waits for the
  // deletion and is refused (createSupportRequest).
  await lockRequestsOfMember(tx, input.userId);
  const open = await lockOpenOfUser(tx, input.userId);
  for (const row of open) {
    await updateRequest(tx, row.id, {
      status: 'closed',
      resolution: 'closed',
      closedAt: input.at,
      closedBy: null,
      updatedAt: input.at,
    });
    const holder =
      row.kind === 'uidBoundByOther' && row.platId !== null && row.uid !== null
        ? await liveBindingOf(tx, row.platId, row.uid)
        : undefined;
    if (holder && row.platId !== null && row.uid !== null && holder.userId !== row.userId) {
      await mailHolder(tx, deps, {
        platId: row.platId,
        uid: row.uid,
        exchange: input.exchangeName(row.platId),
        holderId: holder.userId,
        event: 'closed',
      });
    }
    // The member's own deletion, no operator's action: no role to ask.
    await recordAuditAsHappened(tx, {
      actor: { userId: input.userId, label: 'accountDeletion' },
      action: 'support.close',
      target: `support:${row.id}`,
      before: { status: row.status },
      after: { status: 'closed', resolution: 'closed', reason: 'accountDeleted' },
      at: input.at,
      requestId: null,
    });
  }
  return open.length;
}

/** /elex/admin/support/reply: the operator answers; the member is mailed. */
export async function adminReply(
  deps: AppDeps,
  context: ActionContext,
  input: { id: number; text: string },
): Promise<AdminSupportDetail> {
  const operatorId = requireOperatorId(context);
  await deps.db.transaction(async (tx) => {
    const row = await lockOpenRequest(tx, input.id);
    await addMessage(tx, deps, { requestId: row.id, operatorId, text: input.text });
    const after = await updateRequest(tx, row.id, { status: 'answered', updatedAt: deps.clock.now() });
    await mailMember(tx, deps, after, { text: input.text, resolution: null });
    await recordAudit(tx, {
      actor: context.actor,
      action: 'support.reply',
      target: `support:${row.id}`,
      before: { status: row.status },
      after: { status: after.status, text: input.text },
      at: deps.clock.now(),
      requestId: context.requestId,
    });
  });
  return adminRequestDetail(deps, input.id);
}

function requireOperatorId(context: ActionContext): number {
  if (context.actor.userId === null) throw new AppError(State.Forbidden, 'forbidden');
  return context.actor.userId;
}

async function closeRequest(
  tx: Transaction,
  deps: AppDeps,
  context: ActionContext,
  row: SupportRequestRow,
  outcome: {
    resolution: SupportResolution;
    text: string | null;
    /**
     * A dispute's decision: the member who held the UID when it was decided is told too, naming the
     * exchange (read before the transaction: on PGlite a query outside it would wait for it).
     */
    holder?: { userId: number; exchange: string } | undefined;
    audit: {
      action: 'support.close' | 'support.moveBinding' | 'support.verifyOwnership';
      before?: unknown;
      after?: unknown;
    };
  },
) {
  const operatorId = requireOperatorId(context);
  const now = deps.clock.now();
  if (outcome.text) await addMessage(tx, deps, { requestId: row.id, operatorId, text: outcome.text });
  const after = await updateRequest(tx, row.id, {
    status: 'closed',
    resolution: outcome.resolution,
    closedAt: now,
    closedBy: operatorId,
    updatedAt: now,
  });
  await mailMember(tx, deps, after, { text: outcome.text, resolution: outcome.resolution });
  if (row.kind === 'uidBoundByOther' && row.platId !== null && row.uid !== null && outcome.holder) {
    await mailHolder(tx, deps, {
      platId: row.platId,
      uid: row.uid,
      exchange: outcome.holder.exchange,
      holderId: outcome.holder.userId,
      event: outcome.resolution,
    });
  }
  await recordAudit(tx, {
    actor: context.actor,
    action: outcome.audit.action,
    target: `support:${row.id}`,
    before: { status: row.status, ...(outcome.audit.before as object | undefined) },
    after: {
      status: 'closed',
      resolution: outcome.resolution,
      text: outcome.text,
      ...(outcome.audit.after as object | undefined),
    },
    at: now,
    requestId: context.requestId,
  });
}

/** /elex/admin/support/close: closes without moving anything; a dispute's freeze ends. */
export async function adminClose(
  deps: AppDeps,
  context: ActionContext,
  input: { id: number; text?: string | undefined },
): Promise<AdminSupportDetail> {
  const partners = await loadPartners(deps);
  await deps.db.transaction(async (tx) => {
    const row = await lockOpenRequest(tx, input.id);
    const holder =
      row.kind === 'uidBoundByOther' && row.platId !== null && row.uid !== null
        ? await liveBindingOf(tx, row.platId, row.uid)
        : undefined;
    // Closing a dispute ends its freeze: not the holder's to decide for their own UID.
    if (holder && holder.userId === requireOperatorId(context)) throw AppError.refused('supportOwnRequest');
    await closeRequest(tx, deps, context, row, {
      resolution: 'closed',
      text: input.text ?? null,
      // The claimant may hold it by now (another request moved it): they hear it once.
      holder:
        holder && holder.userId !== row.userId
          ? { userId: holder.userId, exchange: exchangeName(partners, holder.platId) }
          : undefined,
      audit: { action: 'support.close' },
    });
  });
  return adminRequestDetail(deps, input.id);
}

/**
 * A decision on a UID an operator may not take (docs/support.md, "Who decides"): one about their own
 * account, as the member who asked or as the UID's holder (four eyes, as for withdrawals and
 * corrections); or a dispute whose claimant holds the UID by now (nothing to move or confirm against
 * them: closing it is the decision).
 */
function refuseConflictedDecision(
  row: SupportRequestRow,
  holder: { userId: number } | undefined,
  operatorId: number,
): void {
  if (row.userId === operatorId || holder?.userId === operatorId) throw AppError.refused('supportOwnRequest');
  if (row.kind === 'uidBoundByOther' && holder?.userId === row.userId) {
    throw AppError.refused('supportClaimantHolds');
  }
}

/**
 * A dispute is decided about the member it was opened against (docs/support.md, "Decisions"): the
 * member of the binding it names (`binding_id`), who was told of it and could answer with evidence.
 * Still them when they bound the UID again after an operator's unbind (found in review, 2026-11-29:
 * that was refused as a change of hands). Anyone else who holds the UID by now (another dispute's
 * move, a new holder after the first left) is nobody the operator reviewed: `supportHolderChanged`.
 */
async function refuseUnlessDisputedHolder(
  tx: Transaction,
  row: SupportRequestRow,
  holder: { userId: number },
): Promise<void> {
  if (row.kind !== 'uidBoundByOther' || row.platId === null || row.uid === null) return;
  const disputed = await disputedMemberOf(tx, {
    bindingId: row.bindingId,
    platId: row.platId,
    uid: row.uid,
    at: row.createdAt,
  });
  if (disputed !== holder.userId) throw AppError.refused('supportHolderChanged');
}

/**
 * /elex/admin/support/moveBinding: a dispute decided for the claimant. Under the UID's account lock
 * (so no withdrawal of the UID is requested or paid meanwhile): refused while a withdrawal of the UID
 * is under review (the operator rejects or pays it first) and when the UID is held by anyone but the
 * member the dispute was opened against (`supportHolderChanged`); the holder's binding ends, the claimant
 * holds the UID with its balance and with ownership confirmed, the request is closed. Audited.
 */
export async function adminMoveBinding(
  deps: AppDeps,
  context: ActionContext,
  input: { id: number },
): Promise<AdminSupportDetail> {
  const operatorId = requireOperatorId(context);
  const partners = await loadPartners(deps);
  await inMoneyTransaction(deps, async (tx) => {
    const row = await lockOpenRequest(tx, input.id);
    if (row.kind !== 'uidBoundByOther' || row.platId === null || row.uid === null || row.address === null) {
      throw AppError.refused('supportNotDispute');
    }
    const now = deps.clock.now();
    const balance = await balanceOf(tx, accountCode.cashback(row.platId, row.uid), {
      forUpdate: true,
      at: now,
    });
    // The claimant's row after the UID's account (the money paths' order, lockMemberRow): a deletion
    // of the claimant waits for the move, or the move sees it.
    const claimant = await lockMemberRow(tx, row.userId);
    if (!claimant || claimant.deletedAt) throw AppError.refused('supportClaimantLeft');
    const holder = await liveBindingOf(tx, row.platId, row.uid);
    if (!holder) throw AppError.refused('supportNoHolder');
    refuseConflictedDecision(row, holder, operatorId);
    // As a confirmation: only the member the dispute was opened against (who was told and could
    // answer) loses the UID by it, never someone who bound it since (found in review, 2026-11-29).
    await refuseUnlessDisputedHolder(tx, row, holder);
    if ((await countUnderReviewOfUid(tx, row.platId, row.uid)) > 0) {
      throw AppError.refused('supportWithdrawalUnderReview');
    }
    const moved = await moveUidBinding(tx, {
      platId: row.platId,
      uid: row.uid,
      fromUserId: holder.userId,
      toUserId: row.userId,
      address: row.address,
      operatorId,
      at: now,
    });
    if (!moved) throw AppError.refused('supportNoHolder');
    // What the move leaves behind, for the record: the bonuses its holder's inviter was paid during
    // the binding. Ids and sums only: the audit log outlives an account and must not keep its e-mail.
    const inviterBonuses = (
      await selectHolderInviterBonuses(tx, {
        platId: row.platId,
        uid: row.uid,
        friendId: moved.from.userId,
        since: moved.from.boundAt,
        bindingId: moved.from.id,
      })
    ).map((bonus) => ({ inviterId: bonus.inviterId, amount: usdt(bonus.amountMicro) }));
    await closeRequest(tx, deps, context, row, {
      resolution: 'moved',
      text: null,
      holder: { userId: moved.from.userId, exchange: exchangeName(partners, row.platId) },
      audit: {
        action: 'support.moveBinding',
        before: {
          holderId: moved.from.userId,
          bindingId: moved.from.id,
          balance: usdt(balance),
          inviterBonuses,
        },
        after: { holderId: moved.to.userId, bindingId: moved.to.id, address: moved.to.address },
      },
    });
  });
  return adminRequestDetail(deps, input.id);
}

/**
 * /elex/admin/support/verifyOwnership: the operator confirms, from the evidence, that the UID's
 * current holder owns it: the binding's hold ends, and a dispute against that holder is closed.
 */
export async function adminVerifyOwnership(
  deps: AppDeps,
  context: ActionContext,
  input: { id: number },
): Promise<AdminSupportDetail> {
  const operatorId = requireOperatorId(context);
  const partners = await loadPartners(deps);
  await inMoneyTransaction(deps, async (tx) => {
    const row = await lockOpenRequest(tx, input.id);
    if (
      row.platId === null ||
      row.uid === null ||
      (row.kind !== 'ownership' && row.kind !== 'uidBoundByOther')
    ) {
      throw AppError.refused('supportNotDispute');
    }
    const now = deps.clock.now();
    // The UID's account lock, which a move and an unbind take: the holder read here is the one confirmed.
    await balanceOf(tx, accountCode.cashback(row.platId, row.uid), { forUpdate: true, at: now });
    const holder = await liveBindingOf(tx, row.platId, row.uid);
    if (!holder) throw AppError.refused('supportNoHolder');
    // An ownership request confirms its own member; one whose member no longer holds the UID cannot.
    if (row.kind === 'ownership' && holder.userId !== row.userId)
      throw AppError.refused('supportUidNotYours');
    refuseConflictedDecision(row, holder, operatorId);
    await refuseUnlessDisputedHolder(tx, row, holder);
    if (!(await confirmOwnership(tx, { platId: row.platId, uid: row.uid, operatorId, at: now }))) {
      throw AppError.refused('supportHolderChanged');
    }
    await closeRequest(tx, deps, context, row, {
      resolution: 'verified',
      text: null,
      holder:
        row.kind === 'uidBoundByOther'
          ? { userId: holder.userId, exchange: exchangeName(partners, row.platId) }
          : undefined,
      audit: {
        action: 'support.verifyOwnership',
        after: { holderId: holder.userId, bindingId: holder.id },
      },
    });
  });
  return adminRequestDetail(deps, input.id);
}
