/**
 * The odometer photo encoder: a camera picture made small before the tablet stores it (ladder.ts says
 * how small). The work runs in a worker so the page stays responsive; a browser without
 * OffscreenCanvas or workers, or a worker that does not start, gets the same algorithm on the page.
 */
import { elementSurface, encodeOn, type PreparedPhoto } from './canvas';
import { PhotoEncodeError, type PhotoProblem } from './ladder';

export { PHOTO_TARGET_BYTES, PhotoEncodeError, type EncodedPhoto } from './ladder';
export type { PreparedPhoto } from './canvas';

export interface WorkerRequest {
  id: number;
  source: Blob;
}

export type WorkerAnswer =
  { id: number; ok: true; photo: PreparedPhoto } | { id: number; ok: false; problem: PhotoProblem; message: string };

interface Pending {
  source: Blob;
  resolve: (photo: PreparedPhoto) => void;
  reject: (error: unknown) => void;
}

/** Undefined until the first photo; null once the worker is known not to work here. */
let worker: Worker | null | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

const onThePage = (source: Blob) => encodeOn(elementSurface, source);

/** The worker, started at the first photo and kept for the next ones; null when it cannot run here. */
function encoderWorker(): Worker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return (worker = null);
  try {
    worker = new Worker(new URL('./encode-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return (worker = null);
  }
  worker.addEventListener('message', (event: MessageEvent<WorkerAnswer>) => {
    const answer = event.data;
    const request = pending.get(answer.id);
    if (!request) return;
    pending.delete(answer.id);
    if (answer.ok) request.resolve(answer.photo);
    // 'failed' may be the worker's alone (an OffscreenCanvas without a 2D context): the page tries.
    else if (answer.problem === 'failed') onThePage(request.source).then(request.resolve, request.reject);
    else request.reject(new PhotoEncodeError(answer.problem, answer.message));
  });
  // A script that does not load or evaluate (an old cache, a CSP, no module workers): the page takes
  // over this worker's photos and every later one.
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const request of pending.values()) onThePage(request.source).then(request.resolve, request.reject);
    pending.clear();
  });
  return worker;
}

/**
 * The camera's picture ready to store: long side at most PHOTO_MAX_SIDE_PX, WebP (JPEG where the browser
 * cannot encode WebP), aimed under PHOTO_TARGET_BYTES and never above PHOTO_MAX_BYTES, without its
 * metadata. Rejects with a PhotoEncodeError: 'unreadable' for a picture that cannot be decoded.
 */
export function encodePhoto(source: Blob): Promise<PreparedPhoto> {
  const encoder = encoderWorker();
  if (!encoder) return onThePage(source);
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { source, resolve, reject });
    encoder.postMessage({ id, source } satisfies WorkerRequest);
  });
}
