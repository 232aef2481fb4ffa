import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, newOperator } from '../admin/test-support.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { exportLink } from './test-support.js';

// A full collection on demand: what the heap holds after it is what the export keeps alive.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * An export of many rows streams: the server reads a page, writes it, and reads the next once the
 * socket took it, so its heap holds a page or two whatever the row count. Measured over a real socket
 * (inject would buffer the whole body in this process): the heap's peak above where it started while
 * 200,000 rebate records download must not be anywhere near ten times the peak for 20,000.
 */
const SMALL = 20_000;
const LARGE = 200_000;

let ctx: CashbackTestContext;
let operator: Caller;
let origin: string;

/** Rebate records with one period each, a second apart from `day` on. */
async function insertRebates(count: number, day: string, prefix: string) {
  await ctx.db.execute(sql`
    insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
                         commission_micro, source, source_label, created_at)
    select ${BITGET}, ${prefix} || g, ${day}::timestamptz + g * interval '1 second',
           ${day}::timestamptz + g * interval '1 second' + interval '1 hour',
           1234567890, 2345678, 1172839, 'csv', 'streaming test =cmd', now()
    from generate_series(1, ${count}) g`);
}

interface Download {
  bytes: number;
  chunks: number;
  lines: number;
  /** Bytes received when the first chunk arrived. */
  firstChunkBytes: number;
  /** The most the live heap (measured after a full collection) grew while it downloaded. */
  peakHeapGrowth: number;
  ms: number;
}

const liveHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

function download(url: string): Promise<Download> {
  const started = Date.now();
  const before = liveHeap();
  let peak = before;
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${url}`, (res) => {
        if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
        const result: Download = {
          bytes: 0,
          chunks: 0,
          lines: 0,
          firstChunkBytes: 0,
          peakHeapGrowth: 0,
          ms: 0,
        };
        res.on('data', (chunk: Buffer) => {
          result.chunks += 1;
          result.bytes += chunk.length;
          if (result.chunks === 1) result.firstChunkBytes = chunk.length;
          // Counting line ends keeps nothing: the body is dropped chunk by chunk, as a disk write would.
          for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) {
            result.lines += 1;
          }
          // Measured every 40 chunks (a full collection each time would make the test crawl).
          if (result.chunks % 40 === 0) peak = Math.max(peak, liveHeap());
        });
        res.on('end', () => resolve({ ...result, peakHeapGrowth: peak - before, ms: Date.now() - started }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-04-01T00:00:00Z'));
  operator = await newOperator(ctx);
  const started = Date.now();
  await insertRebates(SMALL, '2026-01-01', 'S');
  await insertRebates(LARGE, '2026-02-01', 'L');
  console.info(`export streaming: ${SMALL + LARGE} rebate records inserted in ${Date.now() - started} ms`);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}, 300_000);
afterAll(() => ctx?.close());

describe('a large export', () => {
  it(`streams ${LARGE.toLocaleString('en')} rows in constant memory`, async () => {
    // A first small one warms the code paths, so neither measured run pays for compiling them.
    await download(await exportLink(ctx, operator, 'rebates', '2026-01-01', '2026-01-01'));
    const small = await download(await exportLink(ctx, operator, 'rebates', '2026-01-01', '2026-01-01'));
    const large = await download(await exportLink(ctx, operator, 'rebates', '2026-02-01', '2026-02-05'));
    console.info(
      `export streaming: ${SMALL} rows ${(small.bytes / 1e6).toFixed(1)} MB in ${small.chunks} chunks, ` +
        `heap +${(small.peakHeapGrowth / 1e6).toFixed(1)} MB; ${LARGE} rows ${(large.bytes / 1e6).toFixed(1)} MB ` +
        `in ${large.chunks} chunks, heap +${(large.peakHeapGrowth / 1e6).toFixed(1)} MB, ${large.ms} ms`,
    );
    expect(small.lines).toBe(SMALL + 1);
    expect(large.lines).toBe(LARGE + 1);
    // Many chunks, the first one small: the file left page by page, not as one body at the end.
    expect(large.chunks).toBeGreaterThan(LARGE / 2000);
    expect(large.firstChunkBytes).toBeLessThan(large.bytes / 50);
    // Ten times the rows, nowhere near ten times the memory, and far below the file's own size.
    expect(large.peakHeapGrowth).toBeLessThan(Math.max(3 * small.peakHeapGrowth, 16e6));
    expect(large.peakHeapGrowth).toBeLessThan(large.bytes / 2);
  }, 300_000);
});
