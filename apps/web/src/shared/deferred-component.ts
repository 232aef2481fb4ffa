import { type ComponentType, startTransition, useEffect, useState } from 'react';
import { whenFirstPainted } from './after-first-paint';

/** A component whose chunk stays off the first paint (issue 14); render it with useDeferredComponent. */
export interface DeferredComponent<Props> {
  /** Set once the chunk is in. */
  readonly loaded: ComponentType<Props> | undefined;
  /** Starts loading the chunk, once: every call answers the same promise. */
  load(): Promise<ComponentType<Props>>;
}

export function deferredComponent<Props>(
  importChunk: () => Promise<{ default: ComponentType<Props> }>,
): DeferredComponent<Props> {
  let loading: Promise<ComponentType<Props>> | undefined;
  const deferred = {
    loaded: undefined as ComponentType<Props> | undefined,
    load() {
      loading ??= importChunk().then((module) => {
        deferred.loaded = module.default;
        return module.default;
      });
      return loading;
    },
  };
  return deferred;
}

/**
 * The component once its chunk is in, undefined until then: the caller then shows what the
 * component itself shows while its data loads (a skeleton), so nothing moves when it arrives. The
 * chunk starts loading after the first render that asks for it has painted, beside that component's
 * own request. Not React.lazy: that suspends on its first render even when the chunk is already in,
 * a fallback for nothing. A chunk that fails is thrown in render, for the route's error view.
 */
export function useDeferredComponent<Props>(
  deferred: DeferredComponent<Props>,
): ComponentType<Props> | undefined {
  const [component, setComponent] = useState(() => deferred.loaded);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useEffect(() => {
    if (component) return;
    let mounted = true;
    whenFirstPainted()
      .then(() => deferred.load())
      .then(
        // A transition: React renders the arrived section in slices between the browser's frames and
        // input, not in one long task after the first paint (Lighthouse's blocking time, issue 14).
        (arrived) => mounted && startTransition(() => setComponent(() => arrived)),
        (error: unknown) => mounted && setFailure({ error }),
      );
    return () => {
      mounted = false;
    };
  }, [deferred, component]);
  if (failure) throw failure.error;
  return component;
}
