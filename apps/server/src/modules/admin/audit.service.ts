import { type AuditAction, type AuditEntry, type AuditLogPage, State } from '@elex/contract';
import type { Executor, Transaction } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import { holdMemberKey } from '../auth/auth.service.js';
import { holdOperatorRow, insertAuditRow, selectAuditPage } from './admin.repository.js';

/**
 * Who did it: an operator (id and e-mail), in the console or naming themselves to a command
 * (`--operator`, ELEX_OPERATOR). Only the first `admin:grant` on a database without operators has no
 * operator to name: it is 'bootstrap:cli:<os user>' (docs/decisions.md, "Operator commands beside
 * the running server"). Entries written before that rule say 'cli:<os user>'.
 */
export interface AuditActor {
  userId: number | null;
  /** The operator's e-mail, or 'bootstrap:cli:<os user>'. */
  label: string;
}

export interface AuditInput {
  actor: AuditActor;
  action: AuditAction;
  /** 'withdrawal:12', 'binding:4:UID123', 'exchange:3', 'user:9' ... */
  target: string;
  before?: unknown;
  after?: unknown;
  at: Date;
  requestId?: string | null;
}

/** JSON-safe: bigints become strings, dates ISO strings, undefined drops out. */
function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)),
  );
}

/**
 * Appends one entry to the audit log, in the action's transaction, so the entry and the action commit
 * together or not at all; the table refuses any change afterwards (a trigger). Operator commands call
 * this too, with the operator the command was run as.
 *
 * An entry is an operator's word that they did it, so for an actor with a user id it asks for the
 * operator's role in that transaction first (`confirmOperatorRole`), unless the transaction asked
 * already: a console action or a command past the guard's read of the role does not commit for an
 * operator whose role, account or standing went meanwhile (1003 'forbidden', nothing written). Every
 * audited write asks by this one call, also those that move no money (catalog, tasks, promotion codes,
 * support, suspensions, exports, alert switches). An entry that records what happened whatever the
 * role is now, or whose actor is no operator, is written with `recordAuditAsHappened`.
 */
export async function recordAudit(tx: Transaction, input: AuditInput): Promise<void> {
  const userId = input.actor.userId;
  if (userId !== null && !confirmedIn.get(tx)?.has(userId)) await confirmOperatorRole(tx, input.actor);
  await insertAudit(tx, input);
}

/**
 * An entry that records what happened, not asking for the role: a run's outcome written after its own
 * transactions (a sync run, a housekeeping run: each of their writing transactions asked), an
 * import's attempt that failed or was rejected (it changed nothing; the attempt stays on record), a
 * member's own account deletion closing their requests (a member, no operator).
 */
export async function recordAuditAsHappened(db: Executor, input: AuditInput): Promise<void> {
  await insertAudit(db, input);
}

async function insertAudit(db: Executor, input: AuditInput): Promise<void> {
  await insertAuditRow(db, {
    at: input.at,
    actorId: input.actor.userId,
    actor: input.actor.label,
    action: input.action,
    target: input.target,
    before: toJson(input.before),
    after: toJson(input.after),
    requestId: input.requestId ?? null,
  });
}

/** The operating-system user who ran a command (behind sudo, the one who called sudo). */
export function osUser(): string {
  return process.env.SUDO_USER || process.env.USER || process.env.USERNAME || 'unknown';
}

/** The first grant on a database without operators: nobody to name but the machine's user. */
export function bootstrapActor(user: string = osUser()): AuditActor {
  return { userId: null, label: `bootstrap:cli:${user}` };
}

/** Whether this actor is the bootstrap: a grant it makes is only valid while no operator exists. */
export function isBootstrapActor(actor: AuditActor): boolean {
  return actor.userId === null && actor.label.startsWith('bootstrap:');
}

/** The operators whose role each open transaction asked already (its locks hold until it ends). */
const confirmedIn = new WeakMap<object, Set<number>>();

/**
 * The operator's role asked again inside an action's transaction, under FOR KEY SHARE on
 * their role and member rows: the console's guard and a command's `--operator` read it before the
 * action began, and a revocation, suspension or deletion committing meanwhile must stop the action
 * (the console's 1003 'forbidden'; a command says why). One committing after waits for the action.
 * An actor without an id (the bootstrap grant, the fast lane, the payout tracker) is no operator's
 * session to re-check.
 */
export async function confirmOperatorRole(tx: Executor, actor: AuditActor): Promise<void> {
  if (actor.userId === null) return;
  // Both rows FOR KEY SHARE: a revocation (deletes the role's row) or an account deletion (clears the
  // e-mail, a unique key) committing first is seen, and one coming after waits for the action to
  // commit. KEY SHARE, not SHARE: it neither waits for nor holds up the FOR NO KEY UPDATE lock other
  // actions take on a member row (two operators correcting each other's money at once would otherwise
  // deadlock). A suspension of an operator is refused anyway (it reads the role after its lock).
  const role = await holdOperatorRow(tx, actor.userId);
  const member = await holdMemberKey(tx, actor.userId);
  if (!role || !member || member.deletedAt || member.suspendedAt)
    throw new AppError(State.Forbidden, 'forbidden');
  // recordAudit asks no more in this transaction: the locks hold until it ends, and an operator who
  // revokes their own role has deleted the row by the time the entry is written.
  const asked = confirmedIn.get(tx) ?? new Set<number>();
  asked.add(actor.userId);
  confirmedIn.set(tx, asked);
}

/** An operator as the audit log names them. */
export function operatorActor(operator: { userId: number; email: string }): AuditActor {
  return { userId: operator.userId, label: operator.email };
}

export async function listAudit(
  db: Executor,
  filter: { action?: string | undefined; target?: string | undefined; page: number; pageSize: number },
): Promise<AuditLogPage> {
  const { rows, total } = await selectAuditPage(db, filter);
  return {
    rows: rows.map(
      (row): AuditEntry => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        action: row.action,
        target: row.target,
        before: row.before ?? null,
        after: row.after ?? null,
        requestId: row.requestId,
      }),
    ),
    total,
    page: filter.page,
    pageSize: filter.pageSize,
  };
}
