/**
 * The photo encoder's worker (encode.ts): decoding a 12-megapixel picture and encoding it several times
 * takes hundreds of milliseconds, which on the page would freeze the form the mechanic is filling in.
 */
import { encodeOn, offscreenSurface } from './canvas';
import { PhotoEncodeError } from './ladder';
import type { WorkerAnswer, WorkerRequest } from './encode';

declare const self: DedicatedWorkerGlobalScope;

self.addEventListener('message', (event: MessageEvent<WorkerRequest>) => {
  const { id, source } = event.data;
  encodeOn(offscreenSurface, source).then(
    (photo) => self.postMessage({ id, ok: true, photo } satisfies WorkerAnswer),
    (error: unknown) => {
      const problem = error instanceof PhotoEncodeError ? error.problem : 'failed';
      const message = error instanceof Error ? error.message : String(error);
      self.postMessage({ id, ok: false, problem, message } satisfies WorkerAnswer);
    },
  );
});
