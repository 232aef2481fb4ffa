/**
 * The server's cold start against a bare Fastify (issue 14: ≤ 600 ms, production runs the build):
 *  - the bytes of built JavaScript main.js loads statically before its first line runs (deterministic:
 *    compare these across commits), and what waits behind an `import()` until first use;
 *  - spawn to the first /healthz 200, app and bare Fastify interleaved, as a ratio per pair (median and
 *    min–max), with the CPU the process used until then (a loaded machine stretches wall time far more).
 * `npm run bench:start -w @elex/bench` runs this alone; `npm run bench` runs it after the HTTP path.
 */
import os from 'node:os';
import path from 'node:path';
import { type BenchDatabase, benchDatabase, repoRoot, startApp, startBaseline } from './processes.js';
import { spread } from './spread.js';
import { startGraph } from './start-graph.js';

const START_ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 7);

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const kib = (bytes: number) => `${number(bytes / 1024, 1)} KiB`;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

export async function printStartGraph() {
  const graph = await startGraph(path.join(repoRoot, 'apps/server/dist'));
  console.log(
    `  built JS main.js loads statically: ${graph.totalBytes.toLocaleString('en-US')} bytes (${kib(graph.totalBytes)}) in ${graph.files.length} files; ` +
      `behind import(): ${kib(graph.lazyFiles.reduce((sum, file) => sum + file.bytes, 0))} in ${graph.lazyFiles.length} files`,
  );
  for (const file of graph.files.slice(0, 5))
    console.log(`    ${kib(file.bytes).padStart(10)}  ${file.file}`);
  console.log(`  packages it imports at start: ${graph.externals.join(', ')}`);
}

/** Restarts on a database already migrated and seeded (as after a deploy), interleaved with a bare Fastify. */
export async function benchColdStart(database: BenchDatabase, rounds = START_ROUNDS) {
  const appWall: number[] = [];
  const appCpu: number[] = [];
  const fastifyWall: number[] = [];
  const fastifyCpu: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // Alternate who goes first: a drifting load shifts both sides alike.
    const order = round % 2 === 0 ? (['app', 'fastify'] as const) : (['fastify', 'app'] as const);
    for (const side of order) {
      const started = side === 'app' ? await startApp(database) : await startBaseline('bare-fastify');
      (side === 'app' ? appWall : fastifyWall).push(started.startMs);
      (side === 'app' ? appCpu : fastifyCpu).push(started.cpuMs());
      await started.stop();
    }
    ratios.push((appWall[round] ?? 0) / (fastifyWall[round] ?? 1));
  }
  const figure = (wall: number[], cpu: number[]) => {
    const wallSpread = spread(wall);
    const cpuSpread = spread(cpu);
    return (
      `${number(wallSpread.median)} ms [${number(wallSpread.min)}–${number(wallSpread.max)}] ` +
      `(CPU ${number(cpuSpread.median)} ms [${number(cpuSpread.min)}–${number(cpuSpread.max)}])`
    );
  };
  const ratio = spread(ratios);
  console.log(
    `  cold start, spawn to the first /healthz 200 (${rounds} each, interleaved): ` +
      `app ${figure(appWall, appCpu)}, bare Fastify ${figure(fastifyWall, fastifyCpu)}; ` +
      `app/bare ${number(ratio.median, 2)} [${number(ratio.min, 2)}–${number(ratio.max, 2)}]`,
  );
}

/** Standalone: a fresh database, one start to migrate and seed it (not counted), then the rounds. */
export async function benchStartAlone() {
  console.log(`Cold start: machine ${os.cpus().length} cores, load average ${loadAverage()} (1, 5, 15 min)`);
  await printStartGraph();
  const database = await benchDatabase();
  try {
    console.log(`  on ${database.label}`);
    const first = await startApp(database);
    await first.stop();
    await benchColdStart(database);
  } finally {
    await database.drop();
  }
  console.log(`  load average ${loadAverage()} at the end`);
}
