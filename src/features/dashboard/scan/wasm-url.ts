/** Where ZXing's WebAssembly reader is served from (a hashed asset Vite emits): a string, nothing loaded. */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

export const ZXING_WASM_URL: string = wasmUrl;
