/**
 * The screens' way to the tablet's database (docs/ARCHITECTURE.md#start-up). Its code (Dexie, the
 * schema, the outbox's reads) is not part of the first screen: a screen's first read loads it at the
 * first moment the browser has to spare once that screen is rendered and live (whenSpare), so the
 * dashboard a mechanic types into does not wait for it; once something has asked for it (the mechanic
 * reaching for the History tab), reads start as soon as it is there. Reads are live, as with Dexie's liveQuery:
 * they follow every write to what they read.
 */
import { useEffect, useState, type DependencyList } from 'react';
import { loadPersistently, whenSpare } from './start-up';

export type LocalStore = typeof import('./local-store');

let loaded: LocalStore | null = null;
let loading: Promise<LocalStore> | null = null;

function importLocalStore(): Promise<LocalStore> {
  return import('./local-store').then((store) => (loaded = store));
}

/**
 * The database's module, loaded once. If its code cannot be fetched (the network dropped before the
 * service worker had it), it is fetched again at the next chance (loadPersistently): what waits for
 * it (a live read, a write of what the server sent) goes on then.
 */
export function loadLocalStore(): Promise<LocalStore> {
  loading ??= loadPersistently(importLocalStore);
  return loading;
}

interface QueryState<T> {
  result: T;
  error: unknown;
}

/**
 * `query`'s result, live; `initial` until the first result (and the previous result while the query
 * with new `deps` runs). A failed read is thrown during render, for the nearest error boundary; while
 * the database's code cannot be fetched, the initial value stays.
 */
export function useLocalQuery<T, I>(query: (store: LocalStore) => Promise<T>, deps: DependencyList, initial: I): T | I {
  const [state, setState] = useState<QueryState<T | I>>({ result: initial, error: null });
  useEffect(() => {
    let stopped = false;
    let answered = false;
    let subscription: { unsubscribe(): void } | null = null;
    const show = (result: T) => {
      if (stopped) return;
      answered = true;
      setState((previous) => (previous.result === result && !previous.error ? previous : { result, error: null }));
    };
    // The first read is shown as soon as it is done. Dexie's liveQuery drops a read during which a write
    // touched what it reads and reads again: while the sender writes the outbox every few tens of
    // milliseconds (a pass over many entries, offline), a slow tablet's read never ended unharmed, and
    // a screen showed nothing until the sender paused. Later reads stay Dexie's: only unharmed ones show.
    const firstShown = (result: T) => {
      if (!answered) show(result);
      return result;
    };
    const subscribe = (store: LocalStore) => {
      if (stopped) return;
      subscription = store
        .liveQuery(() => query(store).then(firstShown))
        .subscribe({
          next: show,
          error: (error: unknown) => {
            if (!stopped) setState((previous) => ({ result: previous.result, error }));
          },
        });
    };
    if (loaded) subscribe(loaded);
    // Asked for already (a screen the mechanic opened): no reason to wait for a moment to spare.
    else if (loading) void loading.then(subscribe);
    else
      whenSpare(() => {
        if (!stopped) void loadLocalStore().then(subscribe);
      });
    return () => {
      stopped = true;
      subscription?.unsubscribe();
    };
    // The caller's dependencies, as with useEffect: `query` is a new function on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  if (state.error) throw state.error;
  return state.result;
}
