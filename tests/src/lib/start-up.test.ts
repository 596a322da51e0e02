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
