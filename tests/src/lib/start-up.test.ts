/** Work the first screen does not need waits until that screen is on show (src/lib/start-up.ts). */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type StartUp = typeof import('../../../src/lib/start-up');
let startUp: StartUp;

beforeEach(async () => {
  vi.resetModules();
  performance.clearMarks();
  startUp = await import('../../../src/lib/start-up');
});

describe('work after the first screen', () => {
  it('waits until the screen is on show, then runs once the browser is idle', async () => {
    const task = vi.fn();
    startUp.afterFirstScreen(task);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(task).not.toHaveBeenCalled();
    startUp.screenShown();
    expect(performance.getEntriesByName(startUp.SCREEN_SHOWN_MARK, 'mark')).toHaveLength(1);
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
  });

  it('runs soon when the screen was already on show, and marks the start-up once', async () => {
    startUp.screenShown();
    startUp.screenShown();
    const task = vi.fn();
    startUp.afterFirstScreen(task);
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
    expect(performance.getEntriesByName(startUp.SCREEN_SHOWN_MARK, 'mark')).toHaveLength(1);
  });
});

describe('a moment to spare', () => {
  it('waits for the browser to be idle on a page a service worker controls, and not on a first visit', async () => {
    const idle = vi.fn((task: () => void) => {
      task();
      return 1;
    });
    vi.stubGlobal('requestIdleCallback', idle);
    try {
      const firstVisit = vi.fn();
      startUp.whenSpare(firstVisit);
      await vi.waitFor(() => expect(firstVisit).toHaveBeenCalledTimes(1));
      expect(idle).not.toHaveBeenCalled();

      Object.defineProperty(navigator, 'serviceWorker', {
        configurable: true,
        value: { controller: {}, addEventListener: vi.fn(), removeEventListener: vi.fn() },
      });
      const controlled = vi.fn();
      startUp.whenSpare(controlled);
      expect(idle).toHaveBeenCalledTimes(1);
      expect(controlled).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      vi.unstubAllGlobals();
    }
  });
});

describe('work after the first screen and the mechanic’s input', () => {
  it('stays back while the mechanic taps or types, and no longer than a few seconds; a screen’s reads do not', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', (task: () => void) => setTimeout(task, 1));
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: {}, addEventListener: vi.fn(), removeEventListener: vi.fn() },
    });
    try {
      startUp.screenShown();
      const task = vi.fn();
      const read = vi.fn();
      startUp.afterFirstScreen(task);
      startUp.whenSpare(read);
      window.dispatchEvent(new Event('pointerdown'));
      await vi.advanceTimersByTimeAsync(5);
      expect(read).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(300);
      expect(task).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(400);
      expect(task).toHaveBeenCalledTimes(1);

      // Steady typing: it goes all the same, a few seconds on.
      const during = vi.fn();
      startUp.afterFirstScreen(during);
      for (let elapsed = 0; elapsed < 3_500; elapsed += 200) {
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
        await vi.advanceTimersByTimeAsync(200);
      }
      expect(during).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
      vi.unstubAllGlobals();
      vi.useRealTimers();
    }
  });
});

describe('code loaded after the first screen', () => {
  it('is fetched again once the tablet is back online when the first try failed', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('store');
    const loaded = startUp.loadPersistently(load);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(load).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('online'));
    await expect(loaded).resolves.toBe('store');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('is fetched again a few seconds on, and again, until it arrives', async () => {
    vi.useFakeTimers();
    try {
      const load = vi
        .fn()
        .mockRejectedValueOnce(new TypeError('offline'))
        .mockRejectedValueOnce(new TypeError('offline'))
        .mockResolvedValue('store');
      const loaded = startUp.loadPersistently(load);
      await vi.advanceTimersByTimeAsync(4_900);
      expect(load).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(load).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(5_000);
      await expect(loaded).resolves.toBe('store');
      expect(load).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
