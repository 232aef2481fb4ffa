import type { ReactNode } from 'react';

/**
 * A table that may scroll sideways: a named, focusable region, so a keyboard user can scroll it too
 * (axe: scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section className="table-scroll admin-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
