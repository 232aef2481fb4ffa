import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { drainOutbox } from '../modules/mail/outbox.js';

export interface OutboxWorker {
  /** Stops polling and waits for a drain in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Polls the mail outbox in-process (started by main, stopped on shutdown). Several instances may run
 * one each: the outbox's SKIP LOCKED claim and lease keep them from sending a mail twice.
 */
export function startOutboxWorker(
  deps: AppDeps,
  options: { log: FastifyBaseLogger; intervalMs?: number },
): OutboxWorker {
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = () => {
    running = drainOutbox(deps, { log: options.log })
      .then(() => undefined)
      .catch((error: unknown) => options.log.error({ err: error }, 'outbox drain failed'))
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
