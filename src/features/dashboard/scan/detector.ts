/**
 * Reading codes from the camera's picture (docs/PRODUCT.md#scanning-and-the-vin-check): the browser's own
 * BarcodeDetector where it has one for the formats asked (Chrome on Android), otherwise ZXing's
 * WebAssembly build (zxing.ts), loaded only then.
 */

import type { Detector, ScanFormat } from './detector-types';

export type { Detector, ScanFormat } from './detector-types';

/** The Barcode Detection API is not in TypeScript's DOM types. */
interface NativeDetectorClass {
  new (options: { formats: ScanFormat[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
}

async function nativeDetector(formats: ScanFormat[]): Promise<Detector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const supported = await Native.getSupportedFormats();
    return formats.every((format) => supported.includes(format)) ? new Native({ formats }) : null;
  } catch {
    return null;
  }
}

/** Whether the browser's own BarcodeDetector reads all these formats (ZXing's WebAssembly is then never needed). */
export async function hasNativeDetector(formats: ScanFormat[]): Promise<boolean> {
  return (await nativeDetector(formats)) !== null;
}

/** Rejects when the polyfill's code or WebAssembly cannot be had (offline before the tablet cached them). */
export async function createDetector(formats: ScanFormat[]): Promise<Detector> {
  const native = await nativeDetector(formats);
  if (native) return native;
  const { zxingDetector } = await import('./zxing');
  return zxingDetector(formats);
}
