import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an exchange's API (node:http on 127.0.0.1, a free port). Each fake checks the
 * request's signature by recomputing it from the request exactly as the exchange documents it (its own
 * code, not the adapter's), serves the documented answer shapes with paging, and answers the
 * exchange's error shapes: auth failures, rate limits, 5xx, for faults a test queues.
 */

export interface FakeRequest {
  method: string;
  path: string;
  /** The query string exactly as received, without '?'. */
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** Whether the signature check passed. */
  signed: boolean;
}

export interface FakeResponse {
  status: number;
  /** JSON unless `text` is set. */
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/** A fault a test queues for the next requests: the exchange's rate-limit answer, a 5xx, an HTML 502. */
/** 'refused': the exchange's answer to a request it will not serve (a parameter error, HTTP 400). */
export type FaultKind = 'rate-limit' | 'http-429' | 'server' | 'html-502' | 'refused';

export interface FakeTrade {
  uid: string;
  at: Date;
  volume: string;
  fee: string;
  commission: string;
  /** USDT unless set. */
  coin?: string;
}

export interface FakeReferral {
  uid: string;
  registeredAt: Date;
}

export abstract class FakeExchange {
  readonly requests: FakeRequest[] = [];
  readonly referrals: FakeReferral[] = [];
  readonly trades: FakeTrade[] = [];
  private faults: FaultKind[] = [];
  private standingFault:
    | { matches: (request: Omit<FakeRequest, 'signed'>) => boolean; kind: FaultKind }
    | undefined;
  private server: Server | undefined;
  url = '';

  /** The credentials the fake accepts. */
  constructor(readonly credentials: { apiKey: string; apiSecret: string; passphrase?: string }) {}

  /** Recomputes the signature as documented; an answer (the exchange's auth error) when it is wrong. */
  protected abstract verify(request: Omit<FakeRequest, 'signed'>): FakeResponse | undefined;
  protected abstract answer(request: FakeRequest): FakeResponse;
  protected abstract faultAnswer(kind: FaultKind): FakeResponse;
  /** The exchange's answer to a request that breaks a documented limit (page size, range). */
  protected abstract refuse(message: string): FakeResponse;

  addReferral(uid: string, registeredAt: Date | string) {
    this.referrals.push({ uid, registeredAt: new Date(registeredAt) });
    return this;
  }

  addTrade(trade: Omit<FakeTrade, 'at'> & { at: Date | string }) {
    this.trades.push({ ...trade, at: new Date(trade.at) });
    return this;
  }

  /** The next requests (one per fault) get these answers instead of data. */
  queueFaults(...kinds: FaultKind[]) {
    this.faults.push(...kinds);
    return this;
  }

  /** Every request that matches gets this fault until cleared (undefined clears it). */
  failWhile(matches?: (request: Omit<FakeRequest, 'signed'>) => boolean, kind: FaultKind = 'server') {
    this.standingFault = matches ? { matches, kind } : undefined;
    return this;
  }

  /** Requests that reached the data (signed, not faulted). */
  get served() {
    return this.requests.filter((request) => request.signed);
  }

  async start(): Promise<this> {
    this.server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const target = incoming.url ?? '/';
        const mark = target.indexOf('?');
        const rawQuery = mark === -1 ? '' : target.slice(mark + 1);
        const base = {
          method: incoming.method ?? 'GET',
          path: mark === -1 ? target : target.slice(0, mark),
          rawQuery,
          query: new URLSearchParams(rawQuery),
          headers: incoming.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        let response: FakeResponse;
        const fault = this.standingFault?.matches(base) ? this.standingFault.kind : this.faults.shift();
        if (fault) {
          this.requests.push({ ...base, signed: false });
          response =
            fault === 'refused'
              ? this.refuse('the exchange refused this request (test)')
              : this.faultAnswer(fault);
        } else {
          const refusal = this.verify(base);
          const request = { ...base, signed: refusal === undefined };
          this.requests.push(request);
          try {
            response = refusal ?? this.answer(request);
          } catch (error) {
            response = this.refuse(error instanceof Error ? error.message : String(error));
          }
        }
        const text = response.text ?? JSON.stringify(response.body);
        outgoing.writeHead(response.status, {
          'content-type': response.text === undefined ? 'application/json' : 'text/html',
          ...response.headers,
        });
        outgoing.end(text);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  protected static html502(): FakeResponse {
    return { status: 502, text: '<html><body>502 Bad Gateway</body></html>' };
  }
}

/** Whether the signature sent (hex or base64 text) is the one recomputed, compared in constant time. */
export function signatureMatches(sent: string, encoding: 'hex' | 'base64', expected: Buffer): boolean {
  const given = Buffer.from(sent, encoding);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Throws (the fake answers with its refusal) when a request breaks a documented limit. */
export function requireLimit(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

/** Slices a list for page `page` (1-based) of `size`. */
export function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

/** Sums decimal strings exactly (test data only: at most 8 places, optionally signed). */
export function sumDecimals(values: readonly string[]): string {
  const scale = 8;
  const total = values.reduce((sum, value) => {
    const negative = value.startsWith('-');
    const [whole = '0', fraction = ''] = value.replace(/^[-+]/, '').split('.');
    const units = BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
    return sum + (negative ? -units : units);
  }, 0n);
  const text = (total < 0n ? -total : total).toString().padStart(scale + 1, '0');
  return `${total < 0n ? '-' : ''}${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

export const DAY = 86_400_000;

export function dayStart(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY) * DAY);
}
