/**
 * The header's connection status (docs/ARCHITECTURE.md#the-offline-model-in-practice): online or
 * offline, how many entries wait to be sent, and a mark when the tablet's storage is at risk
 * (docs/ARCHITECTURE.md#storage-health). A live region says it all in one sentence, politely; the
 * button around it opens the sending panel (loaded on first use).
 */
import { Badge, Box, Button, VisuallyHidden, Text } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { AlertIcon, OfflineIcon, OnlineIcon } from '../../../components/ui/icons';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { storageRisks } from '../../../lib/storage-health';
import { useSyncStatus } from '../../../lib/entries/hooks';
import { useStorageHealth } from '../hooks/useStorageHealth';
import type { SyncPanelProps } from './SyncPanel';

const SyncPanel = lazyDialog<SyncPanelProps>(async () => (await import('./SyncPanel')).SyncPanel, {
  isOpen: (props) => props.open,
  close: (props) => props.onClose(),
});

function useStatusSentence(): { online: boolean | null; waiting: number; rejected: number; sentence: string } {
  const { t } = useLingui();
  const { online, waiting, rejected } = useSyncStatus();
  // Unknown (a prerendered page not yet hydrated): no claim at all.
  const connection = online === null ? '' : online ? t`En ligne` : t`Hors ligne`;
  const queued =
    waiting > 0
      ? t`${plural(waiting, { one: "# saisie en attente d'envoi", other: "# saisies en attente d'envoi" })}`
      : '';
  const refused = rejected > 0 ? t`${plural(rejected, { one: '# saisie refusée', other: '# saisies refusées' })}` : '';
  return { online, waiting, rejected, sentence: [connection, queued, refused].filter(Boolean).join(', ') };
}

/** The connection's icon, or its empty place while the connection is not known yet. */
function ConnectionIcon({ online }: { online: boolean | null }) {
  if (online === null) return <Box as="span" boxSize="5" flexShrink={0} />;
  return online ? <OnlineIcon boxSize="5" /> : <OfflineIcon boxSize="5" />;
}

export function ConnectivityIndicator() {
  const { t } = useLingui();
  const { online, waiting, rejected, sentence } = useStatusSentence();
  const health = useStorageHealth(waiting + rejected);
  const risks = health === null ? [] : storageRisks(health);
  const atRisk = risks.length > 0;
  const [open, setOpen] = useState(false);
  const risk = atRisk ? t`stockage de la tablette à risque` : '';
  const summary = [sentence, risk].filter(Boolean).join(', ');
  return (
    <>
      <VisuallyHidden role="status" aria-live="polite" aria-label={sentence} data-online={online ?? undefined}>
        {sentence}
      </VisuallyHidden>
      <Box position="relative" display="inline-flex">
        {/* Said in words where the header has room (from 1024 px): the sign alone means nothing until
          pressed. Beside the button, in the header's empty middle, drawn over it (absolutely placed):
          nothing in the header moves when the risk is found, and the button's name, which already says
          it, stays its own (the words are not read twice). */}
        {atRisk && (
          <Text
            as="span"
            position="absolute"
            insetInlineEnd="100%"
            top="50%"
            transform="translateY(-50%)"
            whiteSpace="nowrap"
            pointerEvents="none"
            fontSize="sm"
            fontWeight="medium"
            color="fg.warning"
            hideBelow="lg"
            aria-hidden="true"
            data-testid="storage-risk-words"
          >
            {risks.includes('almost-full') ? (
              <Trans>Stockage presque plein</Trans>
            ) : (
              <Trans>Stockage non protégé</Trans>
            )}
          </Text>
        )}
        <Button
          variant="ghost"
          size="sm"
          gap="1.5"
          px="2"
          minHeight="11"
          color={online === null ? 'fg.muted' : online ? 'fg.success' : 'fg.warning'}
          aria-label={[summary, t`détails de l'envoi`].filter(Boolean).join(', ')}
          aria-haspopup="dialog"
          title={summary || undefined}
          data-storage-risk={atRisk}
          onPointerEnter={SyncPanel.preload}
          onFocus={SyncPanel.preload}
          onClick={() => setOpen(true)}
        >
          <ConnectionIcon online={online} />
          {/* Both words in one cell, the other one hidden: the button is as wide online as offline, so
          the header does not move when the connection becomes known. */}
          <Box as="span" display="inline-grid" fontSize="sm" fontWeight="medium" hideBelow="md">
            <Text as="span" gridArea="1 / 1" visibility={online === true ? 'visible' : 'hidden'}>
              <Trans>En ligne</Trans>
            </Text>
            <Text as="span" gridArea="1 / 1" visibility={online === false ? 'visible' : 'hidden'}>
              <Trans>Hors ligne</Trans>
            </Text>
          </Box>
          {waiting > 0 && (
            <Badge colorPalette="orange" variant="solid" size="sm">
              {waiting}
            </Badge>
          )}
          {rejected > 0 && (
            <Badge colorPalette="red" variant="solid" size="sm">
              <AlertIcon boxSize="3" />
              {rejected}
            </Badge>
          )}
          {/* A warning sign, not an error: the storage keeping the entries is at risk. Pressing the button
          opens the panel at its explanation. Its place is kept, so the header does not move when the
          storage is found at risk. */}
          <AlertIcon
            boxSize="4"
            color="fg.warning"
            data-testid="storage-risk-mark"
            visibility={atRisk ? 'visible' : 'hidden'}
          />
        </Button>
      </Box>
      <SyncPanel open={open} onClose={() => setOpen(false)} showStorage={atRisk} />
    </>
  );
}
