import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { SyncableExchangeAdapter } from '../../integrations/exchanges/adapter.js';
import { createExchangeAdapters } from '../../integrations/exchanges/registry.js';
import { ingestRebates, ingestReferrals, settleRebates } from '../cashback/ingest.service.js';
import type { SyncIngest } from './sync.service.js';

/**
 * The sync's one door into the cashback module: its ingest functions with the app's dependencies
 * bound, and its settlement (run after each sync so records whose settlement delay has passed are
 * paid even when no new figures arrive). `confirm` runs first in each page's transaction: an operator's
 * `sync` asks for the operator's role there (the background job passes none).
 */
export function cashbackIngest(
  deps: AppDeps,
  confirm?: (tx: Executor) => Promise<void>,
): SyncIngest & { settle(platId?: number): Promise<unknown> } {
  const asked = confirm ? { confirm } : {};
  return {
    async ingestReferrals(platId, entries, source) {
      const { inserted, alreadyKnown, restated } = await ingestReferrals(
        deps,
        platId,
        entries,
        source,
        asked,
      );
      return {
        inserted,
        alreadyKnown,
        restated: restated.map(({ uid, stored, stated }) => ({ uid, stored, stated })),
      };
    },
    async ingestRebates(platId, rows, source) {
      const { inserted, duplicates, settled, leftOut } = await ingestRebates(deps, platId, rows, source, {
        leaveOutStored: true,
        ...asked,
      });
      return { inserted, duplicates, settled, leftOut };
    },
    settle: (platId) => settleRebates(deps, platId === undefined ? {} : { platId }),
  };
}

/** The app's adapters when they can sync (built from config by main), else built from config here. */
export function syncableAdapters(
  deps: AppDeps,
  warn?: (message: string, details: Record<string, unknown>) => void,
): Map<string, SyncableExchangeAdapter> {
  const given = deps.exchangeAdapters;
  if (given && [...given.values()].every((adapter) => 'profile' in adapter)) {
    return given as Map<string, SyncableExchangeAdapter>;
  }
  return createExchangeAdapters(deps.config.exchangeApis, warn ? { warn } : {});
}
