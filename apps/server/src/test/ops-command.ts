import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../deps.js';
import { type AuditActor, bootstrapActor } from '../modules/admin/audit.service.js';
import { grantOperator } from '../modules/admin/operators.service.js';
import { insertUserUnlessTaken } from '../modules/auth/auth.repository.js';
import type { OpsCommand } from '../ops/command.js';

/** Who a test runs an operator command as, where who it is does not matter to the test. */
export const testOperatorActor: AuditActor = { userId: null, label: 'test-operator@example.com' };

/** Runs a command as `actor`, or without one when the command needs no operator. */
export function runCommandAs<Io extends { out(line: string): void; err(line: string): void }>(
  command: OpsCommand<Io>,
  deps: AppDeps,
  args: string[],
  io: Io,
  actor: AuditActor = testOperatorActor,
): Promise<number> {
  return command.needsOperator === false ? command.run(deps, args, io) : command.run(deps, args, io, actor);
}

/**
 * A member row holding the operator role, made directly in the database (no e-mail code flow):
 * for tests that run the CLI as a child process with `--operator` or ELEX_OPERATOR.
 */
export async function seedOperator(
  deps: AppDeps,
  email: string,
  grantedBy: AuditActor = bootstrapActor('test'),
): Promise<{ userId: number; email: string }> {
  const code = () => randomBytes(5).toString('hex').toUpperCase();
  const user = await insertUserUnlessTaken(deps.db, {
    email,
    passwordHash: null,
    userCode: `OP${code().slice(0, 6)}`,
    inviteCode: code().slice(0, 8),
    inviterId: null,
    createdAt: deps.clock.now(),
  });
  if (!user) throw new Error(`seedOperator: ${email} or a code is taken`);
  await grantOperator(deps, email, grantedBy);
  return { userId: user.id, email };
}
