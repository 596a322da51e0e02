/**
 * "Photo du compteur" (docs/PRODUCT.md#odometer-photo), optional: the rear camera in a dialog, or the
 * tablet's own picker (`capture="environment"` opens its camera) where the page cannot use one; then a
 * preview with Retake and Remove. The picture is made small before it is shown (usePhotoDraft).
 */
import { Box, Button, chakra, HStack, Image, Spinner, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useUnsavedInput } from '../../../lib/unsaved';
import { CameraIcon } from './CameraIcon';
import { usePhotoCatalog } from '../../../lib/photo-catalog';
import type { PhotoCaptureDialogProps } from './PhotoCaptureDialog';
import { usePhotoDraftState, type PhotoDraft, type PhotoDraftControls } from './usePhotoDraft';

const PhotoCaptureDialog = lazyDialog<PhotoCaptureDialogProps>(
  () => import('./PhotoCaptureDialog').then((module) => module.default),
  { isOpen: (props) => props.open, close: (props) => props.onClose() },
);

/** The page may open a camera itself: a secure page of a browser with getUserMedia. */
function pageHasCamera(): boolean {
  return window.isSecureContext && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

function DraftStatus({ draft }: { draft: PhotoDraft }) {
  if (draft.kind === 'encoding') {
    return (
      <HStack role="status" gap="2" color="fg.muted">
        <Spinner size="sm" />
        <Text>
          <Trans>Préparation de la photo…</Trans>
        </Text>
      </HStack>
    );
  }
  if (draft.kind !== 'failed') return null;
  return (
    <Text role="alert" data-photo-problem={draft.problem} color="fg.error">
      {draft.problem === 'unreadable' ? (
        <Trans>Cette image ne peut pas être lue. Prenez une autre photo.</Trans>
      ) : (
        <Trans>La photo n'a pas pu être préparée. Réessayez.</Trans>
      )}
    </Text>
  );
}

export interface PhotoFieldProps {
  controls: PhotoDraftControls;
}

export default function PhotoField({ controls }: PhotoFieldProps) {
  usePhotoCatalog();
  const labelId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [cameraOpen, setCameraOpen] = useState(false);
  const draft = usePhotoDraftState(controls);
  // A picture kept or on its way is input not saved yet: a new version of the portal waits for it.
  useUnsavedInput(draft.kind !== 'none');

  const chooseFile = () => {
    setCameraOpen(false);
    fileRef.current?.click();
  };
  const take = () => (pageHasCamera() ? setCameraOpen(true) : chooseFile());

  return (
    <Stack gap="2" role="group" aria-labelledby={labelId} data-photo={draft.kind}>
      <Text id={labelId} fontWeight="medium" textStyle="sm">
        <Trans>Photo du compteur</Trans>{' '}
        <chakra.span color="fg.muted" fontWeight="normal">
          <Trans>(facultative)</Trans>
        </chakra.span>
      </Text>
      {draft.kind === 'ready' ? (
        <HStack gap="4" align="center" flexWrap="wrap">
          <Image
            src={draft.previewUrl}
            alt=""
            // A small picture made with the photo, decoded off the main thread: the mechanic types meanwhile.
            decoding="async"
            data-photo-preview=""
            // What the tablet will keep, for those who measure it (npm run bench, the tests).
            data-photo-bytes={draft.photo.blob.size}
            data-photo-width={draft.photo.width}
            data-photo-height={draft.photo.height}
            width="28"
            height="20"
            objectFit="cover"
            rounded="l2"
            borderWidth="1px"
          />
          <Button type="button" size="lg" minHeight="12" variant="outline" onClick={take}>
            <Trans>Reprendre</Trans>
          </Button>
          <Button type="button" size="lg" minHeight="12" variant="ghost" colorPalette="red" onClick={controls.clear}>
            <Trans>Retirer la photo</Trans>
          </Button>
        </HStack>
      ) : (
        <Box>
          <Button
            type="button"
            size="lg"
            minHeight="12"
            variant="outline"
            onClick={take}
            disabled={draft.kind === 'encoding'}
          >
            <CameraIcon />
            <Trans>Photographier le compteur</Trans>
          </Button>
        </Box>
      )}
      <DraftStatus draft={draft} />
      {/* Out of sight but not display:none, so a tap on the button may open it on every browser. */}
      <chakra.input
        ref={fileRef}
        srOnly
        type="file"
        accept="image/*"
        capture="environment"
        tabIndex={-1}
        aria-hidden="true"
        data-photo-file=""
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) controls.accept(file);
        }}
      />
      <PhotoCaptureDialog
        open={cameraOpen}
        onTaken={(picture) => {
          setCameraOpen(false);
          controls.accept(picture);
        }}
        onChooseFile={chooseFile}
        onClose={() => setCameraOpen(false)}
      />
    </Stack>
  );
}

/**
 * In the odometer's confirmation (a lower reading, an implausible jump): the photo asked for, since it
 * is what settles a disputed reading, with the same field as the form's.
 */
export function PhotoRequest({ controls }: PhotoFieldProps) {
  usePhotoCatalog();
  const draft = usePhotoDraftState(controls);
  return (
    <Stack mt="5" gap="2" data-photo-request="">
      <Text color="fg.muted">
        {draft.kind === 'ready' ? (
          <Trans>La photo du compteur sera jointe à ce relevé.</Trans>
        ) : (
          <Trans>Une photo du compteur prouve ce relevé s'il est contesté.</Trans>
        )}
      </Text>
      <PhotoField controls={controls} />
    </Stack>
  );
}
