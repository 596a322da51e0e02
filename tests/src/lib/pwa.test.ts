/**
 * The page and the service worker (src/lib/pwa.ts): the worker that the first visit installs claims
 * that page without reloading it; a new version taking over reloads, also in a page that was first
 * claimed in the same visit; a registration the browser refuses or an update check that fails
 * offline leaves no unhandled rejection.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const workboxes: FakeWorkbox[] = [];

class FakeWorkbox extends EventTarget {
  /** Registration fails as it does when the browser refuses the worker. */
  static refuse = false;
  register = vi.fn(() =>
    FakeWorkbox.refuse
      ? Promise.reject(new TypeError("Cannot read properties of undefined (reading 'waiting')"))
      : Promise.resolve(),
  );
  /** Update checks so far; a plain method, since a vi.fn would itself handle a rejection it returns. */
  updates = 0;
  updateFails = false;
  update() {
    this.updates += 1;
    return this.updateFails ? Promise.reject(new TypeError('Failed to update a ServiceWorker')) : Promise.resolve();
  }
  constructor() {
    super();
    workboxes.push(this);
  }
  /** The browser gives the page a (new) controller. */
  control() {
    this.dispatchEvent(new Event('controlling'));
  }
}

vi.mock('workbox-window', () => ({ Workbox: FakeWorkbox }));

function setController(controller: object | null) {
  Object.defineProperty(navigator, 'serviceWorker', { value: { controller }, configurable: true });
}

async function register() {
  vi.resetModules();
  workboxes.length = 0;
  const { registerServiceWorker } = await import('../../../src/lib/pwa');
  const reload = vi.fn();
  await registerServiceWorker(reload);
  return { reload, workbox: workboxes[0]! };
}

beforeEach(() => {
  vi.stubEnv('PROD', true);
  vi.useFakeTimers({ toFake: ['setInterval'] });
});

afterEach(() => {
  FakeWorkbox.refuse = false;
  vi.unstubAllEnvs();
  vi.useRealTimers();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('registerServiceWorker', () => {
  it('does not reload when the first worker claims the page that installed it', async () => {
    setController(null);
    const { reload, workbox } = await register();
    workbox.control();
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads when a new version takes over a page that was already controlled', async () => {
    setController({});
    const { reload, workbox } = await register();
    workbox.control();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads when a new version takes over a page first claimed in the same visit', async () => {
    setController(null);
    const { reload, workbox } = await register();
    workbox.control(); // the first worker claims the page
    workbox.control(); // later, the mechanic accepted a new version
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('settles quietly when the browser refuses the worker, and checks no update then', async () => {
    setController(null);
    FakeWorkbox.refuse = true;
    const { workbox } = await register();
    expect(workbox.register).toHaveBeenCalledTimes(1);
    document.dispatchEvent(new Event('visibilitychange'));
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(workbox.updates).toBe(0);
  });

  it('lets an update check fail offline without an unhandled rejection', async () => {
    setController({});
    const { workbox } = await register();
    workbox.updateFails = true;
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      vi.advanceTimersByTime(60 * 60 * 1000);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(workbox.updates).toBe(1);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
