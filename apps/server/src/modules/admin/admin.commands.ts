import type { OperatorCommand } from '../../ops/command.js';
import { grantOperator, OperatorCommandError, revokeOperator } from './operators.service.js';

/**
 * `npm run ops -- admin:grant <email>` and `admin:revoke <email>`: the only way to give or take the
 * operator role. Each change is written to the audit log as done by the operator who ran it (the
 * first grant on a database without operators: the bootstrap, ops/run-command.ts).
 */
export type AdminCommand = OperatorCommand<{ out(line: string): void; err(line: string): void }>;

function emailArgument(args: string[], usage: string, io: { err(line: string): void }): string | undefined {
  const [email] = args;
  if (args.length !== 1 || !email || !email.includes('@')) {
    io.err(`Usage: npm run ops -- ${usage}`);
    return undefined;
  }
  return email;
}

export const adminGrant: AdminCommand = {
  summary: 'let a member use the operator console (/admin)',
  usage: 'admin:grant <email>',
  async run(deps, args, io, actor) {
    const email = emailArgument(args, this.usage, io);
    if (!email) return 2;
    try {
      const granted = await grantOperator(deps, email, actor);
      io.out(granted ? `${email} is now an operator.` : `${email} was already an operator.`);
      return 0;
    } catch (error) {
      if (!(error instanceof OperatorCommandError)) throw error;
      io.err(error.message);
      return 1;
    }
  },
};

export const adminRevoke: AdminCommand = {
  summary: 'take the operator role away from a member',
  usage: 'admin:revoke <email>',
  async run(deps, args, io, actor) {
    const email = emailArgument(args, this.usage, io);
    if (!email) return 2;
    try {
      const revoked = await revokeOperator(deps, email, actor);
      io.out(revoked ? `${email} is no longer an operator.` : `${email} was not an operator.`);
      return 0;
    } catch (error) {
      if (!(error instanceof OperatorCommandError)) throw error;
      io.err(error.message);
      return 1;
    }
  },
};

/** The registry entries cli.ts adds to its own. */
export const adminCommands: Record<string, AdminCommand> = {
  'admin:grant': adminGrant,
  'admin:revoke': adminRevoke,
};
