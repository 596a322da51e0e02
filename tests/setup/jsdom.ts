import 'fake-indexeddb/auto';
import { webcrypto } from 'node:crypto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// With one worker, Vitest runs every file of a VM pool in one context, so files would see one another's
// IndexedDB, storage and globals: this file runs before each test file, and says so instead.
const CONTEXT_USED = Symbol.for('garage-portal.tests.context-used');
if (CONTEXT_USED in globalThis) {
  throw new Error('The unit files share one VM context with a single worker: run them with two workers or more.');
}
Object.defineProperty(globalThis, CONTEXT_USED, { value: true });

// Each file runs in a fresh VM context whose globals are jsdom's own (the vmForks pool, see
// vitest.config.ts). A browser has two things jsdom lacks there: crypto.subtle (the hand-over file's
// seal), for which Node's Web Crypto stands in, and the User Timing marks (the start-up marks). jsdom's
// performance stays: its clock is the one its requestAnimationFrame reports, which Zag's timers compare.
if (globalThis.crypto?.subtle === undefined) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true, writable: true });
}
if (typeof performance.mark !== 'function') addUserTimingMarks(performance);

/** mark, getEntriesByName and clearMarks, kept per file (Node's own marks would outlive it). */
function addUserTimingMarks(clock: Performance) {
  let marks: PerformanceEntry[] = [];
  const methods = {
    mark(name: string) {
      const mark = { name, entryType: 'mark', startTime: clock.now(), duration: 0, detail: null };
      marks.push({ ...mark, toJSON: () => mark } as PerformanceMark);
    },
    getEntriesByName: (name: string, type?: string) =>
      marks.filter((mark) => mark.name === name && (type === undefined || mark.entryType === type)),
    clearMarks(name?: string) {
      marks = name === undefined ? [] : marks.filter((mark) => mark.name !== name);
    },
  };
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(clock, name, { value, configurable: true, writable: true });
  }
}

// jsdom lacks these browser APIs that Chakra (Ark/Zag) and Leaflet touch.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
// A few files in this project run in Node (// @vitest-environment node): only patch a DOM when there is one.
if (typeof window !== 'undefined') installDomStubs();

function installDomStubs() {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  Element.prototype.scrollTo ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
}

// Menus and dialogs load on demand (their own chunks): on a busy 2-core CI machine the first one can
// take more than Testing Library's default second to appear. Waiting longer changes no assertion.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());
