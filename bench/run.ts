/**
 * `npm run bench`: figures, not verdicts.
 *  (a) The HTTP path of the production server as ratios of bare servers answering the same bytes in
 *      the same run, so the figures travel between machines; its memory and start time (http-path.ts).
 *  (b) Gzipped bytes of JavaScript the home route loads from apps/web/dist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { measureHomeBundle } from './bundle.js';
import { benchData } from './data.js';
import { benchHttpPath } from './http-path.js';

const distDir = path.resolve(import.meta.dirname, '../apps/web/dist');

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const kib = (bytes: number) => `${number(bytes / 1024, 1)} KiB`;

function benchBundle() {
  console.log('\nJavaScript loaded by the home route (apps/web/dist, each file gzipped at level 6)');
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    console.log('  apps/web/dist/index.html is missing: run `npm run build` first');
    return;
  }
  const report = measureHomeBundle(distDir);
  for (const file of report.files) {
    console.log(
      `  ${kib(file.gzipBytes).padStart(10)} gz  ${kib(file.bytes).padStart(10)} raw  ${file.file}  (${file.why})`,
    );
  }
  console.log(`  ${kib(report.gzipTotal).padStart(10)} gz  ${kib(report.rawTotal).padStart(10)} raw  total`);
  console.log(`  total gzipped bytes: ${report.gzipTotal}`);
  if (report.homeChunkFound === 'no-manifest') {
    console.log('  (no .vite/manifest.json: the home page lazy chunk is not included)');
  } else if (!report.homeChunkFound) {
    console.log('  (the manifest has no entry under features/home: no home lazy chunk counted)');
  }
}

await benchHttpPath();
benchBundle();
// The data path at a million rows (bench/data.ts): BENCH_DATABASE_URL adds PostgreSQL; BENCH_DATA=0 skips.
if (process.env.BENCH_DATA !== '0') await benchData();
