/**
 * ZXing's WebAssembly reader behind the BarcodeDetector interface (the barcode-detector package). By
 * default it fetches its .wasm from a CDN; here the file is one of the app's own assets (Vite's ?url
 * import emits it), precached by the service worker (vite.config.ts), so scanning works offline.
 */
import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { Detector, ScanFormat } from './detector';

export async function zxingDetector(formats: ScanFormat[]): Promise<Detector> {
  // Loads the WebAssembly now, so that a missing file shows as the scanner being unavailable, at once.
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  return new BarcodeDetector({ formats });
}
