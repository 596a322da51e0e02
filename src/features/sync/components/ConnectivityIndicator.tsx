/**
 * The header's connection status (docs/ARCHITECTURE.md#the-offline-model-in-practice): online or offline, and how many entries
 * wait to be sent. Its accessible name says it all in one sentence; changes are announced politely.
 */
import { Badge, HStack, Text, VisuallyHidden } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { AlertIcon, OfflineIcon, OnlineIcon } from '../../../components/ui/icons';
import { useSyncStatus } from '../../../lib/sync/hooks';

export function ConnectivityIndicator() {
  const { t } = useLingui();
  const { online, waiting, rejected } = useSyncStatus();
  const connection = online ? t`En ligne` : t`Hors ligne`;
  const queued =
    waiting > 0
      ? t`${plural(waiting, { one: "# saisie en attente d'envoi", other: "# saisies en attente d'envoi" })}`
      : '';
  const refused = rejected > 0 ? t`${plural(rejected, { one: '# saisie refusée', other: '# saisies refusées' })}` : '';
  const label = [connection, queued, refused].filter(Boolean).join(', ');
  return (
    <HStack
      role="status"
      aria-live="polite"
      aria-label={label}
      title={label}
      gap="1.5"
      px="2"
      minHeight="11"
      rounded="l2"
      color={online ? 'fg.success' : 'fg.warning'}
      data-online={online}
    >
      <VisuallyHidden>{label}</VisuallyHidden>
      {online ? <OnlineIcon boxSize="5" /> : <OfflineIcon boxSize="5" />}
      <Text as="span" fontSize="sm" fontWeight="medium" hideBelow="md" aria-hidden="true">
        {online ? <Trans>En ligne</Trans> : <Trans>Hors ligne</Trans>}
      </Text>
      {waiting > 0 && (
        <Badge colorPalette="orange" variant="solid" size="sm" aria-hidden="true">
          {waiting}
        </Badge>
      )}
      {rejected > 0 && (
        <Badge colorPalette="red" variant="solid" size="sm" aria-hidden="true">
          <AlertIcon boxSize="3" />
          {rejected}
        </Badge>
      )}
    </HStack>
  );
}
