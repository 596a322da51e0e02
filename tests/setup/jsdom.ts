import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

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
