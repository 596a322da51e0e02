/**
 * An entry's odometer photo in the history (docs/PRODUCT.md#odometer-photo): a thumbnail that says where
 * the photo is (on the tablet, sending, sent, refused) and opens the picture when tapped.
 */
import { Button, Image, Spinner, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useSeen } from '../../../hooks/use-seen';
import { outboxErrorText } from '../../../lib/entries/words';
import type { HistoryPhoto } from '../../../lib/entries/history';
import { usePhotoImage } from '../data/photos';
import { CameraIcon } from './CameraIcon';
import { usePhotoCatalog } from '../../../lib/photo-catalog';
import type { PhotoViewerDialogProps } from './PhotoViewerDialog';

const PhotoViewerDialog = lazyDialog<PhotoViewerDialogProps>(
  () => import('./PhotoViewerDialog').then((module) => module.default),
  { isOpen: (props) => props.open, close: (props) => props.onClose() },
);

function PhotoStateText({ photo }: { photo: HistoryPhoto }) {
  const { i18n } = useLingui();
  switch (photo.state) {
    case 'on_tablet':
      return <Trans>Photo sur la tablette</Trans>;
    case 'sending':
      return <Trans>Photo en cours d’envoi</Trans>;
    case 'sent':
      return <Trans>Photo envoyée</Trans>;
    case 'refused':
      return (
        <>
          <Trans>Photo refusée</Trans>
          {photo.error && <> : {outboxErrorText(i18n, photo.error)}</>}
        </>
      );
  }
}

export interface EntryPhotoProps {
  photo: HistoryPhoto;
  kodeId: string;
}

export default function EntryPhoto({ photo, kodeId }: EntryPhotoProps) {
  usePhotoCatalog();
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const thumbnail = useRef<HTMLDivElement>(null);
  const seen = useSeen(thumbnail);
  const image = usePhotoImage(photo, seen || open);
  return (
    <Stack ref={thumbnail} gap="1" align="flex-start" data-entry-photo={photo.state}>
      <Button
        type="button"
        variant="outline"
        p="0"
        width="16"
        height="12"
        minWidth="16"
        overflow="hidden"
        aria-label={t`Voir la photo du compteur de ${kodeId}`}
        onClick={() => setOpen(true)}
      >
        {image.kind === 'shown' ? (
          <Image src={image.url} alt="" decoding="async" width="full" height="full" objectFit="cover" />
        ) : image.kind === 'loading' && seen ? (
          <Spinner size="sm" />
        ) : (
          <CameraIcon />
        )}
      </Button>
      <Text fontSize="xs" color={photo.state === 'refused' ? 'fg.error' : 'fg.muted'} maxWidth="40">
        <PhotoStateText photo={photo} />
      </Text>
      <PhotoViewerDialog open={open} image={image} kodeId={kodeId} onClose={() => setOpen(false)} />
    </Stack>
  );
}
