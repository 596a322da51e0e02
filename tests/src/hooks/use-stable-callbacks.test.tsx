/**
 * Handlers that keep their identity (src/hooks/use-stable-callbacks.ts): a memoised field handed one is
 * not re-rendered by a keystroke elsewhere, and a tap still runs what the latest render meant.
 */
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStableCallbacks } from '../../../src/hooks/use-stable-callbacks';

describe('stable callbacks', () => {
  it('are the same functions at every render and run the latest render’s handler', () => {
    const calls: string[] = [];
    const { result, rerender } = renderHook(
      ({ label }) => useStableCallbacks({ press: (what: string) => calls.push(`${label} ${what}`) }),
      {
        initialProps: { label: 'first' },
      },
    );
    const first = result.current.press;
    rerender({ label: 'second' });
    expect(result.current.press).toBe(first);
    first('tap');
    expect(calls).toEqual(['second tap']);
  });
});
