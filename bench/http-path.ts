/**
 * The server's request path against bare servers answering the same bytes, in one run (issue 14):
 * every scenario is measured in interleaved rounds (app, bare, bare, app, ...) so a machine whose load
 * drifts shifts both sides alike; each round gives one ratio, printed as the median and min–max.
 * Then resident memory after that load and the time from spawn to the first /healthz answer, against a
 * bare Fastify.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchColdStart, printStartGraph } from './cold-start.js';
import {
  appCommand,
  benchDatabase,
  repoRoot,
  type ServerProcess,
  startApp,
  startBaseline,
} from './processes.js';
import { type Spread, spread } from './spread.js';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

interface Scenario {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  /** What the client sends: none, or what a browser that takes brotli sends. */
  acceptEncoding?: 'br';
  /** Also measure a bare Fastify answering the same bytes: what the framework alone costs. */
  withFastify?: boolean;
}

interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Load {
  requestsPerSecond: number;
  p99Ms: number;
  failures: number;
  /**
   * Server CPU time per answer. Less moved by other processes than req/s on a shared machine (a
   * server waiting for a core loses throughput, not CPU per request).
   */
  cpuMicrosPerRequest: number;
}

function largestScript(): string | undefined {
  const assets = path.join(repoRoot, 'apps/web/dist/assets');
  if (!fs.existsSync(assets)) return undefined;
  const scripts = fs
    .readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, size: fs.statSync(path.join(assets, name)).size }))
    .sort((a, b) => b.size - a.size);
  return scripts[0] && `/assets/${scripts[0].name}`;
}

function scenarios(): Scenario[] {
  const list: Scenario[] = [
    { label: 'POST /elex/exchange/index', method: 'POST', path: '/elex/exchange/index', withFastify: true },
    {
      label: 'POST /elex/exchange/index, br',
      method: 'POST',
      path: '/elex/exchange/index',
      acceptEncoding: 'br',
    },
    { label: 'GET / (index.html), br', method: 'GET', path: '/', acceptEncoding: 'br' },
  ];
  const script = largestScript();
  if (script) list.push({ label: `GET ${script}, br`, method: 'GET', path: script, acceptEncoding: 'br' });
  return list;
}

function requestHeaders(scenario: Scenario): Record<string, string> {
  return {
    ...(scenario.method === 'POST' ? { 'content-type': 'application/json', lang: 'en' } : {}),
    ...(scenario.acceptEncoding ? { 'accept-encoding': scenario.acceptEncoding } : {}),
  };
}

/** The app's answer as bytes on the wire (no decompression), so the baseline can send the very same. */
function record(url: string, scenario: Scenario): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}${scenario.path}`,
      { method: scenario.method, headers: requestHeaders(scenario), agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers: Record<string, string> = {};
          for (const name of ['content-type', 'content-encoding']) {
            const value = response.headers[name];
            if (typeof value === 'string') headers[name] = value;
          }
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    request.on('error', reject);
    request.end(scenario.method === 'POST' ? '{}' : undefined);
  });
}

async function measure(target: ServerProcess, scenario: Scenario, seconds = DURATION_SECONDS): Promise<Load> {
  const options = {
    url: `${target.url}${scenario.path}`,
    method: scenario.method,
    headers: requestHeaders(scenario),
    connections: CONNECTIONS,
    ...(scenario.method === 'POST' ? { body: '{}' } : {}),
  };
  await autocannon({ ...options, duration: 1 });
  const cpuBefore = target.cpuMs();
  const result = await autocannon({ ...options, duration: seconds });
  const cpuMs = target.cpuMs() - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMicrosPerRequest: (cpuMs * 1000) / Math.max(1, result.requests.total),
  };
}

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (value: Spread) =>
  `${number(value.median, 2)} [${number(value.min, 2)}–${number(value.max, 2)}]`;
const mib = (bytes: number) => `${number(bytes / 1024 / 1024)} MiB`;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

export async function benchHttpPath() {
  console.log(
    `HTTP path: autocannon -c ${CONNECTIONS}, ${DURATION_SECONDS} s after a 1 s warm-up, ${ROUNDS} interleaved rounds`,
  );
  console.log(
    `  machine: ${os.cpus().length} cores, load average ${loadAverage()} (1, 5, 15 min) at the start`,
  );
  const database = await benchDatabase();
  console.log(
    `  app: ${appCommand().label}, NODE_ENV=production, LOG_LEVEL=warn (no access log lines), on ${database.label}`,
  );
  const list = scenarios();
  const recordedFile = path.join(os.tmpdir(), `elex-bench-answers-${process.pid}.json`);
  let app: (ServerProcess & { startMs: number }) | undefined;
  const baselines: ServerProcess[] = [];
  try {
    app = await startApp(database);
    const answers = new Map<string, { method: string; path: string; variants: Record<string, unknown> }>();
    const encodings: string[] = [];
    for (const scenario of list) {
      // Each route's plain answer too: the baseline falls back to it like the app does.
      for (const variant of scenario.acceptEncoding ? [undefined, scenario.acceptEncoding] : [undefined]) {
        const answer = await record(app.url, { ...scenario, acceptEncoding: variant });
        if (answer.status !== 200) {
          throw new Error(`${scenario.label}: the app answered HTTP ${answer.status}, not 200`);
        }
        const key = `${scenario.method} ${scenario.path}`;
        const route = answers.get(key) ?? { method: scenario.method, path: scenario.path, variants: {} };
        route.variants[variant ?? 'identity'] = {
          headers: answer.headers,
          body: answer.body.toString('base64'),
        };
        answers.set(key, route);
        if (variant === scenario.acceptEncoding) {
          encodings.push(
            `${answer.body.length.toLocaleString('en-US')} bytes ${answer.headers['content-encoding'] ?? 'identity'}`,
          );
        }
      }
    }
    fs.writeFileSync(recordedFile, JSON.stringify([...answers.values()]));
    const bare = await startBaseline('bare-http', recordedFile);
    const fastify = await startBaseline('bare-fastify', recordedFile);
    baselines.push(bare, fastify);

    const rows = list.map(() => ({ app: [] as Load[], bare: [] as Load[], fastify: [] as Load[] }));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, scenario] of list.entries()) {
        const row = rows[index];
        if (!row) continue;
        const order: Array<['app' | 'bare' | 'fastify', ServerProcess]> = [
          ['app', app],
          ['bare', bare],
        ];
        if (scenario.withFastify) order.push(['fastify', fastify]);
        if (round % 2 === 1) order.reverse();
        for (const [side, target] of order) row[side].push(await measure(target, scenario));
      }
    }

    console.log(
      `\n  ${'request'.padEnd(44)} ${'answer'.padEnd(22)} ${'app req/s'.padStart(10)} ${'bare req/s'.padStart(10)}  app p99   req/s ratio to bare   CPU µs per answer app/bare, ratio bare/app`,
    );
    console.log('  (ratios: median [min–max] of the rounds)');
    for (const [index, scenario] of list.entries()) {
      const row = rows[index];
      if (!row) continue;
      const ratios = row.app.map(
        (load, round) => load.requestsPerSecond / (row.bare[round]?.requestsPerSecond ?? 1),
      );
      const appRate = spread(row.app.map((load) => load.requestsPerSecond));
      const bareRate = spread(row.bare.map((load) => load.requestsPerSecond));
      const p99 = spread(row.app.map((load) => load.p99Ms));
      const failures = row.app.reduce((sum, load) => sum + load.failures, 0);
      const appCpu = spread(row.app.map((load) => load.cpuMicrosPerRequest));
      const bareCpu = spread(row.bare.map((load) => load.cpuMicrosPerRequest));
      const cpuRatios = row.app.map(
        (load, round) => (row.bare[round]?.cpuMicrosPerRequest ?? 0) / load.cpuMicrosPerRequest,
      );
      console.log(
        `  ${scenario.label.padEnd(44)} ${(encodings[index] ?? '').padEnd(22)} ${number(appRate.median).padStart(10)} ${number(bareRate.median).padStart(10)}  ${`${number(p99.median)} ms`.padStart(7)}   ${ratio(spread(ratios)).padEnd(19)} ${`${number(appCpu.median)}/${number(bareCpu.median)}`.padStart(9)}, ${ratio(spread(cpuRatios))}` +
          (failures ? `   (${failures} non-2xx or errors)` : ''),
      );
      if (row.fastify.length > 0) {
        const fastifyRatios = row.fastify.map(
          (load, round) => load.requestsPerSecond / (row.bare[round]?.requestsPerSecond ?? 1),
        );
        const fastifyCpuRatios = row.fastify.map(
          (load, round) => (row.bare[round]?.cpuMicrosPerRequest ?? 0) / load.cpuMicrosPerRequest,
        );
        const fastifyCpu = spread(row.fastify.map((load) => load.cpuMicrosPerRequest));
        console.log(
          `  ${'  the same bytes from a bare Fastify'.padEnd(44)} ${''.padEnd(22)} ${number(spread(row.fastify.map((load) => load.requestsPerSecond)).median).padStart(10)} ${''.padStart(10)}  ${''.padStart(7)}   ${ratio(spread(fastifyRatios)).padEnd(19)} ${number(fastifyCpu.median).padStart(9)}, ${ratio(spread(fastifyCpuRatios))}`,
        );
      }
    }

    const appMemory = app.memory();
    const fastifyMemory = fastify.memory();
    console.log(
      `\n  resident memory after the load: app ${mib(appMemory.rss)} (peak ${mib(appMemory.peak)}), ` +
        `bare Fastify ${mib(fastifyMemory.rss)} (peak ${mib(fastifyMemory.peak)}), bare node:http ${mib(bare.memory().rss)}`,
    );
  } finally {
    await app?.stop();
    for (const baseline of baselines) await baseline.stop();
    fs.rmSync(recordedFile, { force: true });
  }

  try {
    // The data is there already (migrated, catalog seeded): a restart, as after a deploy.
    await printStartGraph();
    await benchColdStart(database);
  } finally {
    await database.drop();
  }
  console.log(`  load average ${loadAverage()} at the end`);
}
