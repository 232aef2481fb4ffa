import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rowsOf } from '../../db/rows.js';
import { type AlertDeps, sendAlertOnce } from '../alerts/alerts.service.js';

/** How often a serving instance compares its clock with the database's (docs/operations.md, "Clock skew"). */
const CLOCK_SKEW_CHECK_MS = 60_000;

/** One comparison of this instance's clock (`deps.clock`) with the database's. */
export interface ClockSkewReading {
  /** This instance's clock minus the database's, at the round trip's midpoint: positive = ahead. */
  skewMs: number;
  /** The round trip of the one `select clock_timestamp()`; the reading is exact to half of it. */
  roundTripMs: number;
  /** `|skewMs|` above `config.alerts.clockSkewMs` (ALERT_CLOCK_SKEW_MS). */
  skewed: boolean;
  /** The database's time of the reading. */
  measuredAt: string;
}

/**
 * Every instance stamps bindings, deletions, unbinds and credits with its own clock, and takes the
 * check-in day from it; instances sharing one PostgreSQL agree only as well as their clocks do
 * (docs/decisions.md, "Clock skew"). This watch measures the difference against the database, the
 * one clock they share: at start and every minute (main.ts), kept for `/healthz`; above the bound it
 * logs an error and alerts the operators, once per host and UTC day of the database.
 */
export class ClockSkewWatch {
  latest: ClockSkewReading | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly deps: AlertDeps,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'info' | 'warn'>,
    private readonly host = os.hostname(),
  ) {}

  /** Reads both clocks once, keeps the reading, and logs and alerts when it is out of bounds. */
  async measure(): Promise<ClockSkewReading> {
    const before = this.deps.clock.now().getTime();
    const [row] = rowsOf<{ ms: string | number }>(
      await this.deps.db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`),
    );
    const after = this.deps.clock.now().getTime();
    const databaseMs = Number(row?.ms);
    const skewMs = Math.round((before + after) / 2 - databaseMs);
    const thresholdMs = this.deps.config.alerts.clockSkewMs;
    const reading: ClockSkewReading = {
      skewMs,
      roundTripMs: after - before,
      skewed: Math.abs(skewMs) > thresholdMs,
      measuredAt: new Date(databaseMs).toISOString(),
    };
    const was = this.latest;
    this.latest = reading;
    if (reading.skewed) {
      this.log.error(
        { job: 'clock-skew', host: this.host, skewMs, thresholdMs, roundTripMs: reading.roundTripMs },
        `this instance's clock is ${skewMs} ms ${skewMs > 0 ? 'ahead of' : 'behind'} the database's (more than ${thresholdMs} ms): fix its time synchronisation`,
      );
      await sendAlertOnce(
        this.deps,
        `clockSkew:${this.host}:${reading.measuredAt.slice(0, 10)}`,
        'clockSkew',
        {
          host: this.host,
          skewMs,
          thresholdMs,
          instanceAt: new Date(Math.round((before + after) / 2)).toISOString(),
          at: reading.measuredAt,
        },
      );
    } else if (was?.skewed) {
      this.log.info({ job: 'clock-skew', host: this.host, skewMs, thresholdMs }, 'clock back within bounds');
    }
    return reading;
  }

  /** Measures now and then every `everyMs`; the timer never keeps the process alive. */
  start(everyMs = CLOCK_SKEW_CHECK_MS): void {
    if (this.timer) return;
    const tick = () => {
      // One at a time: a database slower than the interval must not pile readings up.
      if (this.running) return;
      this.running = this.measure()
        .catch((error: unknown) =>
          this.log.warn({ job: 'clock-skew', err: error }, 'could not compare the clock with the database'),
        )
        .finally(() => {
          this.running = undefined;
        });
    };
    this.timer = setInterval(tick, everyMs);
    this.timer.unref();
    tick();
  }

  /** Stops the timer and waits for a reading under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
