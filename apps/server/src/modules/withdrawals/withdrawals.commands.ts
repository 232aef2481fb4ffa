import { translate, WITHDRAWAL_STATUSES, type WithdrawalStatus } from '@elex/contract';
import { AppError } from '../../http/app-error.js';
import { ValidationError } from '../../http/validation.js';
import { readCommandArgs } from '../../lib/cli-args.js';
import type { OpenCommand, OperatorCommand } from '../../ops/command.js';
import type { AuditActor } from '../admin/audit.service.js';
import { approveAudited, rejectAudited } from '../admin/withdrawals-queue.service.js';
import { loadPartners } from '../cashback/partners.js';
import type { WithdrawalSnapshot } from './withdrawals.model.js';
import { listWithdrawalQueue } from './withdrawals.queue.js';

/**
 * The withdrawal operator commands (docs/withdrawals.md, "Operator commands"): the queue, pay, reject.
 * Plain functions of the app's dependencies, their arguments and where to write, answering the exit
 * code (0 done, 1 refused, 2 usage): tests call them directly; cli.ts registers them. A decision made
 * here is recorded as `decided_via = 'cli'` by the operator who ran it, and written to the audit log
 * under that operator in the decision's transaction, like a decision in the console.
 */
interface WithdrawalCommandIo {
  out(line: string): void;
  err(line: string): void;
}

export type WithdrawalCommand = OperatorCommand<WithdrawalCommandIo> | OpenCommand<WithdrawalCommandIo>;

/** `<positional...> --name value` or `--name=value`; unknown flags are an error (node:util parseArgs). */
function parseArgs(
  args: readonly string[],
  known: readonly string[],
): { positional: string[]; flags: Map<string, string> } | string {
  const read = readCommandArgs(args, known);
  if (typeof read === 'string') return read;
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(read.values))
    if (value !== undefined) flags.set(name, value as string);
  return { positional: read.positionals, flags };
}

/** An operator reads refusals in English, as the message catalogue words them. */
function refusal(error: unknown): string | undefined {
  if (error instanceof ValidationError) return error.render('en');
  if (error instanceof AppError) return translate('en', error.messageKey, error.values);
  return undefined;
}

async function runDecision(io: WithdrawalCommandIo, decide: () => Promise<WithdrawalSnapshot>, verb: string) {
  try {
    const after = await decide();
    io.out(
      `Withdrawal ${after.id} ${verb}: ${after.amount} USDT to ${after.address} ` +
        `(member ${after.userId}, ${after.platId}:${after.uid}); the member is mailed.`,
    );
    return 0;
  } catch (error) {
    const message = refusal(error);
    if (message === undefined) throw error;
    io.err(`Refused: ${message}`);
    return 1;
  }
}

/** Decisions made here are audited under the operator the command was run as. */
const cliContext = (actor: AuditActor) => ({ actor, requestId: null, via: 'cli' as const });

const STATUS_FILTERS = [...WITHDRAWAL_STATUSES, 'all'] as const;

const withdrawalsList: OpenCommand<WithdrawalCommandIo> = {
  needsOperator: false,
  summary: 'list withdrawals, oldest first (pending unless --status says otherwise)',
  usage: 'withdrawals:list [--status pending|completed|failed|cancelled|all] [--page n] [--page-size n]',
  async run(deps, args, io) {
    const parsed = parseArgs(args, ['status', 'page', 'page-size']);
    const status = typeof parsed === 'string' ? 'pending' : (parsed.flags.get('status') ?? 'pending');
    const page = typeof parsed === 'string' ? 1 : Number(parsed.flags.get('page') ?? 1);
    const pageSize = typeof parsed === 'string' ? 50 : Number(parsed.flags.get('page-size') ?? 50);
    if (
      typeof parsed === 'string' ||
      parsed.positional.length > 0 ||
      !(STATUS_FILTERS as readonly string[]).includes(status) ||
      !Number.isInteger(page) ||
      page < 1 ||
      !Number.isInteger(pageSize) ||
      pageSize < 1 ||
      pageSize > 100
    ) {
      if (typeof parsed === 'string') io.err(parsed);
      io.err(`Usage: npm run ops -- ${this.usage}`);
      return 2;
    }
    const queue = await listWithdrawalQueue(deps, {
      status: status === 'all' ? undefined : (status as WithdrawalStatus),
      page,
      pageSize,
    });
    const partners = await loadPartners(deps);
    const label = status === 'all' ? 'withdrawals' : `${status} withdrawals`;
    if (queue.total === 0) {
      io.out(`No ${label}.`);
      return 0;
    }
    const first = (queue.page - 1) * queue.pageSize + 1;
    io.out(
      `${queue.total} ${label}, oldest first; ${first}-${first + queue.items.length - 1} shown` +
        ` (spec: reviewed and paid within 48 hours).`,
    );
    for (const item of queue.items) {
      const exchange = partners.get(item.platId)?.name ?? `#${item.platId}`;
      const who = `${item.member.email ?? '(deleted account)'} ${item.member.userCode}`.trim();
      const flags = [item.isOverdue ? 'OVERDUE' : '', item.isBindingLive ? '' : 'UID no longer bound to them']
        .filter(Boolean)
        .join(', ');
      io.out(
        `#${item.id}  ${item.createdAt.slice(0, 16).replace('T', ' ')} UTC  ${item.status.padEnd(9)}  ` +
          `${item.amount} USDT  ${exchange} UID ${item.uid}  -> ${item.address}${flags ? `  [${flags}]` : ''}`,
      );
      io.out(
        `      member ${who}; cashback ${item.cashbackPart} + rewards ${item.rewardsPart}; ` +
          `UID earned ${item.summary.cashbackEarned}, holds ${item.summary.cashbackBalance}; ` +
          `rewards earned ${item.summary.rewardsEarned}, hold ${item.summary.rewardsBalance}; ` +
          `paid before ${item.summary.withdrawals.completed.count} (${item.summary.withdrawals.completed.amount})`,
      );
      if (item.txHash) io.out(`      paid in ${item.txHash}`);
      if (item.failureReason) io.out(`      reason: ${item.failureReason}`);
    }
    return 0;
  },
};

const withdrawalsApprove: OperatorCommand<WithdrawalCommandIo> = {
  summary: 'mark a pending withdrawal paid with its Polygon transaction hash (mails the member)',
  usage: 'withdrawals:approve <id> --tx <hash>',
  async run(deps, args, io, actor) {
    const parsed = parseArgs(args, ['tx']);
    const id = typeof parsed === 'string' ? undefined : parsed.positional[0];
    const txHash = typeof parsed === 'string' ? undefined : parsed.flags.get('tx');
    if (typeof parsed === 'string' || parsed.positional.length !== 1 || !id || !txHash) {
      if (typeof parsed === 'string') io.err(parsed);
      io.err(`Usage: npm run ops -- ${this.usage}`);
      return 2;
    }
    return runDecision(io, () => approveAudited(deps, cliContext(actor), { id, txHash }), 'paid');
  },
};

const withdrawalsReject: OperatorCommand<WithdrawalCommandIo> = {
  summary: 'reject a pending withdrawal; the funds return and the member reads the reason',
  usage: 'withdrawals:reject <id> --reason <text>',
  async run(deps, args, io, actor) {
    const parsed = parseArgs(args, ['reason']);
    const id = typeof parsed === 'string' ? undefined : parsed.positional[0];
    const reason = typeof parsed === 'string' ? undefined : parsed.flags.get('reason');
    if (typeof parsed === 'string' || parsed.positional.length !== 1 || !id || reason === undefined) {
      if (typeof parsed === 'string') io.err(parsed);
      io.err(`Usage: npm run ops -- ${this.usage}`);
      return 2;
    }
    return runDecision(io, () => rejectAudited(deps, cliContext(actor), { id, reason }), 'rejected');
  },
};

/** The registry entries cli.ts adds to its own. */
export const withdrawalCommands: Record<string, WithdrawalCommand> = {
  'withdrawals:list': withdrawalsList,
  'withdrawals:approve': withdrawalsApprove,
  'withdrawals:reject': withdrawalsReject,
};
