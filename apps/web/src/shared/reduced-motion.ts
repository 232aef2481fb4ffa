/**
 * Whether the reader asked the system for less motion: carousels stop sliding on their own and charts
 * draw at once instead of growing their bars.
 */
export const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
