/**
 * The odometer's photo of the entry being written (docs/PRODUCT.md#odometer-photo): none, being made
 * small (off the main thread: src/lib/photos/encode.ts), ready with its preview, or a picture that could
 * not be used. It is written to the outbox with the entry at Insert, and forgotten with the form.
 *
 * The draft lives in a store of its own, outside the form's state: only the parts that show it (the
 * field, the confirmation's request) re-render when it changes. Re-rendering the whole form when a
 * picture is handed over and again when it is ready held up the mechanic's typing meanwhile.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { createStore, type Store } from '../../../lib/store';
import type { NewPhoto } from '../../../lib/entries';

/** Why a picture could not be used; each has its own words (PhotoField.tsx). */
export type PhotoProblem = 'unreadable' | 'failed';

export type PhotoDraft =
  | { kind: 'none' }
  | { kind: 'encoding' }
  /** previewUrl: a small picture of the photo, made with it (the form shows it 112 px wide). */
  | { kind: 'ready'; photo: NewPhoto; previewUrl: string }
  | { kind: 'failed'; problem: PhotoProblem };

const encoder = () => import('../../../lib/photos/encode');

export interface PhotoDraftControls {
  /** What usePhotoDraftState follows. */
  readonly store: Pick<Store<PhotoDraft>, 'get' | 'subscribe'>;
  /** The photo Insert writes with the entry, if one is ready now. */
  current: () => NewPhoto | undefined;
  /** Makes the picture small and keeps it as the draft (a newer picture or a removal wins). */
  accept: (picture: Blob) => void;
  clear: () => void;
}

const NONE: PhotoDraft = { kind: 'none' };

function photoDraftControls(): PhotoDraftControls & { dispose: () => void } {
  const store = createStore<PhotoDraft>(NONE);
  // Each picture taken gets a number: a slow encoding finishing after a newer picture (or a removal) is dropped.
  let generation = 0;
  // The preview's object URL lives as long as the draft that holds it.
  const show = (next: PhotoDraft) => {
    const previous = store.get();
    store.set(next);
    if (previous.kind === 'ready' && previous !== next) URL.revokeObjectURL(previous.previewUrl);
  };

  async function accept(picture: Blob) {
    const mine = (generation += 1);
    show({ kind: 'encoding' });
    let next: PhotoDraft;
    try {
      const { encodePhoto, PhotoEncodeError } = await encoder();
      try {
        const { preview, ...photo } = await encodePhoto(picture);
        next = { kind: 'ready', photo, previewUrl: URL.createObjectURL(preview) };
      } catch (error) {
        next = {
          kind: 'failed',
          problem: error instanceof PhotoEncodeError && error.problem === 'unreadable' ? 'unreadable' : 'failed',
        };
      }
    } catch {
      next = { kind: 'failed', problem: 'failed' };
    }
    if (generation !== mine) {
      if (next.kind === 'ready') URL.revokeObjectURL(next.previewUrl);
      return;
    }
    show(next);
  }

  const clear = () => {
    generation += 1;
    show(NONE);
  };

  return {
    store,
    current: () => {
      const draft = store.get();
      return draft.kind === 'ready' ? draft.photo : undefined;
    },
    accept: (picture) => void accept(picture),
    clear,
    dispose: clear,
  };
}

/** The form's photo draft: its controls stay the same object for the form's life, the draft changes nothing here. */
export function usePhotoDraft(): PhotoDraftControls {
  const [controls] = useState(photoDraftControls);
  useEffect(() => controls.dispose, [controls]);
  return controls;
}

/** The draft itself, for the parts that show it: they alone re-render when it changes. */
export function usePhotoDraftState(controls: PhotoDraftControls): PhotoDraft {
  return useSyncExternalStore(controls.store.subscribe, controls.store.get, controls.store.get);
}
