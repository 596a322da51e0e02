/**
 * A component whose code loads on demand, and loads again after a failure. React.lazy keeps a failed
 * import for good, so a part whose chunk could not be fetched once (the network dropped before the
 * service worker had it, a deployment replaced it) would fail until the page reloads, and a reload
 * loses what the mechanic typed. Here a failure is kept only until reset(): ChunkErrorBoundary calls
 * it once it shows the failure, so Retry, or opening the part again, fetches the chunk anew.
 */
import { createElement, lazy, type ComponentType } from 'react';

/** A part of the app whose code could not be loaded: shown with a Retry, never logged as a bug. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the app could not be loaded', { cause });
    this.name = 'ChunkLoadError';
  }
}

export type RetryableLazy<P> = ComponentType<P> & {
  /** Starts loading ahead of the first render (when the part is likely to be used soon). */
  preload(): Promise<void>;
  /** The code is here and no render waits for it: the part is drawn without suspending. */
  isLoaded(): boolean;
  /** Forgets a failed load, so that the next render loads again. */
  reset(): void;
};

/** Like React.lazy: `load` resolves to a module whose default export is the component. */
export function retryableLazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): RetryableLazy<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  /** The component, once its code is here before any render asked for it: drawn at once (see Retryable). */
  let loaded: ComponentType<P> | null = null;
  let failed = false;
  /** A render is waiting for this load: its failure goes to that render's boundary. */
  let awaitedByRender = false;
  const start = () =>
    (loading ??= load().then(
      (module) => {
        // Only for a part no render has asked for yet: a part drawn as the lazy component stays one
        // (another component type at a later render would remount it).
        if (!awaitedByRender) loaded = module.default;
        return module;
      },
      (cause: unknown) => {
        failed = true;
        throw new ChunkLoadError(cause);
      },
    ));
  // React.lazy keeps its first outcome, a failure included: after a failure, a new one is made.
  const makeLazy = () =>
    lazy(() => {
      awaitedByRender = true;
      return start();
    });
  let current = makeLazy();
  const reset = () => {
    if (!failed) return;
    loading = null;
    failed = false;
    awaitedByRender = false;
    current = makeLazy();
  };
  // Code loaded ahead (preload) is drawn in the same render: React.lazy would suspend for it once, and
  // a boundary that showed its fallback holds the content back a while (React throttles reveals).
  function Retryable(props: P) {
    return createElement(loaded ?? current, props);
  }
  return Object.assign(Retryable, {
    /** Settles (never rejects) once the load is done or has failed. */
    preload: () =>
      start().then(
        () => undefined,
        () => {
          // A failed preload that no render waits for is forgotten: the first render tries for itself.
          if (!awaitedByRender) reset();
        },
      ),
    isLoaded: () => loaded !== null,
    reset,
  });
}
