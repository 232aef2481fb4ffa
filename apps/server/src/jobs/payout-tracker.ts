import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { sendFastLane } from '../modules/payouts/payouts.fast-lane.js';
import { scanWalletTransfers } from '../modules/payouts/payouts.reconciliation.js';
import { trackPayouts } from '../modules/payouts/payouts.track.js';
import { alertIfWalletShort } from '../modules/payouts/payouts.wallet.js';

/**
 * How often the tracker also looks at the wallet: its balances for the operators' alert, and its new
 * transfers for the reconciliation (at most SCAN_CHUNKS_PER_CHECK getLogs calls each time).
 */
const WALLET_CHECK_MS = 60_000;
const SCAN_CHUNKS_PER_CHECK = 25;

export interface PayoutTracker {
  /** Stops polling and waits for a pass in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Follows on-chain payouts in-process (started by main when a payout key is configured): broadcasts
 * what is recorded, replaces what is stuck, completes what is final. Several instances may each run
 * one: SKIP LOCKED and a lease keep them off one payout, and each step is idempotent. Its first pass
 * runs at once, so a restart re-broadcasts what a crash left recorded but unsent. After each pass the
 * fast lane (when configured) sends what qualifies (payouts.fast-lane.ts). Every
 * WALLET_CHECK_MS it also checks that the wallet's USDT and gas cover what waits (alerting if not), and
 * reads the wallet's new transfers for the reconciliation (docs/withdrawals.md).
 */
export function startPayoutTracker(
  deps: AppDeps,
  options: { log: FastifyBaseLogger; intervalMs?: number; walletCheckMs?: number },
): PayoutTracker {
  const intervalMs = options.intervalMs ?? (deps.config.payouts.enabled ? deps.config.payouts.pollMs : 5_000);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const walletCheckMs = options.walletCheckMs ?? WALLET_CHECK_MS;
  let walletCheckedAt = Number.NEGATIVE_INFINITY;

  const checkWallet = async () => {
    if (Date.now() - walletCheckedAt < walletCheckMs) return;
    walletCheckedAt = Date.now();
    const alerted = await alertIfWalletShort(deps);
    if (alerted.length > 0) options.log.warn({ short: alerted }, 'payout wallet short: operators alerted');
    const scan = await scanWalletTransfers(deps, { maxChunks: SCAN_CHUNKS_PER_CHECK });
    if (scan.found > 0) options.log.info(scan, 'payout wallet transfers read');
  };

  const tick = () => {
    running = trackPayouts(deps)
      .then((summary) => {
        const { looked, ...steps } = summary;
        if (Object.values(steps).some((count) => count > 0)) options.log.info(summary, 'payouts tracked');
      })
      .then(() => sendFastLane(deps))
      .then((lane) => {
        if (lane.sent > 0) options.log.info(lane, 'fast lane sent');
      })
      .then(checkWallet)
      .catch((error: unknown) => options.log.error({ err: error }, 'payout tracking failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
