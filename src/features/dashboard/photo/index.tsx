/**
 * The odometer's photo (docs/PRODUCT.md#odometer-photo). Only the draft's state is part of the form's
 * first screen: the field, its words (a catalog of their own), the camera and the encoder load once
 * the form is typeable, in a space the size of what comes. The history's thumbnails are ./slot.tsx's.
 */
import { Box } from '@chakra-ui/react';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import type { PhotoFieldProps } from './PhotoField';

export { usePhotoDraft, type PhotoDraftControls } from './usePhotoDraft';

export const PhotoField = retryableLazy<PhotoFieldProps>(() => import('./PhotoField'));

export const PhotoRequest = retryableLazy<PhotoFieldProps>(() =>
  import('./PhotoField').then((module) => ({ default: module.PhotoRequest })),
);

/** Where the field comes while its code loads: its label's line and its button's height, so nothing moves. */
export function PhotoFieldSpace() {
  return (
    <Box
      aria-hidden="true"
      data-photo-space=""
      minHeight="calc(1.25rem + var(--chakra-spacing-2) + var(--chakra-sizes-12))"
    />
  );
}
