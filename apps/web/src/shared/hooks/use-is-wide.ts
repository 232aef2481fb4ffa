import { LAYOUT } from '@elex/contract';
import { useEffect, useState } from 'react';

const isWideNow = () => window.innerWidth >= LAYOUT.wideMinWidthPx;

/** spec: wide layout when the width exceeds 980 px; resize handling debounced 200 ms. */
export function useIsWide(): boolean {
  const [isWide, setIsWide] = useState(isWideNow);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setIsWide(isWideNow()), LAYOUT.resizeDebounceMs);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return isWide;
}
