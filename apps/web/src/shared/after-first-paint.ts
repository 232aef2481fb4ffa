/**
 * What no first paint needs (i18next and the rest of the language, the toast library) starts once the
 * first page has painted, not beside the chunks that page waits for (issue 14): on a slow network they
 * shared its bandwidth, and Lighthouse counted each request started before the largest paint as one
 * it waited for. A lazy route marks it when its page has rendered (app/lazy-route.tsx); for a first page
 * that is no lazy route (not found, an error view) main.tsx marks it a few seconds after the start.
 */
let isPainted = false;
const waiting: (() => void)[] = [];

export function afterFirstPaint(work: () => void) {
  if (isPainted) work();
  else waiting.push(work);
}

/** After the browser has painted the frame now being rendered. */
export function markFirstPaint() {
  if (isPainted) return;
  const run = () => {
    if (isPainted) return;
    isPainted = true;
    for (const work of waiting.splice(0)) work();
  };
  requestAnimationFrame(() => setTimeout(run, 0));
}
