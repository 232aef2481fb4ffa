import { normalizeEmail, type Operator } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { anyLiveOperator } from '../../read-models/live-operators.js';
import { findUserById, liveAccountByEmail, lockMemberRow } from '../auth/auth.service.js';
import {
  deleteOperatorRow,
  findOperatorRow,
  insertOperatorUnlessPresent,
  lockOperatorBootstrap,
} from './admin.repository.js';
import { type AuditActor, confirmOperatorRole, isBootstrapActor, recordAudit } from './audit.service.js';

/**
 * The operator role: a row in `operators` per member who may use the console. Granted and revoked
 * from the command line only (`admin:grant`, `admin:revoke`), each written to the audit log in the
 * same transaction.
 */

export class OperatorCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorCommandError';
  }
}

/** The operator behind a user id, for the console's header and the audit log; null when not one. */
export async function findOperator(db: Executor, userId: number): Promise<Operator | null> {
  if (!(await findOperatorRow(db, userId))) return null;
  const user = await findUserById(db, userId);
  if (!user?.email || user.deletedAt) return null;
  return { userId: user.id, email: user.email, userCode: user.userCode };
}

/**
 * The operator a command names (`--operator`, ELEX_OPERATOR): an e-mail or a user id. Answers why
 * not when the value names nobody, a deleted account, a suspended member, or a member without the
 * role. Asked before the command runs; its money-moving actions ask again in their transactions
 * (`confirmOperatorRole`), and the command then says why here.
 */
export async function resolveOperator(
  db: Executor,
  value: string,
): Promise<{ operator: Operator } | { refusal: string }> {
  const text = value.trim();
  let userId: number | undefined;
  if (/^\d{1,15}$/.test(text)) {
    userId = Number(text);
  } else if (text.includes('@')) {
    userId = (await liveAccountByEmail(db, text))?.id;
    if (userId === undefined) return { refusal: `No member with the e-mail ${normalizeEmail(text)}.` };
  } else {
    return { refusal: `"${text}" is neither an e-mail nor a user id.` };
  }
  const user = await findUserById(db, userId);
  if (!user) return { refusal: `No member with the id ${userId}.` };
  if (user.deletedAt) return { refusal: `Member ${userId}'s account was deleted: it is no operator.` };
  if (user.suspendedAt) {
    return {
      refusal: `${user.email ?? `Member ${userId}`} is suspended: a suspended member runs no command (reinstate them, or name another operator).`,
    };
  }
  const operator = await findOperator(db, userId);
  if (!operator) {
    return {
      refusal: `${user.email ?? `Member ${userId}`} is not an operator: an operator grants the role with admin:grant.`,
    };
  }
  return { operator };
}

/** False on a new database: the first `admin:grant` then runs as the bootstrap (ops/run-command.ts). */
export function operatorsExist(db: Executor): Promise<boolean> {
  return anyLiveOperator(db);
}

const bootstrapClosed =
  'Refused: an operator exists now (another first grant went through meanwhile), so this grant must name its operator with --operator <email|id> or ELEX_OPERATOR. Nothing was changed.';

/** Grants the role to the member with this e-mail. Answers false when the member already held it. */
export async function grantOperator(deps: AppDeps, email: string, actor: AuditActor): Promise<boolean> {
  const user = await liveAccountByEmail(deps.db, email);
  if (!user) throw new OperatorCommandError(`No member with the e-mail ${normalizeEmail(email)}.`);
  return deps.db.transaction(async (tx) => {
    // The bootstrap was decided before this transaction: another first grant may have landed since.
    if (isBootstrapActor(actor)) {
      await lockOperatorBootstrap(tx);
      if (await anyLiveOperator(tx)) throw new OperatorCommandError(bootstrapClosed);
    }
    // The granting operator's own role, asked again here (a revocation may have committed since).
    await confirmOperatorRole(tx, actor);
    // An operator cannot be suspended (the console refuses it); nor is a suspended member granted the
    // role (they would get the alerts' mails). The row lock orders this against a suspension.
    if ((await lockMemberRow(tx, user.id))?.suspendedAt) {
      throw new OperatorCommandError(
        `${user.email} is suspended: reinstate the member in the console first. Nothing was changed.`,
      );
    }
    const at = deps.clock.now();
    const granted = await insertOperatorUnlessPresent(tx, {
      userId: user.id,
      grantedAt: at,
      grantedBy: actor.label,
    });
    if (granted) {
      await recordAudit(tx, {
        actor,
        action: 'operator.grant',
        target: `user:${user.id}`,
        before: { isOperator: false },
        after: { isOperator: true, email: user.email },
        at,
      });
    }
    return granted;
  });
}

/** Takes the role away. Answers false when the member did not hold it. */
export async function revokeOperator(deps: AppDeps, email: string, actor: AuditActor): Promise<boolean> {
  const user = await liveAccountByEmail(deps.db, email);
  if (!user) throw new OperatorCommandError(`No member with the e-mail ${normalizeEmail(email)}.`);
  return deps.db.transaction(async (tx) => {
    // Before the delete: an operator may revoke their own role.
    await confirmOperatorRole(tx, actor);
    const at = deps.clock.now();
    const removed = await deleteOperatorRow(tx, user.id);
    if (removed) {
      await recordAudit(tx, {
        actor,
        action: 'operator.revoke',
        target: `user:${user.id}`,
        before: {
          isOperator: true,
          email: user.email,
          grantedAt: removed.grantedAt,
          grantedBy: removed.grantedBy,
        },
        after: { isOperator: false },
        at,
      });
    }
    return Boolean(removed);
  });
}
