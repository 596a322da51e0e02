/** An entry's odometer photo, whole (docs/PRODUCT.md#odometer-photo). */
import { Dialog, Image, Spinner, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { DialogBody, DialogCloseButton, DialogFrame } from '../../../components/ui/dialog-frame';
import type { PhotoImage } from '../data/photos';
import { usePhotoCatalog } from '../../../lib/photo-catalog';

export interface PhotoViewerDialogProps {
  open: boolean;
  image: PhotoImage;
  kodeId: string;
  onClose: () => void;
}

export default function PhotoViewerDialog({ open, image, kodeId, onClose }: PhotoViewerDialogProps) {
  usePhotoCatalog();
  return (
    <DialogFrame open={open} onClose={onClose} size={{ base: 'full', md: 'xl' }}>
      {/* The full size's minimum height (the whole screen) is not undone by the larger sizes. */}
      <Dialog.Content minHeight={{ base: '100dvh', md: 'auto' }}>
        <Dialog.Header>
          <Dialog.Title>
            <Trans>
              Photo du compteur · <bdi>{kodeId}</bdi>
            </Trans>
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody display="flex" justifyContent="center" pb="6">
          {image.kind === 'shown' ? (
            <Image
              src={image.url}
              alt=""
              decoding="async"
              data-photo-full=""
              maxWidth="full"
              // The dialog's title and close button stay in view above it, on a landscape tablet too.
              maxHeight="calc(100dvh - 12rem)"
              objectFit="contain"
              rounded="l2"
            />
          ) : image.kind === 'loading' ? (
            <Spinner size="lg" />
          ) : (
            <Text role="alert" color="fg.error">
              <Trans>La photo ne peut pas être affichée pour le moment. Réessayez une fois en ligne.</Trans>
            </Text>
          )}
        </DialogBody>
        <DialogCloseButton size="lg" />
      </Dialog.Content>
    </DialogFrame>
  );
}
