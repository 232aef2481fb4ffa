/**
 * What no first paint needs (i18next and the rest of the language, the toast library) starts once the
 * first page has painted, not beside the chunks that page waits for (issue 14): on a slow network they
 * shared its bandwidth, and Lighthouse counted each request started before the largest paint as one
 * it waited for. The shell marks it once it has rendered (app/shell/app-shell.tsx): the home is in the
 * same render, a lazy page's header or skeleton too; should it not render, main.tsx marks it a few
 * seconds after the start.
 */
let isPainted = false;
/** Set when the app starts (main.tsx); a part rendered alone (a test) has no first paint to wait for. */
let isStarting = false;
const waiting: (() => void)[] = [];

/** The app is starting: what waits for the first paint waits from now on (main.tsx). */
export function expectFirstPaint() {
  isStarting = true;
}

/** The app has started and its first page has not painted yet. */
export function isBeforeFirstPaint(): boolean {
  return isStarting && !isPainted;
}

/**
 * Resolves once the first page has painted (at once outside an app start). A lazy page's chunk is
 * asked for from then on (app/lazy-page.ts): requests started before the shell's first frame delayed
 * it (Lighthouse counts them against the first contentful paint: 2.2 -> 1.4 s on /exchangeDetail).
 */
export function whenFirstPainted(): Promise<void> {
  if (!isBeforeFirstPaint()) return Promise.resolve();
  return new Promise((resolve) => waiting.push(resolve));
}

export function afterFirstPaint(work: () => void) {
  if (isPainted) work();
  else waiting.push(work);
}

/** `work` once the app's first page has painted, and at once outside an app start (a test). */
export function onceFirstPainted(work: () => void) {
  if (isBeforeFirstPaint()) waiting.push(work);
  else work();
}

/** After the browser has painted the frame now being rendered. */
export function markFirstPaint() {
  if (isPainted) return;
  const run = () => {
    if (isPainted) return;
    isPainted = true;
    // Each in a task of its own: together (the language's catalog, the toasts, a section's chunk,
    // analytics) they made one long task right after the paint, 125 ms on a slow phone (issue 14).
    for (const work of waiting.splice(0)) setTimeout(work, 0);
  };
  requestAnimationFrame(() => setTimeout(() => whenPaintReported(run), 0));
  // A hidden tab (opened in the background, prerendered) runs no animation frame until it is shown:
  // what waits for the first paint (a lazy page's chunk) must not wait for the visitor to look.
  setTimeout(run, HIDDEN_TAB_WAIT_MS);
}

const HIDDEN_TAB_WAIT_MS = 1_000;

/**
 * `then` once the browser has reported the first contentful paint. A frame rendered on the main
 * thread is shown a little later; a request started in between counted, for Lighthouse, as one the
 * largest paint waited for (the home's LCP 1.47 s when nothing started before it, 1.87 s when the
 * language's catalog did). Where the browser reports no paints, the frame rendered is the sign.
 */
function whenPaintReported(then: () => void) {
  if (
    typeof PerformanceObserver === 'undefined' ||
    !PerformanceObserver.supportedEntryTypes?.includes('paint')
  ) {
    then();
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'paint', buffered: true });
}
