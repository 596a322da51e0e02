/**
 * Which forms hold input the mechanic has not saved yet. The update prompt reads it: a new
 * version is never applied (page reload) over unsaved input.
 */
import { useEffect, useId, useSyncExternalStore } from 'react';
import { createStore } from './store';

/** The ids of the mounted forms holding unsaved input. */
const dirtyForms = createStore<ReadonlySet<string>>(new Set());

function markDirty(id: string, dirty: boolean) {
  dirtyForms.update((current) => {
    if (current.has(id) === dirty) return current;
    const next = new Set(current);
    if (dirty) next.add(id);
    else next.delete(id);
    return next;
  });
}

export function hasUnsavedInput(): boolean {
  return dirtyForms.get().size > 0;
}

/** A form calls this with whether it holds unsaved input; it is cleared when the form unmounts. */
export function useUnsavedInput(dirty: boolean) {
  const id = useId();
  useEffect(() => {
    markDirty(id, dirty);
    return () => markDirty(id, false);
  }, [id, dirty]);
}

export function useHasUnsavedInput(): boolean {
  return useSyncExternalStore(dirtyForms.subscribe, hasUnsavedInput, () => false);
}
