import { DECIMALS, fromScaled, type PayoutWallet, POLYGON_EXPLORER_ADDRESS_URL } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { fastLaneSentSince } from '../../read-models/fast-lane.js';
import { sendAlertOnce } from '../alerts/alerts.service.js';
import { pendingWithdrawalTotals } from '../withdrawals/withdrawals.decisions.js';
import { formatGwei } from './gwei.js';
import { cappedFees, type EnabledPayoutConfig, errorText, TRANSFER_GAS_LIMIT } from './payouts.chain.js';
import { FAST_LANE_WINDOW_MS } from './payouts.config.js';
import { inFlightTotals } from './payouts.repository.js';
import { payoutChain } from './payouts.service.js';

/** The payout wallet's balances and health, and the operators' alert when it runs short. */

export interface WalletStatus {
  chainId: number;
  address: string;
  token: string;
  /** USDT the wallet holds (6 decimals) and native gas (18 decimals: POL on Polygon). */
  tokenBalance: string;
  gasBalance: string;
  /** Payouts signed or on their way and not yet final. */
  inFlight: { count: number; amount: string };
  confirmations: number;
  /** PAYOUT_MAX_FEE_GWEI: no payout offers more per gas. */
  feeCeilingGwei: string;
}

export async function walletStatus(deps: AppDeps): Promise<WalletStatus> {
  const chain = await payoutChain(deps);
  const config: EnabledPayoutConfig = chain.config;
  const [tokenBalance, gasBalance, inFlight] = await Promise.all([
    chain.tokenBalance(),
    chain.gasBalance(),
    inFlightTotals(deps.db),
  ]);
  return {
    chainId: config.chainId,
    address: chain.address,
    token: config.tokenAddress,
    tokenBalance: fromScaled(tokenBalance, DECIMALS.usdt),
    gasBalance: fromScaled(gasBalance, 18),
    inFlight: { count: inFlight.count, amount: fromScaled(inFlight.amountMicro, DECIMALS.usdt) },
    confirmations: config.confirmations,
    feeCeilingGwei: formatGwei(config.maxFeePerGas),
  };
}

/**
 * The wallet's health for the console (docs/withdrawals.md "Wallet health"): its balances, what it will
 * be asked for (pending withdrawals not yet sent, plus payouts signed and not yet in a block) and
 * whether its USDT or its gas falls short of that. Gas is counted at the transfer's gas limit and
 * today's fee cap, which is what a node wants the wallet to hold before it accepts a transfer; at
 * least one transfer's worth, so an empty tank shows before the next withdrawal arrives. A node that
 * does not answer leaves the balances null with the reason; the rest still answers.
 */
export async function walletHealth(deps: AppDeps): Promise<PayoutWallet> {
  if (!deps.config.payouts.enabled) return { enabled: false };
  const chain = await payoutChain(deps);
  const { config } = chain;
  const lane = config.fastLane;
  const [pending, inFlight, laneSent] = await Promise.all([
    pendingWithdrawalTotals(deps),
    inFlightTotals(deps.db),
    lane
      ? fastLaneSentSince(deps.db, new Date(deps.clock.now().getTime() - FAST_LANE_WINDOW_MS), null)
      : null,
  ]);
  const awaiting = {
    count: Math.max(pending.count - inFlight.count, 0),
    amountMicro: pending.amountMicro > inFlight.amountMicro ? pending.amountMicro - inFlight.amountMicro : 0n,
  };
  const neededUsdt = awaiting.amountMicro + inFlight.unmined.amountMicro;
  const transfers = BigInt(Math.max(awaiting.count + inFlight.unmined.count, 1));

  let balances: { usdt: bigint; gas: bigint } | null = null;
  let neededGas: bigint | null = null;
  let askedFee: bigint | null = null;
  let unreachable: string | null = null;
  try {
    const [usdt, gas, fees] = await Promise.all([
      chain.tokenBalance(),
      chain.gasBalance(),
      chain.currentFees(),
    ]);
    balances = { usdt, gas };
    askedFee = fees.maxFeePerGas;
    neededGas = transfers * TRANSFER_GAS_LIMIT * cappedFees(fees, config.maxFeePerGas).maxFeePerGas;
  } catch (error) {
    unreachable = errorText(error);
  }
  const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
  return {
    enabled: true,
    chainId: config.chainId,
    address: chain.address,
    explorerUrl: config.chainId === 137 ? `${POLYGON_EXPLORER_ADDRESS_URL}${chain.address}` : null,
    token: config.tokenAddress,
    confirmations: config.confirmations,
    balances: balances ? { usdt: usdt(balances.usdt), gas: fromScaled(balances.gas, 18) } : null,
    unreachable,
    awaiting: { count: awaiting.count, amount: usdt(awaiting.amountMicro) },
    inFlight: { count: inFlight.count, amount: usdt(inFlight.amountMicro) },
    fees: {
      askedGwei: askedFee === null ? null : formatGwei(askedFee),
      ceilingGwei: formatGwei(config.maxFeePerGas),
    },
    needed: { usdt: usdt(neededUsdt), gas: neededGas === null ? null : fromScaled(neededGas, 18) },
    shortOfUsdt: balances !== null && balances.usdt < neededUsdt,
    shortOfGas: balances !== null && neededGas !== null && balances.gas < neededGas,
    fastLane:
      lane && laneSent
        ? {
            max: usdt(lane.maxMicro),
            daily: usdt(lane.dailyMicro),
            memberDaily: usdt(lane.memberDailyMicro),
            minAccountDays: Math.round(lane.minAccountAgeMs / 86_400_000),
            sentLast24h: usdt(laneSent.allMicro),
          }
        : null,
  };
}

/**
 * Alerts the operators (the `payoutWalletShort` alert, mail and webhook) when the wallet's USDT or gas
 * falls short of what the withdrawals waiting need: once per shortage, wallet and UTC day, whichever
 * instance sees it first. Answers what it alerted about. A node that does not answer alerts nothing
 * here (the balances are unknown; the console says so).
 */
export async function alertIfWalletShort(deps: AppDeps): Promise<Array<'usdt' | 'gas'>> {
  const health = await walletHealth(deps);
  if (!health.enabled || !health.balances) return [];
  const now = deps.clock.now();
  const day = now.toISOString().slice(0, 10);
  const alerted: Array<'usdt' | 'gas'> = [];
  const waiting = health.awaiting.count + health.inFlight.count;
  if (health.shortOfUsdt) {
    const sent = await sendAlertOnce(
      deps,
      `payoutWallet:usdt:${health.address}:${day}`,
      'payoutWalletShort',
      {
        short: 'usdt',
        address: health.address,
        held: health.balances.usdt,
        needed: health.needed.usdt,
        awaiting: waiting,
        at: now.toISOString(),
      },
    );
    if (sent) alerted.push('usdt');
  }
  if (health.shortOfGas && health.needed.gas !== null) {
    const sent = await sendAlertOnce(deps, `payoutWallet:gas:${health.address}:${day}`, 'payoutWalletShort', {
      short: 'gas',
      address: health.address,
      held: health.balances.gas,
      needed: health.needed.gas,
      awaiting: waiting,
      at: now.toISOString(),
    });
    if (sent) alerted.push('gas');
  }
  return alerted;
}
