import { ExplainTransferRequestSchema, translate } from '@elex/contract';
import type { AppError } from '../../http/app-error.js';
import { readCommandArgs } from '../../lib/cli-args.js';
import type { OpenCommand, OperatorCommand } from '../../ops/command.js';
import { explainTransfer, payoutReconciliation } from './payouts.reconciliation.js';
import { sendWithdrawals } from './payouts.send.js';
import { listPayouts, type PayoutView } from './payouts.service.js';
import { PAYOUT_STATES, type PayoutState } from './payouts.tables.js';
import { walletStatus } from './payouts.wallet.js';

/**
 * The payout operator commands (docs/withdrawals.md, "On-chain payouts"): send pending withdrawals
 * from the payout wallet, list payouts, look at the wallet. Exit codes: 0 done, 1 refused (the reason
 * on stderr; a batch exits 1 if any was refused), 2 usage. A send is audited under the operator who
 * ran it, in the transaction that records the payout.
 */
interface Io {
  out(line: string): void;
  err(line: string): void;
}

const usage = (io: Io, text: string) => {
  io.err(`Usage: npm run ops -- ${text}`);
  return 2;
};

function describe(view: PayoutView): string {
  const flags = [
    view.failureReason ? `reason: ${view.failureReason}` : '',
    view.lastError ? `last error: ${view.lastError}` : '',
    view.feeHeld
      ? `held by the fee ceiling: the network asks ${view.feeHeld.askedGwei} gwei, PAYOUT_MAX_FEE_GWEI is ${view.feeHeld.ceilingGwei}`
      : '',
  ]
    .filter(Boolean)
    .join('; ');
  return (
    `payout ${view.id}  withdrawal ${view.withdrawalId}  ${view.state.padEnd(9)}  ${view.amount} USDT -> ${view.to}  ` +
    `nonce ${view.nonce}  ${view.txHash}  ${view.confirmations}/${view.confirmationsNeeded} confirmations` +
    `${view.attempts.length > 1 ? `  (${view.attempts.length} attempts)` : ''}` +
    `${flags ? `\n      ${flags}` : ''}`
  );
}

export const payoutsSend: OperatorCommand<Io> = {
  summary: 'pay pending withdrawals on chain from the payout wallet (signed, recorded, then broadcast)',
  usage: 'payouts:send <withdrawal id> [<withdrawal id> ...]',
  async run(deps, args, io, actor) {
    const ids = args.filter((arg) => !arg.startsWith('--'));
    if (ids.length === 0 || ids.length !== args.length) return usage(io, this.usage);
    if (!deps.config.payouts.enabled) {
      io.err(`Refused: ${translate('en', 'payoutsOff')}`);
      return 1;
    }
    const results = await sendWithdrawals(deps, {
      ids,
      operatorId: actor.userId,
      via: 'cli',
      audit: { actor, requestId: null },
    });
    let refused = 0;
    for (const result of results) {
      if ('refused' in result.outcome) {
        refused += 1;
        const error: AppError = result.outcome.refused;
        io.err(`Withdrawal ${result.id} refused: ${translate('en', error.messageKey, error.values)}`);
        continue;
      }
      const { payout, created } = result.outcome;
      const what = created ? 'sent' : 'already has a payout';
      const where =
        payout.state === 'signed'
          ? `recorded, not yet taken by the node${payout.lastError ? ` (${payout.lastError})` : ''}: the server's tracker retries it`
          : payout.state;
      io.out(
        `Withdrawal ${result.id} ${what}: payout ${payout.id}, ${payout.amount} USDT to ${payout.to}, ` +
          `nonce ${payout.nonce}, tx ${payout.txHash}, ${where}.`,
      );
    }
    return refused > 0 ? 1 : 0;
  },
};

export const payoutsList: OpenCommand<Io> = {
  needsOperator: false,
  summary: 'list on-chain payouts, newest first',
  usage: `payouts:list [--state ${PAYOUT_STATES.join('|')}] [--limit n]`,
  async run(deps, args, io) {
    const read = readCommandArgs(args, ['state', 'limit']);
    if (typeof read === 'string' || read.positionals.length > 0) return usage(io, this.usage);
    const { state: stateText, limit: limitText } = read.values;
    if (stateText !== undefined && !(PAYOUT_STATES as readonly string[]).includes(stateText)) {
      return usage(io, this.usage);
    }
    if (limitText !== undefined && !/^[1-9]\d{0,3}$/.test(limitText)) return usage(io, this.usage);
    const state = stateText as PayoutState | undefined;
    const limit = limitText === undefined ? 50 : Number(limitText);
    const views = await listPayouts(deps, { state, limit });
    if (views.length === 0) {
      io.out(state ? `No ${state} payouts.` : 'No payouts.');
      return 0;
    }
    for (const view of views) io.out(describe(view));
    return 0;
  },
};

export const payoutsWallet: OpenCommand<Io> = {
  needsOperator: false,
  summary: 'the payout wallet: address, USDT and gas balances, what is still on its way',
  usage: 'payouts:wallet',
  async run(deps, args, io) {
    if (args.length > 0) return usage(io, this.usage);
    if (!deps.config.payouts.enabled) {
      io.out(translate('en', 'payoutsOff'));
      return 0;
    }
    const status = await walletStatus(deps);
    io.out(`Wallet ${status.address} on chain ${status.chainId}, token ${status.token}`);
    io.out(
      `USDT ${status.tokenBalance}; gas ${status.gasBalance}; fee ceiling ${status.feeCeilingGwei} gwei`,
    );
    io.out(
      `In flight: ${status.inFlight.count} payouts, ${status.inFlight.amount} USDT` +
        ` (final after ${status.confirmations} confirmations)`,
    );
    return 0;
  },
};

export const payoutsReconcile: OpenCommand<Io> = {
  needsOperator: false,
  summary: 'compare every transfer out of the payout wallet on chain with the payouts (exit 1 on a mismatch)',
  usage: 'payouts:reconcile',
  async run(deps, args, io) {
    if (args.length > 0) return usage(io, this.usage);
    const report = await payoutReconciliation(deps);
    if (!report.enabled) {
      io.out(translate('en', 'payoutsOff'));
      return 0;
    }
    if (report.unreachable) io.err(`No payout node answered: ${report.unreachable}`);
    io.out(
      `Wallet ${report.address}: blocks ${report.fromBlock ?? '-'} to ${report.scannedTo ?? '-'} read` +
        `${report.behind ? ` (${report.behind} final blocks still to read)` : ''}; ` +
        `${report.transfers.count} transfers out, ${report.transfers.amount} USDT.`,
    );
    if (report.mismatches.length === 0) {
      io.out('Every transfer is exactly one payout, and every confirmed payout is on chain.');
      return report.unreachable ? 1 : 0;
    }
    for (const mismatch of report.mismatches) {
      io.out(
        `MISMATCH ${mismatch.kind}: tx ${mismatch.txHash ?? '-'}  payout ${mismatch.payoutId ?? '-'}  ` +
          `withdrawal ${mismatch.withdrawalId ?? '-'}  ${mismatch.amount ?? '-'} USDT -> ${mismatch.to ?? '-'}  ` +
          `block ${mismatch.block ?? '-'}`,
      );
    }
    return 1;
  },
};

const payoutsExplain: OperatorCommand<Io> = {
  summary: 'explain a transfer out of the payout wallet that is no payout (it stops being a mismatch)',
  usage: 'payouts:explain <tx hash> --reason "<why it left the wallet>"',
  async run(deps, args, io, actor) {
    const [txHash, flag, reason, ...rest] = args;
    const parsed = ExplainTransferRequestSchema.safeParse({ txHash, reason });
    if (flag !== '--reason' || rest.length > 0 || !parsed.success) return usage(io, this.usage);
    if (!deps.config.payouts.enabled) {
      io.err(`Refused: ${translate('en', 'payoutsOff')}`);
      return 1;
    }
    try {
      await explainTransfer(deps, { ...parsed.data, actor, requestId: null });
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'AppError') throw error;
      const refusal = error as AppError;
      io.err(`Refused: ${translate('en', refusal.messageKey, refusal.values)}`);
      return 1;
    }
    io.out(`${translate('en', 'transferExplained')}: ${parsed.data.txHash}`);
    return 0;
  },
};

export const payoutCommands: Record<string, OperatorCommand<Io> | OpenCommand<Io>> = {
  'payouts:explain': payoutsExplain,
  'payouts:send': payoutsSend,
  'payouts:list': payoutsList,
  'payouts:wallet': payoutsWallet,
  'payouts:reconcile': payoutsReconcile,
};
