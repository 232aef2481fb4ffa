import type { AuditAction, AuditEntry, AuditLogPage } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { insertAuditRow, selectAuditPage } from './admin.repository.js';

/** Who did it: an operator of the console (id and e-mail), or a command run on the server. */
export interface AuditActor {
  userId: number | null;
  /** The operator's e-mail, or 'cli:<os user>'. */
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
 * Appends one entry to the audit log. Pass the action's transaction so the entry and the action
 * commit together or not at all; the table refuses any change afterwards (a trigger).
 * The withdrawals CLI calls this too, with `actor: { userId: null, label: 'cli:<user>' }`.
 */
export async function recordAudit(tx: Executor, input: AuditInput): Promise<void> {
  await insertAuditRow(tx, {
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

/** The command line's actor: the operating-system user who ran it. */
export function cliActor(): AuditActor {
  const user = process.env.SUDO_USER || process.env.USER || process.env.USERNAME || 'unknown';
  return { userId: null, label: `cli:${user}` };
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
