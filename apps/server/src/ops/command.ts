import type { AppDeps } from '../deps.js';
import type { CommandIo } from '../lib/progress-bar.js';
import type { AuditActor } from '../modules/admin/audit.service.js';

/**
 * An operator command (`npm run ops -- <name> [args]`), whichever process runs it: the CLI on a
 * database it opened itself, or the running server on behalf of the CLI (ops/ops-socket.ts).
 * A command that changes anything runs as a named operator, the actor its audit entries carry.
 */
type Io = Pick<CommandIo, 'out' | 'err'>;

export interface OperatorCommand<CommandIoType extends Io = CommandIo> {
  summary: string;
  usage: string;
  needsOperator?: true;
  run(deps: AppDeps, args: string[], io: CommandIoType, actor: AuditActor): Promise<number>;
}

/**
 * Runs without naming an operator: it only reads (ledger:check, withdrawals:list, sync:status), or
 * does what needs nobody's name (db:migrate, which every start does; demo:seed, refused in
 * production). It gets no actor, so it cannot audit as nobody.
 */
export interface OpenCommand<CommandIoType extends Io = CommandIo> {
  summary: string;
  usage: string;
  needsOperator: false;
  run(deps: AppDeps, args: string[], io: CommandIoType): Promise<number>;
}

export type OpsCommand<CommandIoType extends Io = CommandIo> =
  | OperatorCommand<CommandIoType>
  | OpenCommand<CommandIoType>;
