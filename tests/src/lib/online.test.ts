/** Work that follows the connection without drawing it (src/lib/online.ts `watchOffline`). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchOffline } from '../../../src/lib/online';

function goOffline(offline: boolean): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
  window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
}

afterEach(() => vi.restoreAllMocks());

describe('watching for the tablet going offline', () => {
  it('calls at once when offline, then at each loss of the connection, until stopped', () => {
    goOffline(true);
    const whenOffline = vi.fn();
    const stop = watchOffline(whenOffline);
    expect(whenOffline).toHaveBeenCalledTimes(1);
    goOffline(false);
    expect(whenOffline).toHaveBeenCalledTimes(1);
    goOffline(true);
    expect(whenOffline).toHaveBeenCalledTimes(2);
    stop();
    goOffline(true);
    expect(whenOffline).toHaveBeenCalledTimes(2);
  });

  it('waits while online', () => {
    goOffline(false);
    const whenOffline = vi.fn();
    watchOffline(whenOffline)();
    expect(whenOffline).not.toHaveBeenCalled();
  });
});
