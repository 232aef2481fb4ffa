import { buildApp } from './app.js';
import { ConfigError, checkServerConfig, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { lockDataDir } from './db/data-dir-lock.js';
import { seedPartnerCatalog } from './db/seed/seed-catalog.js';
import { createExchangeAdapters } from './integrations/exchanges/registry.js';
import { startOutboxWorker } from './jobs/outbox-worker.js';
import { type PayoutTracker, startPayoutTracker } from './jobs/payout-tracker.js';
import { alertAfterSyncRun, dailyAlertsTask } from './modules/alerts/alerts.service.js';
import { reportPartnersNotReady } from './modules/exchanges/exchanges.service.js';
import { housekeepingTask } from './modules/housekeeping/housekeeping.service.js';
import { type SyncJob, startSyncJob } from './modules/sync/sync.job.js';
import { cashbackIngest } from './modules/sync/sync.wiring.js';
import { type OpsSocket, startOpsSocket } from './ops/ops-socket.js';

/**
 * On embedded PGlite the background runner's first round (housekeeping, the daily alerts, the exchanges
 * due at start) waits this long after the server answers: PGlite runs statements on this thread, and
 * that round held the first /healthz for about a second (docs/decisions.md, "Cold start on PGlite").
 */
const FIRST_ROUND_AFTER_MS = 10_000;

/** Reads config, migrates, listens; closes with grace on SIGINT/SIGTERM. */
async function main() {
  const config = loadConfig();
  checkServerConfig(config);
  const unlock = config.database.kind === 'pglite' ? lockDataDir(config.database.dataDir) : () => {};
  const database = await openDatabase(config.database);
  // One adapter per configured exchange API, shared by live UID checks and the sync (one rate limiter each).
  const exchangeAdapters = createExchangeAdapters(config.exchangeApis, {
    warn: (message, details) => app.log.warn(details, message),
  });
  const app = await buildApp({ config, database, exchangeAdapters });
  // First start only: afterwards the catalog belongs to the operators (see seed-catalog.ts).
  const seeded = await seedPartnerCatalog(database.db);
  if (seeded > 0) app.log.info({ exchanges: seeded }, 'seeded the partner catalog');
  await reportPartnersNotReady(database.db, config.env, app.log);
  // Embedded PGlite: operator commands run here, beside the requests (ops/ops-socket.ts).
  const opsSocket =
    config.database.kind === 'pglite' ? await openOpsSocket(config.database.dataDir) : undefined;
  const outboxWorker = startOutboxWorker(app.deps, { log: app.log.child({ job: 'mail-outbox' }) });
  let syncJob: Promise<SyncJob> | undefined;
  // On-chain payouts only with a key (docs/withdrawals.md, "On-chain payouts"); the wallet's address
  // is logged, never its key.
  let payoutTracker: PayoutTracker | undefined;
  if (config.payouts.enabled) {
    payoutTracker = startPayoutTracker(app.deps, { log: app.log.child({ job: 'payout-tracker' }) });
    app.log.info(
      {
        wallet: (await config.payouts.account()).address,
        chainId: config.payouts.chainId,
        token: config.payouts.tokenAddress,
        confirmations: config.payouts.confirmations,
      },
      'on-chain payouts on',
    );
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await opsSocket?.stop();
      // One still starting is stopped once started; one that failed to start has nothing to stop.
      await (await syncJob?.catch(() => undefined))?.stop();
      await outboxWorker.stop();
      await payoutTracker?.stop();
      await app.close();
      await database.close();
    } finally {
      unlock();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ url: config.appUrl, database: database.kind }, 'elex is serving');
  // This instance's clock against the database's, now and every minute (app.close() stops it).
  app.clockSkew.start();

  // The sync starts once the server answers: on PostgreSQL its queue (pg-boss) takes a tenth of a
  // start, and nothing a request does waits for it.
  // Its runner also carries the daily housekeeping, so it starts even when no exchange syncs.
  const ingest = cashbackIngest(app.deps);
  if (closing) return;
  syncJob = startSyncJob(
    {
      ...app.deps,
      ingest,
      ...(config.sync.enabled ? { settle: () => ingest.settle() } : {}),
      adapters: config.sync.enabled ? exchangeAdapters : new Map(),
      log: app.log.child({ job: 'exchange-sync' }),
      afterRun: (summary) => alertAfterSyncRun(app.deps, summary),
      tasks: [
        housekeepingTask(app.deps, app.log.child({ job: 'housekeeping' })),
        dailyAlertsTask(app.deps, app.log.child({ job: 'daily-alerts' })),
      ],
    },
    {
      intervalMinutes: config.sync.intervalMinutes,
      backfillDays: config.sync.backfillDays,
      firstRoundAfterMs: FIRST_ROUND_AFTER_MS,
    },
  );
  const { kind: runner } = await syncJob;
  if (config.sync.enabled) {
    app.log.info(
      {
        exchanges: [...exchangeAdapters.keys()],
        runner,
        everyMinutes: config.sync.intervalMinutes,
      },
      'exchange sync started',
    );
  }

  /** Serving matters more than the commands: without the socket the CLI says so and waits for a stop. */
  async function openOpsSocket(dataDir: string): Promise<OpsSocket | undefined> {
    const log = app.log.child({ job: 'operator-commands' });
    try {
      return await startOpsSocket(app.deps, dataDir, log);
    } catch (error) {
      log.warn({ err: error }, 'operator commands cannot reach this server (stop it to run them)');
      return undefined;
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
