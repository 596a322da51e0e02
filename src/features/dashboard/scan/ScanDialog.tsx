/**
 * The camera view (docs/PRODUCT.md#scanning-and-the-vin-check): the picture with a frame to aim with, what
 * was read and why it was refused, the torch where there is one. The camera runs only while a scan
 * session is mounted: closing the view, hiding the tab or a minute without a read stops every track.
 */
import { Box, Button, chakra, Dialog, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { normalizeVin, isVinForm, readKodeId } from '../../../../contract';
import { DialogBody, DialogCloseButton, DialogFrame, TOAST_STRIP } from '../../../components/ui/dialog-frame';
import { CameraError, hasTorch, playCamera, setTorch, stopCamera, type CameraProblem } from './camera';
import { useScanCatalog } from './catalog';
import { createDetector, type ScanFormat } from './detector';

/** What the scan is for: a KODE ID label, or the VIN on the door pillar or the windscreen. */
export type ScanTarget = 'kode_id' | 'vin';

export interface ScanDialogProps {
  open: boolean;
  target: ScanTarget;
  /** A code that is what the target asks for, as the field takes it; the owner closes the view. */
  onRead: (value: string) => void;
  onClose: () => void;
}

const FORMATS: Record<ScanTarget, ScanFormat[]> = {
  kode_id: ['qr_code', 'code_128', 'data_matrix'],
  vin: ['code_39', 'code_128', 'data_matrix', 'qr_code'],
};

/** The camera stops after this long without a code read (docs/PRODUCT.md#scanning-and-the-vin-check). */
export const SCAN_IDLE_MS = 60_000;
/** Time between two looks at the picture: fast enough to feel instant, light on a tablet's battery. */
const SCAN_INTERVAL_MS = 150;

type SessionState =
  | { kind: 'starting' }
  | { kind: 'scanning' }
  | { kind: 'problem'; problem: CameraProblem | 'unavailable' }
  | { kind: 'stopped'; reason: 'idle' | 'hidden' };

/** Why a code was refused: null when it is what the target asks for. */
function useRefusal(target: ScanTarget) {
  const { t } = useLingui();
  return (raw: string): { value: string } | { refusal: string } => {
    if (target === 'vin') {
      const vin = normalizeVin(raw);
      return isVinForm(vin)
        ? { value: vin }
        : { refusal: t`Ce n'est pas un VIN : un VIN compte 17 caractères, lettres et chiffres, sans I, O ni Q.` };
    }
    const reading = readKodeId(raw);
    switch (reading.kind) {
      case 'kode_id':
        return { value: reading.kodeId };
      case 'empty':
        return { refusal: t`Ce code est vide.` };
      case 'wrong_length':
        return { refusal: t`Ce n'est pas un KODE ID : il compte ${reading.length} caractères au lieu de 10.` };
      case 'wrong_characters':
        return {
          refusal: t`Ce n'est pas un KODE ID : un KODE ID ne contient que des lettres majuscules et des chiffres.`,
        };
    }
  };
}

function ProblemText({ problem }: { problem: CameraProblem | 'unavailable' }) {
  switch (problem) {
    case 'insecure':
      return (
        <Trans>La caméra n'est disponible que sur une page sécurisée (https). Saisissez le code au clavier.</Trans>
      );
    case 'no_camera':
      return <Trans>Aucune caméra n'a été trouvée sur cet appareil. Saisissez le code au clavier.</Trans>;
    case 'denied':
      return (
        <Trans>
          L'accès à la caméra a été refusé. Autorisez la caméra dans les réglages du navigateur, ou saisissez le code au
          clavier.
        </Trans>
      );
    case 'busy':
      return (
        <Trans>
          La caméra est déjà utilisée par une autre application. Fermez-la puis réessayez, ou saisissez le code au
          clavier.
        </Trans>
      );
    case 'unavailable':
      return (
        <Trans>
          Le lecteur de codes n'a pas pu être chargé : la tablette ne l'a pas encore enregistré pour une utilisation
          hors connexion. Saisissez le code au clavier.
        </Trans>
      );
    case 'failed':
      return <Trans>La caméra n'a pas pu être ouverte. Réessayez, ou saisissez le code au clavier.</Trans>;
  }
}

function ScanSession({
  target,
  onRead,
  onRestart,
}: {
  target: ScanTarget;
  onRead: (value: string) => void;
  onRestart: () => void;
}) {
  const [state, setState] = useState<SessionState>({ kind: 'starting' });
  const [refused, setRefused] = useState<{ raw: string; refusal: string } | null>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [torch, setTorchOn] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const judge = useRefusal(target);
  // The latest callbacks, read by the scanning loop without restarting the camera.
  const latest = useRef({ judge, onRead });
  useEffect(() => {
    latest.current = { judge, onRead };
  });

  useEffect(() => {
    let active = true;
    let opened: MediaStream | null = null;
    let loop: ReturnType<typeof setTimeout> | undefined;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const stop = (next: SessionState) => {
      if (!active) return;
      active = false;
      clearTimeout(loop);
      clearTimeout(idle);
      stopCamera(opened);
      setStream(null);
      setState(next);
    };
    const restartIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => stop({ kind: 'stopped', reason: 'idle' }), SCAN_IDLE_MS);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') stop({ kind: 'stopped', reason: 'hidden' });
    };
    document.addEventListener('visibilitychange', onVisibility);

    void (async () => {
      let detector;
      try {
        detector = await createDetector(FORMATS[target]);
      } catch {
        stop({ kind: 'problem', problem: 'unavailable' });
        return;
      }
      const view = { video: () => videoRef.current, wanted: () => active };
      try {
        opened = await playCamera(view);
      } catch (error) {
        stop({ kind: 'problem', problem: error instanceof CameraError ? error.problem : 'failed' });
        return;
      }
      const video = view.video();
      if (!opened || !video) return;
      setStream(opened);
      setState({ kind: 'scanning' });
      restartIdle();
      const look = async () => {
        if (!active) return;
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
          const codes = await detector.detect(video).catch(() => []);
          const raw = codes[0]?.rawValue;
          if (active && raw !== undefined) {
            restartIdle();
            const verdict = latest.current.judge(raw);
            if ('value' in verdict) {
              stop({ kind: 'scanning' });
              latest.current.onRead(verdict.value);
              return;
            }
            setRefused({ raw, refusal: verdict.refusal });
          }
        }
        if (active) loop = setTimeout(() => void look(), SCAN_INTERVAL_MS);
      };
      void look();
    })();

    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      stop({ kind: 'starting' });
    };
  }, [target]);

  const status: ReactNode =
    state.kind === 'starting' ? (
      <Trans>Ouverture de la caméra…</Trans>
    ) : target === 'kode_id' ? (
      <Trans>Placez l'étiquette KODE ID dans le cadre.</Trans>
    ) : (
      <Trans>Placez le code-barres du VIN (montant de porte ou pare-brise) dans le cadre.</Trans>
    );

  if (state.kind === 'problem') {
    return (
      <Box role="alert" data-problem={state.problem} bg="bg.error" color="fg.error" p="4" rounded="l2">
        <ProblemText problem={state.problem} />
      </Box>
    );
  }
  if (state.kind === 'stopped') {
    return (
      <Stack gap="4" align="flex-start" role="status" data-stopped={state.reason}>
        <Text>
          {state.reason === 'idle' ? (
            <Trans>Caméra arrêtée après une minute sans lecture.</Trans>
          ) : (
            <Trans>Caméra arrêtée pendant que l'application était masquée.</Trans>
          )}
        </Text>
        <Button size="lg" minHeight="12" colorPalette="brand" onClick={onRestart}>
          <Trans>Reprendre le scan</Trans>
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="3">
      {/* At most 40 % of the screen's height tall: on a tablet in landscape the instruction and what was
          read stay in view below it, where no one aiming at a code would scroll the dialog to. */}
      <Box
        position="relative"
        bg="black"
        rounded="l2"
        overflow="hidden"
        aspectRatio="4 / 3"
        width="full"
        maxWidth="calc(40dvh * 4 / 3)"
        marginInline="auto"
      >
        <chakra.video
          ref={videoRef}
          muted
          playsInline
          aria-hidden="true"
          width="full"
          height="full"
          objectFit="cover"
        />
        {/* The frame to aim with: square for a QR or Data Matrix label, wide for a VIN's bar code. */}
        <Box
          aria-hidden="true"
          position="absolute"
          insetInline={target === 'vin' ? '6%' : '22%'}
          insetBlock={target === 'vin' ? '32%' : '15%'}
          borderWidth="4px"
          borderColor="white"
          rounded="l2"
          boxShadow="0 0 0 100vmax rgba(0, 0, 0, 0.45)"
        />
      </Box>
      <Text role="status" aria-live="polite" data-scan-status={state.kind}>
        {status}
      </Text>
      {refused && (
        <Box role="alert" data-refused="" bg="bg.warning" p="3" rounded="l2">
          <Text>
            <Trans>
              Code lu :{' '}
              <chakra.bdi fontFamily="mono" dir="ltr">
                {refused.raw}
              </chakra.bdi>
            </Trans>
          </Text>
          <Text>{refused.refusal}</Text>
        </Box>
      )}
      {stream && hasTorch(stream) && (
        <Button
          size="lg"
          minHeight="12"
          variant="outline"
          aria-pressed={torch}
          onClick={() => {
            const next = !torch;
            setTorch(stream, next).then(
              () => setTorchOn(next),
              () => undefined,
            );
          }}
        >
          {torch ? <Trans>Éteindre la lampe</Trans> : <Trans>Allumer la lampe</Trans>}
        </Button>
      )}
    </Stack>
  );
}

export default function ScanDialog({ open, target, onRead, onClose }: ScanDialogProps) {
  useScanCatalog();
  // A new session (remounted) opens the camera again after it stopped.
  const [session, setSession] = useState(0);
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      size={{ base: 'full', md: 'lg' }}
      // Full screen on a phone; on a tablet a dialog like the others, clear of the toasts' strip.
      positioner={{ pt: { base: '0', md: '4' }, pb: { base: '0', md: TOAST_STRIP } }}
    >
      {/* The full size's minimum height (the whole screen) is not undone by the larger sizes. */}
      <Dialog.Content minHeight={{ base: '100dvh', md: 'auto' }}>
        <Dialog.Header>
          <Dialog.Title>
            {target === 'kode_id' ? <Trans>Scanner le KODE ID</Trans> : <Trans>Scanner le VIN</Trans>}
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody>
          {open && (
            <ScanSession key={session} target={target} onRead={onRead} onRestart={() => setSession((n) => n + 1)} />
          )}
        </DialogBody>
        <Dialog.Footer>
          <HStack width="full" justify="flex-end">
            <Button size="lg" minHeight="12" variant="outline" onClick={onClose}>
              <Trans>Saisir au clavier</Trans>
            </Button>
          </HStack>
        </Dialog.Footer>
        <DialogCloseButton size="lg" />
      </Dialog.Content>
    </DialogFrame>
  );
}
