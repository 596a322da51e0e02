/**
 * A small value with listeners (src/lib/store.ts), shaped for React's useSyncExternalStore: get, set or
 * update, subscribe returning the unsubscribe.
 */
import { act, renderHook } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../../../src/lib/store';

describe('createStore', () => {
  it('holds its initial value until set', () => {
    const store = createStore(1);
    expect(store.get()).toBe(1);
    store.set(2);
    expect(store.get()).toBe(2);
  });

  it('tells every subscriber of a change, after the value is in place', () => {
    const store = createStore('a');
    const seen: string[] = [];
    store.subscribe(() => seen.push(`first:${store.get()}`));
    store.subscribe(() => seen.push(`second:${store.get()}`));
    store.set('b');
    expect(seen).toEqual(['first:b', 'second:b']);
  });

  it('updates from the current value', () => {
    const store = createStore({ count: 1, label: 'x' });
    const listener = vi.fn();
    store.subscribe(listener);
    store.update((current) => ({ ...current, count: current.count + 1 }));
    expect(store.get()).toEqual({ count: 2, label: 'x' });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('stays quiet when the value does not change', () => {
    const value = { count: 1 };
    const store = createStore(value);
    const listener = vi.fn();
    store.subscribe(listener);
    store.set(value);
    store.update((current) => current);
    expect(listener).not.toHaveBeenCalled();
  });

  it('stops telling a listener once it unsubscribed, and the others go on hearing', () => {
    const store = createStore(0);
    const gone = vi.fn();
    const staying = vi.fn();
    const unsubscribe = store.subscribe(gone);
    store.subscribe(staying);
    unsubscribe();
    store.set(1);
    expect(gone).not.toHaveBeenCalled();
    expect(staying).toHaveBeenCalledTimes(1);
  });

  it('hands React its methods unbound: a component re-renders on each change', () => {
    const store = createStore(false);
    const { result } = renderHook(() => useSyncExternalStore(store.subscribe, store.get));
    expect(result.current).toBe(false);
    act(() => store.set(true));
    expect(result.current).toBe(true);
  });
});
