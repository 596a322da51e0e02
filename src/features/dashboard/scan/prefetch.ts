/**
 * ZXing's WebAssembly, fetched ahead on a tablet that will need it (docs/PRODUCT.md#scanning-and-the-vin-check):
 * the precache leaves it out (1.1 MB most tablets never use: Chrome on Android has a BarcodeDetector of
 * its own), so where the browser has none for the formats scanned, the page asks the service worker
 * to fetch and keep it (SCANNER_CODE_CACHE) once it runs: such a tablet still scans offline once it
 * has been online.
 */
import { afterFirstScreen } from '../../../lib/start-up';
import { askWorkerToKeepScannerCode } from '../../../lib/worker-prefetch';
import { hasNativeDetector, type ScanFormat } from './detector';
import { ZXING_WASM_URL } from './wasm-url';

/** Every format the portal scans: the KODE ID's and the VIN's. */
const SCANNED: ScanFormat[] = ['qr_code', 'code_128', 'code_39', 'data_matrix'];

let asked = false;

async function fetchWhereNeeded(): Promise<void> {
  if (await hasNativeDetector(SCANNED)) return;
  await askWorkerToKeepScannerCode(ZXING_WASM_URL);
}

/** Once per page, after the first screen is live; a failure (offline, say) waits for the next start. */
export function prefetchScannerWhereNeeded(): void {
  if (asked) return;
  asked = true;
  afterFirstScreen(() => void fetchWhereNeeded().catch(() => undefined));
}
