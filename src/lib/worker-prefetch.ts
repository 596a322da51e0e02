/**
 * Asks the service worker, once it controls the page, to fetch and keep the scanner's WebAssembly,
 * which the precache leaves out (src/sw.ts): the worker fetches it in its own time, so a page that
 * goes offline meanwhile loses nothing and logs nothing. Nothing without a worker (the dev server).
 */
import { KEEP_SCANNER_CODE_MESSAGE } from '../../contract/shell';

export async function askWorkerToKeepScannerCode(url: string): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const workers = navigator.serviceWorker;
  await workers.ready;
  // A first worker takes control of the page a moment after it is ready (clients.claim).
  if (!workers.controller) {
    await new Promise((resolve) => workers.addEventListener('controllerchange', resolve, { once: true }));
  }
  workers.controller?.postMessage({ type: KEEP_SCANNER_CODE_MESSAGE, url });
}
