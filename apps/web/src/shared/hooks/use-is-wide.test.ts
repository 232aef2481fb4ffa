import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resizeTo } from '../../test/helpers';
import { useIsWide } from './use-is-wide';

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

describe('useIsWide (spec section 4: wide above 980 px, resize debounced 200 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    [1280, true],
    [981, true],
    [980, false],
    [375, false],
  ])('at %i px wide is %s', (width, expected) => {
    setWidth(width);
    const { result } = renderHook(() => useIsWide());
    expect(result.current).toBe(expected);
  });

  it('applies a resize only after 200 ms', () => {
    setWidth(1280);
    const { result } = renderHook(() => useIsWide());

    act(() => resizeTo(800));
    act(() => vi.advanceTimersByTime(199));
    expect(result.current).toBe(true);

    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(false);
  });

  it('restarts the 200 ms wait on each resize and keeps the last width', () => {
    setWidth(1280);
    const { result } = renderHook(() => useIsWide());

    act(() => resizeTo(800));
    act(() => vi.advanceTimersByTime(150));
    act(() => resizeTo(1200));
    act(() => vi.advanceTimersByTime(150));
    expect(result.current).toBe(true);
    act(() => resizeTo(700));
    act(() => vi.advanceTimersByTime(199));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(false);
  });
});
