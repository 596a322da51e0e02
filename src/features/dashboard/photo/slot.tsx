/**
 * An entry's odometer photo in the history, and the mark of a reading that has one
 * (docs/PRODUCT.md#odometer-photo): loaded with the history or the timeline, with the photo's words.
 */
import { Box } from '@chakra-ui/react';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import type { EntryPhotoProps } from './EntryPhoto';
import type { PhotoMarkProps } from './PhotoMark';

const EntryPhoto = retryableLazy<EntryPhotoProps>(() => import('./EntryPhoto'));
const PhotoMark = retryableLazy<PhotoMarkProps>(() => import('./PhotoMark'));

/** An entry's photo in the history, in a thumbnail's space while its code loads. */
export function EntryPhotoSlot(props: EntryPhotoProps) {
  return (
    <ChunkErrorBoundary
      reset={EntryPhoto.reset}
      // The thumbnail, and its state's line under it.
      loading={<Box width="16" height="calc(var(--chakra-sizes-12) + var(--chakra-spacing-1) + 1rem)" />}
    >
      <EntryPhoto {...props} />
    </ChunkErrorBoundary>
  );
}

/** Beside a verdict: the reading has a photo. Nothing while its code loads, nor if it cannot (the thumbnail says it too). */
export function PhotoMarkSlot(props: PhotoMarkProps) {
  return (
    <ChunkErrorBoundary reset={PhotoMark.reset} fallback={() => null}>
      <PhotoMark {...props} />
    </ChunkErrorBoundary>
  );
}
