/**
 * ZXing's WebAssembly reader behind the BarcodeDetector interface (the barcode-detector package). By
 * default it fetches its .wasm from a CDN; here the file is one of the app's own assets (Vite's ?url
 * import emits it), which the service worker keeps once fetched; a tablet that needs it fetches it in
 * the background after the worker's install (prefetch.ts), so scanning works offline.
 */
import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import { ZXING_WASM_URL as wasmUrl } from './wasm-url';
import type { Detector, ScanFormat } from './detector-types';

export async function zxingDetector(formats: ScanFormat[]): Promise<Detector> {
  // Loads the WebAssembly now, so that a missing file shows as the scanner being unavailable, at once.
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  return new BarcodeDetector({ formats });
}
