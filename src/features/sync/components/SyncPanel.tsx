/**
 * The sending panel, opened from the header's status: what waits to be sent, the hand-over file that
 * carries it to another tablet (docs/ARCHITECTURE.md#the-hand-over-file) and the health of the
 * tablet's storage that keeps it (docs/ARCHITECTURE.md#storage-health). Loaded on first use.
 */
import { Box, Button, Dialog, Heading, Stack, Text } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, useRef, useState, type RefObject } from 'react';
import { DialogBody, DialogCloseButton, DialogFrame } from '../../../components/ui/dialog-frame';
import { showToast } from '../../../components/ui/toaster';
import { formatBytes } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { offerInstall, useInstallOffered } from '../../../lib/pwa';
import { storageRisks, type StorageHealth } from '../../../lib/storage-health';
import { backgroundSyncAvailable } from '../../../lib/entries';
import { useSyncStatus } from '../../../lib/entries/hooks';
import { requestPersistentStorage, useStorageHealth } from '../hooks/useStorageHealth';
import { HandoverSection } from './HandoverSection';
import { PhotosLine } from './PhotosLine';
import { StorageRiskAlert } from './StorageRiskText';
import { useSyncCatalog } from '../catalog';

export interface SyncPanelProps {
  open: boolean;
  onClose: () => void;
  /** Open at the storage's section (the header's warning sign was what the mechanic saw). */
  showStorage?: boolean;
}

function OutboxSummary() {
  const { t } = useLingui();
  const { online, waiting, rejected } = useSyncStatus();
  return (
    <Stack gap="1">
      <Text fontWeight="medium" color={online ? 'fg.success' : 'fg.warning'}>
        {online ? <Trans>En ligne</Trans> : <Trans>Hors ligne</Trans>}
      </Text>
      {waiting === 0 && rejected === 0 && (
        <Text>
          <Trans>Aucune saisie en attente d’envoi.</Trans>
        </Text>
      )}
      {waiting > 0 && (
        <Text>{t`${plural(waiting, { one: "# saisie en attente d'envoi", other: "# saisies en attente d'envoi" })}`}</Text>
      )}
      {rejected > 0 && (
        <Text color="fg.error">{t`${plural(rejected, { one: '# saisie refusée', other: '# saisies refusées' })}`}</Text>
      )}
      <Text color="fg.muted">
        {backgroundSyncAvailable() ? (
          <Trans>Les saisies partent même portail fermé, dès que la connexion revient.</Trans>
        ) : (
          <Trans>Les saisies partent quand le portail est ouvert et connecté.</Trans>
        )}
      </Text>
    </Stack>
  );
}

function PersistenceLine({ health }: { health: StorageHealth }) {
  const { t } = useLingui();
  const [asking, setAsking] = useState(false);
  if (health.persisted === true) {
    return <Trans>Protégé : le navigateur garde les saisies jusqu’à ce qu’on efface ses données.</Trans>;
  }
  if (health.persisted === null) return <Trans>Ce navigateur ne dit pas s’il garde les saisies.</Trans>;
  const ask = async () => {
    setAsking(true);
    const granted = await requestPersistentStorage().finally(() => setAsking(false));
    if (!granted) {
      showToast({
        type: 'warning',
        title: () => t`Le navigateur n’a pas accordé la protection`,
        description: () => t`Installez le portail sur l’écran d’accueil : le navigateur protège alors son stockage.`,
      });
    }
  };
  return (
    <Stack gap="2" align="start">
      <Text>
        <Trans>Non protégé : le navigateur peut effacer les saisies en attente s’il manque de place.</Trans>
      </Text>
      <Button variant="outline" minHeight="12" loading={asking} onClick={() => void ask()}>
        <Trans>Protéger le stockage</Trans>
      </Button>
    </Stack>
  );
}

function UsageLine({ health }: { health: StorageHealth }) {
  const { t } = useLingui();
  const locale = useLocale();
  if (!health.usage) return null;
  const percent = Math.round(health.usage.ratio * 100);
  const used = formatBytes(health.usage.used, locale);
  const quota = formatBytes(health.usage.quota, locale);
  return (
    <Stack gap="1">
      <Text id="storage-usage">{t`${used} utilisés sur ${quota} (${percent} %)`}</Text>
      {/* A plain meter: the theme carries no progress recipe for one bar. */}
      <Box
        role="meter"
        aria-labelledby="storage-usage"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        height="2"
        rounded="full"
        overflow="hidden"
        bg="bg.emphasized"
      >
        <Box
          height="full"
          width={`${percent}%`}
          bg={percent >= 80 ? 'fg.error' : 'colorPalette.solid'}
          colorPalette="brand"
        />
      </Box>
    </Stack>
  );
}

function InstallOffer() {
  const offered = useInstallOffered();
  if (!offered) return null;
  return (
    <Button colorPalette="brand" minHeight="12" alignSelf="start" onClick={() => void offerInstall()}>
      <Trans>Installer le portail</Trans>
    </Button>
  );
}

function StorageSection({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const { waiting, rejected } = useSyncStatus();
  const health = useStorageHealth(waiting + rejected);
  const warnings = health ? storageRisks(health).filter((risk) => risk !== 'not-persistent') : [];
  return (
    <Stack gap="3" as="section" aria-labelledby="storage-heading">
      {/* Focusable by script only: the panel opened at this section puts the focus here. */}
      <Heading as="h3" size="md" id="storage-heading" ref={headingRef} tabIndex={-1} outline="none">
        <Trans>Stockage de la tablette</Trans>
      </Heading>
      {!health ? (
        <Text color="fg.muted">
          <Trans>Lecture du stockage…</Trans>
        </Text>
      ) : (
        <>
          {warnings.map((risk) => (
            <StorageRiskAlert key={risk} risk={risk} health={health} />
          ))}
          <PersistenceLine health={health} />
          <UsageLine health={health} />
          {/* Its words are the photo's catalog, fetched with it: the rest of the panel does not wait. */}
          <Suspense fallback={null}>
            <PhotosLine />
          </Suspense>
          <InstallOffer />
        </>
      )}
    </Stack>
  );
}

export function SyncPanel({ open, onClose, showStorage = false }: SyncPanelProps) {
  useSyncCatalog();
  const storageHeading = useRef<HTMLHeadingElement>(null);
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      // Focusing the storage's heading brings its explanation into view; otherwise the dialog's default.
      initialFocusEl={showStorage ? () => storageHeading.current : undefined}
    >
      <Dialog.Content>
        <Dialog.Header>
          <Dialog.Title>
            <Trans>Envoi des saisies</Trans>
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody>
          <Stack gap="6">
            <OutboxSummary />
            <HandoverSection />
            <StorageSection headingRef={storageHeading} />
          </Stack>
        </DialogBody>
        <Dialog.Footer>
          <Button variant="outline" size="lg" onClick={onClose}>
            <Trans>Fermer</Trans>
          </Button>
        </Dialog.Footer>
        <DialogCloseButton />
      </Dialog.Content>
    </DialogFrame>
  );
}
