/**
 * Export throughput: how fast the CSV export reads and writes rebate records, with no HTTP in the way
 * (the download only adds the socket). `npm run bench:export -w @elex/bench [-- <rows>]`, on embedded
 * PGlite in memory, or on PostgreSQL with BENCH_DATABASE_URL (a database it may fill and leave).
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { seedPartnerCatalog } from '../apps/server/src/db/seed/seed-catalog.js';
import { exportChunks, exportRange } from '../apps/server/src/modules/exports/exports.service.js';

const rows = Number(process.argv[2] ?? 100_000);
const url = process.env.BENCH_DATABASE_URL;
const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite' });
await seedPartnerCatalog(database.db);
const label = `bench-${Date.now()}`;
await database.db.execute(sql`
  insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
                       commission_micro, source, source_label, created_at)
  select 4, ${label} || g, '2030-01-01'::timestamptz + g * interval '1 second',
         '2030-01-01'::timestamptz + g * interval '1 second' + interval '1 hour',
         1234567890, 2345678, 1172839, 'csv', ${label}, now()
  from generate_series(1, ${rows}) g`);

const started = process.hrtime.bigint();
let bytes = 0;
let lines = 0;
for await (const chunk of exportChunks(
  database.db,
  'rebates',
  exportRange('2030-01-01', '2030-12-31'),
  2000,
)) {
  bytes += Buffer.byteLength(chunk);
  lines += chunk.split('\n').length - 1;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(
  `export of ${(lines - 1).toLocaleString('en')} rebate records (${database.kind}): ${(bytes / 1e6).toFixed(1)} MB ` +
    `in ${seconds.toFixed(1)} s = ${Math.round((lines - 1) / seconds).toLocaleString('en')} rows/s, ` +
    `heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
);
await database.close();
