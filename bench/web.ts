/**
 * `npm run bench:web`: the first paint, in figures, not verdicts (issue 14).
 *  (a) The JavaScript a first visit to `/` needs before the page can paint (apps/web/dist, each file
 *      gzipped), and whether zod or another language's strings are in it.
 *  (b) Lighthouse mobile on `/`, `/exchangeDetail?id=…` and `/calculator` served by the production app
 *      (buildApp over in-memory PGlite with the partner catalog), LIGHTHOUSE_RUNS runs each, medians;
 *      then as many first visits per page traced in Chromium (main-thread.ts): the blocking time after
 *      the first paint and the longest task, measured rather than simulated.
 *      LIGHTHOUSE_COMPARE=<another build's apps/web/dist> runs the Lighthouse part on that build too,
 *      served beside this one, each page's visits alternating between the two.
 * Needs `npm run build` first and Chromium at /usr/bin/chromium (scripts/ensure-browser.sh).
 */
import os from 'node:os';
import path from 'node:path';
import { measureHomeBundle } from './bundle.js';
import { cpuSlowdownLabel, type LighthouseResult, runLighthouse, withChromium } from './lighthouse.js';
import { traceFirstVisits } from './main-thread.js';
import { benchDatabase, startApp } from './processes.js';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const compareDist = process.env.LIGHTHOUSE_COMPARE;
const distDir = path.resolve(import.meta.dirname, '../apps/web/dist');

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const range = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

function benchBundle() {
  console.log('JavaScript a first visit to / loads before it paints (each file gzipped at level 6)');
  const report = measureHomeBundle(distDir);
  for (const file of report.files) {
    console.log(
      `  ${kib(file.gzipBytes).padStart(10)} gz  ${kib(file.bytes).padStart(10)} raw  ${file.file}  (${file.why})`,
    );
  }
  console.log(
    `  ${kib(report.gzipTotal).padStart(10)} gz  ${kib(report.rawTotal).padStart(10)} raw  total in ${report.files.length} files`,
  );
  console.log(`  zod on it: ${report.zod.length ? `yes (${report.zod.join(', ')})` : 'no'}`);
  console.log(
    `  other languages' strings on it: ${report.otherLanguages.length ? `yes (${report.otherLanguages.join(', ')})` : 'no'}`,
  );
  if (report.homeChunkFound !== true)
    console.log('  (no home route chunk found in the manifest: the total lacks it)');
}

/** The other build of LIGHTHOUSE_COMPARE, served by this tree's server on a database of its own. */
async function startCompared(webDist: string) {
  const database = await benchDatabase();
  const app = await startApp({ ...database, env: { ...database.env, WEB_DIST: path.resolve(webDist) } });
  return { database, app };
}

function printLighthouse(label: string, runs: LighthouseResult[]) {
  const of = (pick: (result: LighthouseResult) => number) => runs.map(pick);
  console.log(
    `  ${label.padEnd(20)} score ${range(
      of((r) => r.score),
      0,
    )}   LCP ${range(
      of((r) => r.lcpMs / 1000),
      2,
    )} s   ` +
      `FCP ${range(
        of((r) => r.fcpMs / 1000),
        2,
      )} s   CLS ${range(
        of((r) => r.cls),
        3,
      )}   TBT ${range(
        of((r) => r.tbtMs),
        0,
      )} ms`,
  );
  console.log(`  ${''.padEnd(20)} LCP element: ${[...new Set(runs.map((r) => r.lcpElement))].join(' | ')}`);
  // Below about 1,000 Lighthouse warns that the host is slower than its throttling assumes.
  console.log(
    `  ${''.padEnd(20)} host benchmarkIndex ${range(
      of((r) => r.benchmarkIndex),
      0,
    )}`,
  );
}

async function benchLighthouse() {
  console.log(
    `\nLighthouse ${RUNS}x per page, mobile (simulated slow 4G, ${cpuSlowdownLabel}), medians (min–max)`,
  );
  const database = await benchDatabase();
  const app = await startApp(database);
  const compared = compareDist ? await startCompared(compareDist) : undefined;
  try {
    const index = (await fetch(`${app.url}/elex/exchange/index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', lang: 'en' },
      body: '{}',
    }).then((response) => response.json())) as { content?: { allExchange?: { platId: number }[] } };
    const firstExchange = index.content?.allExchange?.[0]?.platId ?? 1;
    // LIGHTHOUSE_PAGES=/,/calculator measures only those (while trying a change on one page).
    const only = process.env.LIGHTHOUSE_PAGES?.split(',');
    const pages = ['/', `/exchangeDetail?id=${firstExchange}`, '/calculator'].filter(
      (page) => !only || only.includes(page.split('?')[0] ?? page),
    );
    // LIGHTHOUSE_COMPARE=<another build's apps/web/dist>: that build served beside this one and visited
    // in alternation, each page's runs on both sides in turns (a change's effect, not the host's mood).
    const sides: { label: string; url: string }[] = [{ label: 'this build', url: app.url }];
    if (compared) sides.unshift({ label: `compared (${compareDist})`, url: compared.app.url });
    await withChromium(async (port) => {
      // One unrecorded visit per side, so the first page does not pay for Chromium's and the server's start.
      for (const side of sides) await runLighthouse(`${side.url}/`, port);
      for (const page of pages) {
        const runs = sides.map(() => [] as LighthouseResult[]);
        for (let run = 0; run < RUNS; run += 1) {
          const order = run % 2 ? [...sides.keys()].reverse() : [...sides.keys()];
          for (const side of order) runs[side]?.push(await runLighthouse(`${sides[side]?.url}${page}`, port));
        }
        for (const [index, side] of sides.entries())
          printLighthouse(sides.length > 1 ? `${page} ${side.label}` : page, runs[index] ?? []);
      }
    });
    console.log(
      `\nMain thread after the first paint, traced (390 px, CPU 4x, ${RUNS} first visits each), median (min–max)`,
    );
    for (const page of pages) {
      const visits = await traceFirstVisits(`${app.url}${page}`, RUNS);
      console.log(
        `  ${page.padEnd(20)} blocking ${range(
          visits.map((visit) => visit.blockingMs),
          0,
        )} ms   longest task ${range(
          visits.map((visit) => visit.longestMs),
          0,
        )} ms`,
      );
    }
  } finally {
    await app.stop();
    await database.drop();
    await compared?.app.stop();
    await compared?.database.drop();
  }
}

console.log(`machine: ${os.cpus().length} cores, load average ${load()} (1, 5, 15 min)\n`);
benchBundle();
await benchLighthouse();
console.log(`\nload average at the end: ${load()}`);
