import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { DatabaseHandle } from './client.js';
import { isPgPool } from './pg-pool.js';

/**
 * LISTEN on one channel of the database, on either engine, knowing at every moment whether what it
 * hears can be trusted: a connection can drop, or stop receiving, without a word. A cache that is
 * evicted by notifications must be told, so it can stop keeping answers until they arrive again.
 */

export interface ChangeEvents {
  /** A notification's payload (the listener's own heartbeats are not passed on). */
  message(payload: string): void;
  /** Notifications arrive (again): from now on none is missed. */
  listening(): void;
  /** Notifications may have been missed since some time before this call. */
  lost(error: unknown): void;
}

export interface ChangeListener {
  /** True while every notification sent on the channel reaches `message`. */
  readonly listening: boolean;
  /** Times the listener was lost since it started (operators' logs and tests read it). */
  readonly losses: number;
  close(): Promise<void>;
}

export interface ChangeListenerOptions {
  /** How often a heartbeat (a NOTIFY from the listening session) proves that notifications arrive. */
  heartbeatMs: number;
  /** The first reconnection waits this long, each next one twice as long, up to RETRY_MAX_MS. */
  retryMs: number;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
}

const RETRY_MAX_MS = 30_000;
const HEARTBEAT = 'heartbeat:';

/** The one session that LISTENs: a connection of its own on PostgreSQL, the only session of PGlite. */
interface Link {
  /** Opens the session and LISTENs; `dropped` is called if the session goes away by itself. */
  open(deliver: (payload: string) => void, dropped: (error: unknown) => void): Promise<void>;
  /** NOTIFYs the channel from that session; rejects after `timeoutMs` on a session that hangs. */
  notify(payload: string): Promise<void>;
  close(): Promise<void>;
  /** How long a NOTIFY may take before the session counts as hung (none in-process). */
  readonly statementTimeoutMs: number | undefined;
}

/**
 * Starts listening and answers once the first attempt succeeded or failed (it retries in the
 * background then). On PostgreSQL what the pooled connections hear is passed on too: a change this
 * process commits reaches `message` before the code that committed goes on (member-changes-channel.ts).
 */
export async function listenForChanges(
  handle: DatabaseHandle,
  channel: string,
  events: ChangeEvents,
  options: ChangeListenerOptions,
): Promise<ChangeListener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  const client = (handle.db as { $client?: unknown }).$client;
  let listener: Listener;
  if (isPgPool(client)) {
    const stopPooled = hearPooledConnections(client, channel, (payload) => listener.receive(payload));
    listener = new Listener(postgresLink(client, channel, options.heartbeatMs), events, options, stopPooled);
  } else if (handle.kind === 'pglite' && client) {
    // By the handle's kind, not instanceof: PGlite is not loaded on PostgreSQL (client.ts).
    listener = new Listener(pgliteLink(client as PGlite, channel), events, options);
  } else {
    throw new Error('listenForChanges needs a database handle from openDatabase');
  }
  await listener.start();
  return listener;
}

class Listener implements ChangeListener {
  #listening = false;
  #closed = false;
  #losses = 0;
  /** Bumped by every attempt and every loss: what an older attempt reports afterwards is stale. */
  #attempt = 0;
  #failures = 0;
  #closing: Promise<void> = Promise.resolve();
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #beating = false;
  /** Other instances hear this process's heartbeats too: the nonce tells ours apart. */
  readonly #nonce = randomBytes(6).toString('hex');
  #beats = 0;
  readonly #waiting = new Map<string, () => void>();

  constructor(
    private readonly link: Link,
    private readonly events: ChangeEvents,
    private readonly options: ChangeListenerOptions,
    private readonly stopPooled: () => void = () => {},
  ) {}

  get listening(): boolean {
    return this.#listening;
  }

  get losses(): number {
    return this.#losses;
  }

  receive(payload: string): void {
    if (this.#closed) return;
    if (payload.startsWith(HEARTBEAT)) {
      this.#waiting.get(payload)?.();
      return;
    }
    this.events.message(payload);
  }

  async start(): Promise<void> {
    await this.#establish();
    this.#heartbeat = setInterval(() => void this.#beat(), this.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#retry);
    this.stopPooled();
    await this.#closing;
    await within(this.link.close(), this.options.heartbeatMs, 'closing').catch(() => {});
  }

  async #establish(): Promise<void> {
    this.#attempt += 1;
    const attempt = this.#attempt;
    try {
      await this.#closing;
      if (this.#closed) return;
      await this.link.open(
        (payload) => this.receive(payload),
        (error) => this.#lose(attempt, error),
      );
      // Closed while it opened: close() may have come before the connection existed.
      if (this.#closed) {
        await this.link.close().catch(() => {});
        return;
      }
      // LISTEN answered is not yet proof: a heartbeat coming back is.
      await this.#roundTrip();
      if (this.#closed || attempt !== this.#attempt) return;
      this.#listening = true;
      if (this.#failures > 0)
        this.options.log.info({ after: this.#failures }, 'member changes: listening again');
      this.#failures = 0;
      this.events.listening();
    } catch (error) {
      this.#lose(attempt, error);
    }
  }

  #lose(attempt: number, error: unknown): void {
    if (this.#closed || attempt !== this.#attempt) return;
    this.#attempt += 1;
    const wasListening = this.#listening;
    this.#listening = false;
    if (wasListening) this.#losses += 1;
    this.events.lost(error);
    if (wasListening || this.#failures === 0) {
      this.options.log.warn(
        { err: error },
        'member changes: not listening; answers are read from the database until it listens again',
      );
    }
    // Bounded: ending a connection whose peer is gone can wait for an answer that never comes.
    this.#closing = within(this.link.close(), this.options.heartbeatMs, 'closing').catch(() => {});
    const delay = Math.min(RETRY_MAX_MS, this.options.retryMs * 2 ** this.#failures);
    this.#failures += 1;
    // Jitter: several instances that lost the database together do not reconnect in step.
    this.#retry = setTimeout(() => void this.#establish(), delay * (0.5 + Math.random() / 2));
    this.#retry.unref();
  }

  async #beat(): Promise<void> {
    if (this.#closed || !this.#listening || this.#beating) return;
    const attempt = this.#attempt;
    this.#beating = true;
    try {
      await this.#roundTrip();
    } catch (error) {
      this.#lose(attempt, error);
    } finally {
      this.#beating = false;
    }
  }

  /** NOTIFYs a heartbeat from the listening session and waits for it to come back. */
  async #roundTrip(): Promise<void> {
    this.#beats += 1;
    const payload = `${HEARTBEAT}${this.#nonce}:${this.#beats}`;
    const back = new Promise<void>((resolve) => this.#waiting.set(payload, resolve));
    try {
      await within(
        this.link.notify(payload),
        this.link.statementTimeoutMs,
        'the listening session does not answer',
      );
      // A session hears its own notification before its statement returns; the wait is a margin.
      await within(back, this.options.heartbeatMs, 'a heartbeat sent on the channel did not come back');
    } finally {
      this.#waiting.delete(payload);
    }
  }
}

function within<T>(promise: Promise<T>, ms: number | undefined, message: string): Promise<T> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function postgresLink(pool: pg.Pool, channel: string, statementTimeoutMs: number): Link {
  let client: pg.Client | undefined;
  return {
    statementTimeoutMs,
    async open(deliver, dropped) {
      // Already loaded with the pool (db/postgres.ts); imported here so PGlite never loads it.
      const { default: driver } = await import('pg');
      const next = new driver.Client({
        ...pool.options,
        // Operators find it in pg_stat_activity; keepAlive notices a peer that vanished.
        application_name: 'elex member-changes listener',
        keepAlive: true,
      });
      client = next;
      let gone = false;
      const drop = (error: unknown) => {
        if (gone) return;
        gone = true;
        dropped(error);
      };
      next.on('error', drop);
      next.on('end', () => drop(new Error('the listening connection ended')));
      next.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) deliver(message.payload);
      });
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    },
    async notify(payload) {
      if (!client) throw new Error('the listening connection is closed');
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      const closing = client;
      client = undefined;
      await closing?.end();
    },
  };
}

/** What the pooled connections hear (they LISTEN from their start: db/member-changes-channel.ts). */
function hearPooledConnections(
  pool: pg.Pool,
  channel: string,
  deliver: (payload: string) => void,
): () => void {
  const onNotification = (message: pg.Notification) => {
    if (message.channel === channel && message.payload !== undefined) deliver(message.payload);
  };
  // pg's types list the pool's own events only; 'notification' is ours.
  const events: EventEmitter = pool;
  events.on('notification', onNotification);
  return () => {
    events.off('notification', onNotification);
  };
}

function pgliteLink(client: PGlite, channel: string): Link {
  let unlisten: (() => Promise<void>) | undefined;
  return {
    statementTimeoutMs: undefined,
    async open(deliver) {
      unlisten = await client.listen(channel, deliver);
    },
    async notify(payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      const closing = unlisten;
      unlisten = undefined;
      // Only this callback: two apps on one PGlite (tests) each have their own.
      await closing?.();
    },
  };
}
