/**
 * The rear camera, to photograph the odometer (docs/PRODUCT.md#odometer-photo): the live picture and
 * one button that takes it. The camera runs only while the dialog is open and the tab shown; where it
 * cannot be opened, the dialog says why and offers the tablet's own camera or files instead.
 */
import { Box, Button, chakra, Dialog, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { DialogBody, DialogCloseButton, DialogFrame, TOAST_STRIP } from '../../../components/ui/dialog-frame';
import { usePhotoCatalog } from '../../../lib/photo-catalog';
import { CameraError, PHOTO_SIZE, playCamera, stopCamera, type CameraProblem } from '../scan/camera';

export interface PhotoCaptureDialogProps {
  open: boolean;
  /** The picture as the camera gave it, full size; the owner makes it small and closes the dialog. */
  onTaken: (picture: Blob) => void;
  /** The camera could not be used: the owner offers the file picker (which can open the system camera). */
  onChooseFile: () => void;
  onClose: () => void;
}

type CameraState = { kind: 'starting' } | { kind: 'live' } | { kind: 'problem'; problem: CameraProblem };

function ProblemText({ problem }: { problem: CameraProblem }) {
  switch (problem) {
    case 'insecure':
      return <Trans>La caméra n'est disponible que sur une page sécurisée (https).</Trans>;
    case 'no_camera':
      return <Trans>Aucune caméra n'a été trouvée sur cet appareil.</Trans>;
    case 'denied':
      return <Trans>L'accès à la caméra a été refusé. Autorisez-le dans les réglages du navigateur.</Trans>;
    case 'busy':
      return <Trans>La caméra est utilisée par une autre application.</Trans>;
    case 'failed':
      return <Trans>La caméra n'a pas pu être ouverte.</Trans>;
  }
}

/** The video's current picture, at the camera's own size, as a JPEG of high quality (made small later). */
function grab(video: HTMLVideoElement): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
}

function useRearCamera(videoRef: React.RefObject<HTMLVideoElement | null>) {
  const [state, setState] = useState<CameraState>({ kind: 'starting' });
  useEffect(() => {
    let active = true;
    let opened: MediaStream | null = null;
    const stop = () => {
      active = false;
      stopCamera(opened);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        stop();
        setState({ kind: 'problem', problem: 'busy' });
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    void (async () => {
      try {
        opened = await playCamera({ video: () => videoRef.current, wanted: () => active }, PHOTO_SIZE);
      } catch (error) {
        if (active) setState({ kind: 'problem', problem: error instanceof CameraError ? error.problem : 'failed' });
        return;
      }
      if (opened) setState({ kind: 'live' });
    })();
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      stop();
    };
  }, [videoRef]);
  return state;
}

function CameraView({ onTaken, onChooseFile }: Pick<PhotoCaptureDialogProps, 'onTaken' | 'onChooseFile'>) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useRearCamera(videoRef);
  const [taking, setTaking] = useState(false);
  const take = async () => {
    const video = videoRef.current;
    if (!video || taking) return;
    setTaking(true);
    const picture = await grab(video);
    setTaking(false);
    if (picture) onTaken(picture);
  };
  return (
    <Stack gap="3">
      {/* A camera's 16:9, letterboxed where a landscape tablet has less height: the buttons stay in view. */}
      <Box
        position="relative"
        bg="black"
        rounded="l2"
        overflow="hidden"
        aspectRatio="16 / 9"
        maxHeight={{ base: '60dvh', md: 'calc(100dvh - 22rem)' }}
        width="full"
      >
        <chakra.video
          ref={videoRef}
          muted
          playsInline
          aria-hidden="true"
          width="full"
          height="full"
          objectFit="contain"
        />
      </Box>
      {state.kind === 'problem' ? (
        <Box role="alert" data-problem={state.problem} bg="bg.error" color="fg.error" p="4" rounded="l2">
          <ProblemText problem={state.problem} />
        </Box>
      ) : (
        <Text role="status" aria-live="polite" data-camera={state.kind}>
          {state.kind === 'starting' ? (
            <Trans>Ouverture de la caméra…</Trans>
          ) : (
            <Trans>Cadrez le compteur, lisible, puis prenez la photo.</Trans>
          )}
        </Text>
      )}
      <HStack gap="3" flexWrap="wrap">
        <Button
          type="button"
          size="lg"
          minHeight="12"
          colorPalette="brand"
          disabled={state.kind !== 'live'}
          loading={taking}
          onClick={() => void take()}
        >
          <Trans>Prendre la photo</Trans>
        </Button>
        <Button type="button" size="lg" minHeight="12" variant="outline" onClick={onChooseFile}>
          <Trans>Choisir une image</Trans>
        </Button>
      </HStack>
    </Stack>
  );
}

export default function PhotoCaptureDialog({ open, onTaken, onChooseFile, onClose }: PhotoCaptureDialogProps) {
  usePhotoCatalog();
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      size={{ base: 'full', md: 'lg' }}
      positioner={{ pt: { base: '0', md: '4' }, pb: { base: '0', md: TOAST_STRIP } }}
    >
      <Dialog.Content minHeight={{ base: '100dvh', md: 'auto' }}>
        <Dialog.Header>
          <Dialog.Title>
            <Trans>Photo du compteur</Trans>
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody>{open && <CameraView onTaken={onTaken} onChooseFile={onChooseFile} />}</DialogBody>
        <DialogCloseButton size="lg" />
      </Dialog.Content>
    </DialogFrame>
  );
}
