/** An entry's odometer photo in the history (docs/PRODUCT.md#odometer-photo), loaded with the history. */
import { Box } from '@chakra-ui/react';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import type { EntryPhotoProps } from './EntryPhoto';

const EntryPhoto = retryableLazy<EntryPhotoProps>(() => import('./EntryPhoto'));

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
