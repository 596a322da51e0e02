/**
 * Event handlers that keep their identity from render to render and always run the latest render's
 * version. Handed to memoised parts of a form, they let a keystroke in one field re-render that field
 * alone instead of the whole form (docs/ARCHITECTURE.md#start-up). For handlers only: one called
 * during a render would run the previous render's version.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

// A handler's parameters are whatever its caller passes: `any` is the one type every parameter list
// is assignable to (`unknown[]` would refuse a handler that takes a string).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handlers = Record<string, (...args: any[]) => unknown>;

/** One function per name, each calling the handler of that name `latest` holds when it is called. */
function forwarders<T extends Handlers>(names: readonly string[], latest: RefObject<T>): T {
  return Object.fromEntries(names.map((name) => [name, (...args: unknown[]) => latest.current[name]!(...args)])) as T;
}

export function useStableCallbacks<T extends Handlers>(handlers: T): T {
  const latest = useRef(handlers);
  useLayoutEffect(() => {
    latest.current = handlers;
  });
  // Made once (a caller passes the same names at every render). The functions read the ref when they
  // are called, in an event, never during a render, which the rule cannot tell.
  // eslint-disable-next-line react-hooks/refs
  const [stable] = useState(() => forwarders(Object.keys(handlers), latest));
  return stable;
}
