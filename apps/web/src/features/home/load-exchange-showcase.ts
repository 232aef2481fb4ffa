import { useEffect, useState } from 'react';

type Showcase = typeof import('./exchange-showcase').default;

let loaded: Showcase | undefined;
let loading: Promise<Showcase> | undefined;

function loadShowcase(): Promise<Showcase> {
  loading ??= import('./exchange-showcase').then((module) => {
    loaded = module.default;
    return loaded;
  });
  return loading;
}

/**
 * The exchange showcase once its chunk is there (issue 14). It starts loading right after the home's
 * first paint, beside the exchange list's request, and the home shows its skeleton until both are in.
 * Not React.lazy: that suspends on its first render even when the chunk is already in (a fallback for
 * nothing). A chunk that fails is thrown in render, for the route's error view.
 */
export function useExchangeShowcase(): Showcase | undefined {
  const [showcase, setShowcase] = useState(() => loaded);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useEffect(() => {
    if (showcase) return;
    let mounted = true;
    loadShowcase().then(
      (component) => mounted && setShowcase(() => component),
      (error: unknown) => mounted && setFailure({ error }),
    );
    return () => {
      mounted = false;
    };
  }, [showcase]);
  if (failure) throw failure.error;
  return showcase;
}
