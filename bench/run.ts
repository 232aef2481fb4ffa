/**
 * `npm run bench`: figures, not verdicts.
 *  (a) HTTP throughput of the app (built with buildApp, in-memory PGlite) as a ratio of a bare node:http
 *      JSON server measured in the same run, so the figure travels between machines.
 *  (b) Gzipped bytes of JavaScript the home route loads from apps/web/dist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { measureHomeBundle } from './bundle.js';
import { benchData } from './data.js';
import { type LoadResult, measure, startTarget } from './http.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const distDir = path.resolve(import.meta.dirname, '../apps/web/dist');

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const kib = (bytes: number) => `${number(bytes / 1024, 1)} KiB`;
const line = (label: string, result: LoadResult) =>
  `  ${label.padEnd(34)} ${number(result.requestsPerSecond).padStart(8)} req/s   p50 ${result.latencyP50Ms} ms   p99 ${result.latencyP99Ms} ms` +
  (result.non2xx || result.errors ? `   (non-2xx ${result.non2xx}, errors ${result.errors})` : '');

async function benchHttp() {
  console.log(
    `HTTP throughput (autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after a 1 s warm-up, loopback)`,
  );
  const bare = await startTarget('bare');
  let baseline: LoadResult;
  try {
    baseline = await measure(`${bare.url}/healthz`, {
      durationSeconds: DURATION_SECONDS,
      connections: CONNECTIONS,
    });
  } finally {
    await bare.stop();
  }
  console.log(line('bare node:http JSON (baseline)', baseline));

  const app = await startTarget('app');
  try {
    const health = await measure(`${app.url}/healthz`, {
      durationSeconds: DURATION_SECONDS,
      connections: CONNECTIONS,
    });
    console.log(line('app GET /healthz', health));

    const probe = await fetch(`${app.url}/elex/exchange/index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', lang: 'en' },
      body: '{}',
    }).then(
      async (response) => ({
        status: response.status,
        state: ((await response.json()) as { state?: unknown }).state,
      }),
      (error: unknown) => ({ status: 0, state: String(error) }),
    );
    let exchangeIndex: LoadResult | undefined;
    if (probe.status === 200 && probe.state === 0) {
      exchangeIndex = await measure(`${app.url}/elex/exchange/index`, {
        method: 'POST',
        body: {},
        durationSeconds: DURATION_SECONDS,
        connections: CONNECTIONS,
      });
      console.log(line('app POST /elex/exchange/index', exchangeIndex));
    } else {
      console.log(
        `  app POST /elex/exchange/index      not there yet (HTTP ${probe.status}, state ${String(probe.state)})`,
      );
    }

    console.log('  ratio to the bare server:');
    console.log(
      `    GET /healthz                   ${number(health.requestsPerSecond / baseline.requestsPerSecond, 3)}`,
    );
    if (exchangeIndex) {
      console.log(
        `    POST /elex/exchange/index      ${number(exchangeIndex.requestsPerSecond / baseline.requestsPerSecond, 3)}`,
      );
    }
  } finally {
    await app.stop();
  }
}

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

await benchHttp();
benchBundle();
// The data path at a million rows (bench/data.ts): BENCH_DATABASE_URL adds PostgreSQL; BENCH_DATA=0 skips.
if (process.env.BENCH_DATA !== '0') await benchData();
