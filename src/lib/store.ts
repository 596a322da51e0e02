/**
 * A value outside React that components follow (the session, the colour mode, a waiting update…):
 * `get` and `subscribe` are what useSyncExternalStore takes, unbound so they can be passed as they are.
 * Setting the value it already holds tells nobody, as React would not re-render for it either.
 */
export interface Store<T> {
  get(): T;
  set(next: T): void;
  update(change: (current: T) => T): void;
  /** Returns the function that stops the listening. */
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const set = (next: T) => {
    if (Object.is(next, value)) return;
    value = next;
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => value,
    set,
    update: (change) => set(change(value)),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
