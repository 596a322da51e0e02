/**
 * What a code reader is, whichever reads (the browser's own BarcodeDetector or ZXing's WebAssembly):
 * apart from detector.ts, which loads ZXing's module on demand, so that module can name it too.
 */
export type ScanFormat = 'qr_code' | 'code_128' | 'code_39' | 'data_matrix';

export interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
