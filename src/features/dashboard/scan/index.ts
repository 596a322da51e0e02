/**
 * Scanning a KODE ID and checking the VIN (docs/PRODUCT.md#scanning-and-the-vin-check). Everything here
 * loads on demand: the camera view when Scan is pressed, the VIN check once a vehicle is found, ZXing's
 * WebAssembly only where the browser has no BarcodeDetector of its own.
 */
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import type { ScanDialogProps } from './ScanDialog';

export type { VinQuestion } from './VinMismatchDialog';
export { prefetchScannerWhereNeeded } from './prefetch';

export const ScanDialog = lazyDialog<ScanDialogProps>(() => import('./ScanDialog').then((module) => module.default), {
  isOpen: (props) => props.open,
  close: (props) => props.onClose(),
});

/** The field under the vehicle's details where the VIN read off the car is entered or scanned. */
export const VinCheck = retryableLazy(() => import('./VinCheck'));
