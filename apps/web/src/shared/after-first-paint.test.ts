import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

/**
 * issue 14: on the app's first visit a lazy page's chunk is asked for once the shell has painted, not
 * during the first render: requests started before the first frame held the first paint back. The
 * first paint happens once per module, as once per page load, so each test loads the module afresh
 * (the web's test files may share their modules: vitest.config.ts).
 */
describe('the first paint of the app', () => {
  it("asks for a page's chunk after the shell's first frame, and at once from then on", async () => {
    vi.resetModules();
    const { expectFirstPaint, isBeforeFirstPaint, markFirstPaint } = await import('./after-first-paint');
    const { lazyPage } = await import('../app/lazy-page');
    expectFirstPaint();
    expect(isBeforeFirstPaint()).toBe(true);
    const first = vi.fn(async () => ({ default: () => null }));
    void lazyPage(first).preload();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first).not.toHaveBeenCalled();

    markFirstPaint();
    await waitFor(() => expect(first).toHaveBeenCalledTimes(1));
    expect(isBeforeFirstPaint()).toBe(false);

    const next = vi.fn(async () => ({ default: () => null }));
    void lazyPage(next).preload();
    expect(next).toHaveBeenCalledTimes(1);
  });

  it('does not wait for a hidden tab to show an animation frame', async () => {
    vi.resetModules();
    const paint = await import('./after-first-paint');
    // A tab opened in the background runs no animation frame until it is shown.
    vi.stubGlobal('requestAnimationFrame', () => 0);
    try {
      paint.expectFirstPaint();
      const work = vi.fn();
      paint.afterFirstPaint(work);
      paint.markFirstPaint();
      await waitFor(() => expect(work).toHaveBeenCalledTimes(1), { timeout: 3_000 });
      expect(paint.isBeforeFirstPaint()).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('runs what waited for the paint in tasks of its own, not in one long task', async () => {
    vi.resetModules();
    const paint = await import('./after-first-paint');
    paint.expectFirstPaint();
    const order: string[] = [];
    paint.afterFirstPaint(() => {
      order.push('catalog');
      // A microtask of the first work runs before the second work starts only if they are two tasks.
      queueMicrotask(() => order.push('catalog settled'));
    });
    paint.afterFirstPaint(() => order.push('toasts'));
    paint.markFirstPaint();
    await waitFor(() => expect(order).toHaveLength(3));
    expect(order).toEqual(['catalog', 'catalog settled', 'toasts']);
  });

  it("waits for the browser's report of the first contentful paint where it makes one", async () => {
    vi.resetModules();
    const paint = await import('./after-first-paint');
    // A browser that reports paints: the first contentful one is reported a moment after the frame.
    let report: ((entries: { getEntriesByName: (name: string) => unknown[] }) => void) | undefined;
    let disconnected = false;
    class PaintObserver {
      static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
      constructor(callback: typeof report) {
        report = callback;
      }
      observe(options: { type: string; buffered: boolean }) {
        expect(options).toEqual({ type: 'paint', buffered: true });
      }
      disconnect() {
        disconnected = true;
      }
    }
    vi.stubGlobal('PerformanceObserver', PaintObserver);
    try {
      paint.expectFirstPaint();
      const work = vi.fn();
      paint.afterFirstPaint(work);
      paint.markFirstPaint();
      await waitFor(() => expect(report).toBeDefined());
      report?.({ getEntriesByName: (name) => (name === 'first-paint' ? [{}] : []) });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(work).not.toHaveBeenCalled();
      expect(paint.isBeforeFirstPaint()).toBe(true);

      report?.({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) });
      await waitFor(() => expect(work).toHaveBeenCalledTimes(1));
      expect(disconnected).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends what waits for the first paint of an app start after it, and at once outside one', async () => {
    vi.resetModules();
    const paint = await import('./after-first-paint');
    const outside = vi.fn();
    paint.onceFirstPainted(outside);
    expect(outside).toHaveBeenCalledTimes(1);

    paint.expectFirstPaint();
    const view = vi.fn();
    paint.onceFirstPainted(view);
    expect(view).not.toHaveBeenCalled();
    paint.markFirstPaint();
    await waitFor(() => expect(view).toHaveBeenCalledTimes(1));
    const next = vi.fn();
    paint.onceFirstPainted(next);
    expect(next).toHaveBeenCalledTimes(1);
  });
});
