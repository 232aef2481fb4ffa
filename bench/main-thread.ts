/**
 * The main thread after the first paint, read from a real trace rather than Lighthouse's simulation: a
 * first visit in Chromium at 390 px (DPR 2) with the CPU slowed 4x through the DevTools protocol, and
 * the renderer's tasks (RunTask) from a DevTools timeline trace. For each visit, the blocking time (every task
 * after the first contentful paint counted for its time beyond 50 ms) and the longest such task.
 * Lighthouse's simulated timeline spread 15–20 points between runs of one build on this machine; these
 * figures moved with the code (docs/decisions.md, "Data that arrives after the first paint renders in
 * slices").
 */
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const LONG_TASK_MS = 50;
/** Long enough for a page's data, its deferred sections and the work after the paint. */
const WATCH_MS = 6_000;

export interface MainThreadVisit {
  blockingMs: number;
  longestMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

/** What the renderer's main thread did after the first contentful paint of one trace. */
export function mainThreadAfterPaint(events: readonly TraceEvent[]): MainThreadVisit {
  const paint = events.find((event) => event.name === 'firstContentfulPaint');
  if (!paint) throw new Error('the trace has no first contentful paint');
  const mainThread = events.find(
    (event) =>
      event.name === 'thread_name' && event.pid === paint.pid && event.args?.name === 'CrRendererMain',
  );
  if (!mainThread) throw new Error("the trace does not name the page's main thread");
  const after = events
    .filter(
      (event) =>
        event.name === 'RunTask' &&
        event.pid === mainThread.pid &&
        event.tid === mainThread.tid &&
        event.ts >= paint.ts &&
        event.dur !== undefined,
    )
    .map((event) => (event.dur ?? 0) / 1000);
  return {
    blockingMs: after.reduce((sum, ms) => sum + Math.max(0, ms - LONG_TASK_MS), 0),
    longestMs: Math.max(0, ...after),
  };
}

/** `visits` first visits of `url`, each in a fresh context (nothing cached). */
export async function traceFirstVisits(url: string, visits: number): Promise<MainThreadVisit[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const results: MainThreadVisit[] = [];
    for (let visit = 0; visit < visits; visit += 1) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const events: TraceEvent[] = [];
      cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.start', {
        categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
        transferMode: 'ReportEvents',
      });
      await page.goto(url);
      await page.waitForTimeout(WATCH_MS);
      await cdp.send('Tracing.end');
      await complete;
      results.push(mainThreadAfterPaint(events));
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}
