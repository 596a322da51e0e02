/**
 * Which forms hold input the mechanic has not saved yet. The update prompt reads it: a new
 * version is never applied (page reload) over unsaved input.
 */
import { useEffect, useId, useSyncExternalStore } from 'react';

const dirtyForms = new Set<string>();
const listeners = new Set<() => void>();
let snapshot = false;

function publish() {
  snapshot = dirtyForms.size > 0;
  listeners.forEach((listener) => listener());
}

export function hasUnsavedInput(): boolean {
  return dirtyForms.size > 0;
}

/** A form calls this with whether it holds unsaved input; it is cleared when the form unmounts. */
export function useUnsavedInput(dirty: boolean) {
  const id = useId();
  useEffect(() => {
    if (dirty) dirtyForms.add(id);
    else dirtyForms.delete(id);
    publish();
    return () => {
      dirtyForms.delete(id);
      publish();
    };
  }, [id, dirty]);
}

export function useHasUnsavedInput(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
    () => false,
  );
}
