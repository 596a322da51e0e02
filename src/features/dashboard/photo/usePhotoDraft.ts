/**
 * The odometer's photo of the entry being written (docs/PRODUCT.md#odometer-photo): none, being made
 * small (off the main thread: src/lib/photos/encode.ts), ready with its preview, or a picture that could
 * not be used. It is written to the outbox with the entry at Insert, and forgotten with the form.
 */
import { useEffect, useRef, useState } from 'react';
import type { NewPhoto } from '../../../lib/sync';

/** Why a picture could not be used; each has its own words (PhotoField.tsx). */
export type PhotoProblem = 'unreadable' | 'failed';

export type PhotoDraft =
  | { kind: 'none' }
  | { kind: 'encoding' }
  | { kind: 'ready'; photo: NewPhoto; previewUrl: string }
  | { kind: 'failed'; problem: PhotoProblem };

const encoder = () => import('../../../lib/photos/encode');

export function usePhotoDraft() {
  const [draft, setDraft] = useState<PhotoDraft>({ kind: 'none' });
  // Each picture taken gets a number: a slow encoding finishing after a newer picture (or a removal) is dropped.
  const generation = useRef(0);
  // The draft as of the last change, for an Insert under way (it reads it when the entry is written).
  const latest = useRef<PhotoDraft>(draft);
  const show = (next: PhotoDraft) => {
    latest.current = next;
    setDraft(next);
  };

  // The preview's object URL lives as long as the draft that holds it.
  useEffect(() => {
    if (draft.kind !== 'ready') return;
    return () => URL.revokeObjectURL(draft.previewUrl);
  }, [draft]);

  async function accept(picture: Blob) {
    const mine = (generation.current += 1);
    show({ kind: 'encoding' });
    let next: PhotoDraft;
    try {
      const { encodePhoto, PhotoEncodeError } = await encoder();
      try {
        const photo = await encodePhoto(picture);
        next = { kind: 'ready', photo, previewUrl: URL.createObjectURL(photo.blob) };
      } catch (error) {
        next = {
          kind: 'failed',
          problem: error instanceof PhotoEncodeError && error.problem === 'unreadable' ? 'unreadable' : 'failed',
        };
      }
    } catch {
      next = { kind: 'failed', problem: 'failed' };
    }
    if (generation.current !== mine) {
      if (next.kind === 'ready') URL.revokeObjectURL(next.previewUrl);
      return;
    }
    show(next);
  }

  function clear() {
    generation.current += 1;
    show({ kind: 'none' });
  }

  return {
    draft,
    /** The photo Insert writes with the entry, if one is ready now. */
    current: (): NewPhoto | undefined => (latest.current.kind === 'ready' ? latest.current.photo : undefined),
    accept: (picture: Blob) => void accept(picture),
    clear,
  };
}

export type PhotoDraftControls = ReturnType<typeof usePhotoDraft>;
