import type { AppDeps } from '../deps.js';
import { AppError } from '../http/app-error.js';
import type { CommandIo } from '../lib/progress-bar.js';
import { type AuditActor, bootstrapActor, operatorActor } from '../modules/admin/audit.service.js';
import { operatorsExist, resolveOperator } from '../modules/admin/operators.service.js';
import { findOpsCommand } from './commands.js';

/** What the operator asked for, the same whether the CLI or the running server executes it. */
export interface OpsRequest {
  name: string;
  args: string[];
  /** `--operator` or ELEX_OPERATOR: an operator's e-mail or user id. */
  operator?: string | undefined;
  /** The operating-system user at the shell, for the bootstrap grant's audit entry. */
  osUser: string;
}

/** The exit code of a command refused for its operator (missing, unknown, not an operator). */
const OPERATOR_REFUSED = 2;

/**
 * Runs one command on `deps.db` as its operator: one code path for the CLI on its own database and
 * for the server running it beside its requests. A command that changes anything is refused, before
 * it reads its arguments, unless it names a live operator; the one exception is the bootstrap.
 */
export async function runOpsCommand(deps: AppDeps, request: OpsRequest, io: CommandIo): Promise<number> {
  const command = findOpsCommand(request.name);
  if (!command) {
    io.err(`Unknown command: ${request.name}`);
    return 2;
  }
  if (command.needsOperator === false) return command.run(deps, request.args, io);
  const actor = await commandActor(deps, request, io);
  if (!actor) return OPERATOR_REFUSED;
  let code: number;
  let lost = false;
  try {
    code = await command.run(deps, request.args, io, actor);
  } catch (error) {
    // Every audited write asks for the role again in its transaction (recordAudit, confirmOperatorRole)
    // and refused: nothing of that action was written. Said below, with the reason.
    if (!(error instanceof AppError) || error.messageKey !== 'forbidden') throw error;
    code = OPERATOR_REFUSED;
    lost = true;
  }
  // A command that failed may have been refused that way (its own message then only says
  // "permission"): whether the operator still is one, and if not why, asked again now.
  if (code !== 0 && actor.userId !== null) {
    const now = await resolveOperator(deps.db, String(actor.userId));
    if ('refusal' in now) {
      io.err(
        `Refused: ${now.refusal} The role was asked again while ${request.name} ran: a step it refused was not written.`,
      );
      return OPERATOR_REFUSED;
    }
  }
  if (lost) io.err(`Refused: ${actor.label} did not hold the operator role when ${request.name} wrote.`);
  return code;
}

/**
 * The operator the command runs as, or undefined after saying why not. Bootstrap: on a database
 * where no live member holds the role, `admin:grant` without an operator names the first one, audited
 * as 'bootstrap:cli:<os user>'; once an operator exists that door is shut.
 */
async function commandActor(
  deps: AppDeps,
  request: OpsRequest,
  io: Pick<CommandIo, 'err'>,
): Promise<AuditActor | undefined> {
  const value = request.operator?.trim();
  if (!value) {
    const exist = await operatorsExist(deps.db);
    if (request.name === 'admin:grant' && !exist) return bootstrapActor(request.osUser);
    io.err(
      `${request.name} changes data: name the operator running it with --operator <email|id> or ELEX_OPERATOR.`,
    );
    if (!exist) io.err(noOperatorYet);
    return undefined;
  }
  const resolved = await resolveOperator(deps.db, value);
  if ('operator' in resolved) return operatorActor(resolved.operator);
  io.err(`Refused: ${resolved.refusal}`);
  if (!(await operatorsExist(deps.db))) io.err(noOperatorYet);
  return undefined;
}

const noOperatorYet =
  'No operator exists yet: grant the first one with `npm run ops -- admin:grant <email>` (no --operator).';
