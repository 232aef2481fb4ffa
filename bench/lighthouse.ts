/**
 * Lighthouse's mobile run (its default: a mid-range phone, simulated slow 4G and a 4x slower CPU) of
 * public pages served by the production app, in Debian's Chromium, offline.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseResult {
  score: number;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** The element Lighthouse took as the largest contentful paint, to say what a fix should aim at. */
  lcpElement: string;
  /**
   * Lighthouse's measure of the host's CPU (`environment.benchmarkIndex`): its 4x slowdown stands for a
   * mid-range phone on a host of about 1,000 or more; below that the host's slowness is in every figure.
   */
  benchmarkIndex: number;
}

/**
 * LIGHTHOUSE_CPU_SLOWDOWN=<n> replaces the 4x CPU slowdown, as Lighthouse's throttling guide advises for a
 * host slower than it expects (its "calibrating multipliers"); unset, Lighthouse's default runs.
 */
const CPU_SLOWDOWN = process.env.LIGHTHOUSE_CPU_SLOWDOWN
  ? Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN)
  : undefined;
export const cpuSlowdownLabel = `${CPU_SLOWDOWN ?? 4}x CPU${CPU_SLOWDOWN === undefined ? '' : ' (LIGHTHOUSE_CPU_SLOWDOWN)'}`;

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** A folder to keep each run's whole report in (its critical chains, LCP breakdown, network log). */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
let reports = 0;

/**
 * Chromium's own background connections are refused by a closed network, and the sandbox needs a
 * user namespace a root container does not give: the flags the e2e suite uses too.
 */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const numeric = (audits: Record<string, { numericValue?: number }>, id: string) =>
  audits[id]?.numericValue ?? Number.NaN;

export async function withChromium<T>(use: (port: number) => Promise<T>): Promise<T> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  try {
    return await use(chrome.port);
  } finally {
    await chrome.kill();
  }
}

/** Runs Lighthouse's own "please run again" failures (a trace without its navigation) get, at most. */
const ATTEMPTS = 3;

export async function runLighthouse(url: string, port: number): Promise<LighthouseResult> {
  let lhr: NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'] | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const runner = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(CPU_SLOWDOWN === undefined ? {} : { throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN } }),
    });
    if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
    lhr = runner.lhr;
    if (!lhr.runtimeError) break;
    // A failed recording (NO_NAVSTART, NO_FCP …) says nothing about the page: measured again, said so.
    if (attempt === ATTEMPTS) {
      throw new Error(`Lighthouse failed on ${url} ${ATTEMPTS} times: ${lhr.runtimeError.message}`);
    }
    console.log(`  (Lighthouse could not record ${url}: ${lhr.runtimeError.code}; measuring it again)`);
  }
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (REPORT_DIR) {
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    const name = new URL(url).pathname.replace(/\W+/g, '_') || 'root';
    reports += 1;
    fs.writeFileSync(
      path.join(REPORT_DIR, `${String(reports).padStart(2, '0')}${name}.json`),
      JSON.stringify(lhr),
    );
  }
  const audits = lhr.audits as Record<string, { numericValue?: number; details?: unknown }>;
  const lcpDetails = audits['largest-contentful-paint-element']?.details as
    | { items?: { items?: { node?: { selector?: string; snippet?: string } }[] }[] }
    | undefined;
  const node = lcpDetails?.items?.[0]?.items?.[0]?.node;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcpMs: numeric(audits, 'first-contentful-paint'),
    lcpMs: numeric(audits, 'largest-contentful-paint'),
    cls: numeric(audits, 'cumulative-layout-shift'),
    tbtMs: numeric(audits, 'total-blocking-time'),
    lcpElement: node?.selector ?? node?.snippet ?? '?',
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}
