import {
  type CSSProperties,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';

interface HiddenSides {
  left: boolean;
  right: boolean;
}

const NOTHING_HIDDEN: HiddenSides = { left: false, right: false };

/** How wide the table's pinned first column is (its heading's width), whole pixels; 0 when none. */
function pinnedWidth(region: HTMLElement): number {
  const heading = region.querySelector('thead th');
  return heading ? Math.round(heading.getBoundingClientRect().width) : 0;
}

/** Which sides of the region have columns out of view; a pixel of rounding is not a column. */
function hiddenSides(region: HTMLElement): HiddenSides {
  const hidden = region.scrollWidth - region.clientWidth;
  if (hidden <= 1) return NOTHING_HIDDEN;
  return { left: region.scrollLeft > 1, right: region.scrollLeft < hidden - 1 };
}

/**
 * Every console table sits in one: a named region a keyboard can focus and scroll (axe:
 * scrollable-region-focusable). When the table is wider than the region (a phone, a narrow laptop, a
 * long value) a shade marks each side with columns out of view, following the scroll position, and a
 * short hint above says so; the hint is the region's description for a screen reader. It is measured
 * again whenever the region or the table changes size (ResizeObserver), so neither shows on a table
 * that fits.
 */
export function ScrollRegion({
  label,
  pinnedFirstColumn = false,
  children,
}: {
  label: string;
  /** The table keeps its first column in view (position: sticky): the left shade starts after it. */
  pinnedFirstColumn?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const regionRef = useRef<HTMLElement>(null);
  const [hidden, setHidden] = useState<HiddenSides>(NOTHING_HIDDEN);
  const [pinned, setPinned] = useState(0);
  const measure = useCallback(() => {
    const region = regionRef.current;
    if (!region) return;
    const next = hiddenSides(region);
    setHidden((shown) => (shown.left === next.left && shown.right === next.right ? shown : next));
    if (pinnedFirstColumn) setPinned(pinnedWidth(region));
  }, [pinnedFirstColumn]);

  useLayoutEffect(() => {
    const region = regionRef.current;
    if (!region) return;
    measure();
    // jsdom and old browsers: a window resize is the only change of width to follow.
    if (typeof ResizeObserver !== 'function') {
      window.addEventListener('resize', measure);
      return () => window.removeEventListener('resize', measure);
    }
    const observer = new ResizeObserver(measure);
    observer.observe(region);
    for (const child of Array.from(region.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [measure]);
  // New rows, a new page or a language with longer words: measured once more after each render.
  useEffect(measure);

  const overflows = hidden.left || hidden.right;
  return (
    <div className="scroll-region">
      {overflows ? (
        <p id={hintId} className="scroll-hint">
          <span aria-hidden="true">↔</span>
          <span>{t('admin.common.scrollHint')}</span>
        </p>
      ) : null}
      <div
        className="scroll-frame"
        data-hidden-left={hidden.left || undefined}
        data-hidden-right={hidden.right || undefined}
        data-pinned={pinned > 0 || undefined}
        // The columns scrolled out of view on the left pass under the pinned one: the shade marks
        // them at its right edge rather than covering the column that stays.
        style={pinned > 0 ? ({ '--scroll-pinned': `${pinned}px` } as CSSProperties) : undefined}
      >
        <section
          ref={regionRef}
          className="table-scroll admin-scroll"
          aria-label={label}
          aria-describedby={overflows ? hintId : undefined}
          tabIndex={0}
          onScroll={measure}
        >
          {children}
        </section>
      </div>
    </div>
  );
}
